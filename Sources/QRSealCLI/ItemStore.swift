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

    /// With --no-store, parts still wait somewhere until their message is complete: an inbox
    /// in memory, so that nothing of them reaches a disk, however the command ends.
    static func temporary(policy: DedupePolicy) throws(CLIError) -> ItemStore {
        ItemStore(policy: policy) { () throws(CLIError) in
            do throws(InboxError) { return try Inbox.inMemory() } catch { throw CLIError(error) }
        }
    }

    private init(policy: DedupePolicy, open: @escaping () throws(CLIError) -> Inbox) {
        self.policy = policy
        self.open = open
    }

    /// The first failure met by `deferringFailure`, for the command to report after its output.
    private(set) var failure: CLIError?

    /// Runs `body`, keeping its failure in `failure` instead of throwing it.
    func deferringFailure(_ body: (ItemStore) throws(CLIError) -> Void) {
        do { try body(self) } catch { failure = failure ?? error }
    }

    static func now() -> Int64 { Int64((Date().timeIntervalSince1970 * 1000).rounded()) }
}
