import Foundation
import QRSealKit

/// Keeps what a command read in the inbox, as the duplicate policy allows.
///
/// The inbox is opened at the first item to keep, so that a command reads and shows what it
/// reads even when the inbox cannot take it; the failure is then reported once.
final class ItemStore {
    let policy: DedupePolicy
    private let open: () throws(CLIError) -> Inbox
    private var opened: Inbox?
    private var failed = false
    /// The temporary folder of a --no-store run's parts, removed with it.
    private var temporaryFolder: String?

    init(_ args: ParsedArguments, locations: Locations) throws(CLIError) {
        policy = try locations.dedupePolicy(args)
        open = { () throws(CLIError) in try locations.openInbox(args) }
    }

    /// Stores the symbols read from `source` (a path, made absolute, or "-"); returns each
    /// one's inbox id (a repeat gives the id of the item it repeats), or nil when the inbox
    /// failed before (and that was reported).
    @discardableResult
    func keep(_ detections: [Detection], source: String, kind: InboxItem.SourceKind) throws(CLIError) -> [Inbox.Kept]? {
        guard !detections.isEmpty else { return [] }
        let now = Self.now()
        let where_ = source == "-" || kind != .file ? source : URL(fileURLWithPath: source).standardizedFileURL.path
        return try store(detections.map { InboxItem(detection: $0, receivedAt: now, sourceKind: kind, source: where_) })
    }

    /// Stores pasted sealed text.
    func keepText(_ text: String, source: String) throws(CLIError) {
        let bytes = Array(text.utf8)
        let kind = ContentClassifier.classify(bytes: bytes, text: text, symbology: "text").kind
        try store([InboxItem(receivedAt: Self.now(), sourceKind: .text, source: source, symbology: "text",
                             bytes: bytes, text: text, kind: kind)])
    }

    /// Stores `items`; the first failure is thrown, later calls then store nothing and return nil.
    @discardableResult
    func store(_ items: [InboxItem]) throws(CLIError) -> [Inbox.Kept]? {
        guard !failed else { return nil }
        do throws(CLIError) {
            if opened == nil { opened = try open() }
            guard let inbox = opened else { return nil }
            do { return try inbox.keep(items, dedupe: policy) } catch { throw CLIError(error) }
        } catch {
            failed = true
            throw error
        }
    }

    /// Keeps a piece of a larger message where parts wait; nil when the inbox failed before.
    func receive(_ piece: Inbox.Piece, symbology: String, source: String, kind: InboxItem.SourceKind) throws(CLIError) -> Inbox.Received? {
        guard !failed else { return nil }
        let now = Self.now()
        let where_ = source == "-" || kind != .file ? source : URL(fileURLWithPath: source).standardizedFileURL.path
        do throws(CLIError) {
            if opened == nil { opened = try open() }
            guard let inbox = opened else { return nil }
            do {
                return try inbox.receive(piece, symbology: symbology, receivedAt: now, sourceKind: kind, source: where_) {
                    whole throws(PartsError) in
                    piece.kind == .parts
                        ? try RebuiltMessage.item(whole: whole, symbology: symbology, receivedAt: now, sourceKind: kind, source: where_)
                        : RebuiltMessage.joinedItem(whole, symbology: symbology, receivedAt: now, sourceKind: kind, source: where_)
                }
            } catch { throw CLIError(error) }
        } catch {
            failed = true
            throw error
        }
    }

    /// With --no-store, parts still wait somewhere until their message is complete: a fresh
    /// inbox in a private temporary folder, removed when the command ends.
    static func temporary(policy: DedupePolicy) throws(CLIError) -> ItemStore {
        let base = (ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 }) ?? "/tmp"
        var template = Array((base + "/qrseal-parts-XXXXXX").utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw CLIError(message: "cannot make a temporary folder for parts in \(base): \(SystemFiles.reason())")
        }
        let folder = String(cString: made)
        let store = ItemStore(policy: policy, removing: folder) { () throws(CLIError) in
            do throws(InboxError) { return try Inbox(path: folder + "/parts.sqlite") } catch { throw CLIError(error) }
        }
        return store
    }

    private init(policy: DedupePolicy, removing folder: String, open: @escaping () throws(CLIError) -> Inbox) {
        self.policy = policy
        self.open = open
        temporaryFolder = folder
    }

    deinit {
        guard let folder = temporaryFolder else { return }
        opened = nil
        for name in ["parts.sqlite", "parts.sqlite-wal", "parts.sqlite-shm", "parts.sqlite-journal"] {
            SystemFiles.remove(folder + "/" + name)
        }
        rmdir(folder)
    }

    /// The first failure met by `deferringFailure`, for the command to report after its output.
    private(set) var failure: CLIError?

    /// Runs `body`, keeping its failure in `failure` instead of throwing it.
    func deferringFailure(_ body: (ItemStore) throws(CLIError) -> Void) {
        do { try body(self) } catch { failure = failure ?? error }
    }

    static func now() -> Int64 { Int64((Date().timeIntervalSince1970 * 1000).rounded()) }
}
