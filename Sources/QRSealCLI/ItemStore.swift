import Foundation
import QRSealKit

/// Keeps what a command read in the inbox, as the duplicate policy allows.
struct ItemStore {
    let inbox: Inbox
    let policy: DedupePolicy

    init(_ args: ParsedArguments, locations: Locations) throws(CLIError) {
        policy = try locations.dedupePolicy(args)
        inbox = try locations.openInbox(args)
    }

    /// Stores the symbols read from `source` (a path, made absolute, or "-").
    func keep(_ detections: [Detection], source: String, kind: InboxItem.SourceKind) throws(CLIError) {
        guard !detections.isEmpty else { return }
        let now = Self.now()
        let where_ = source == "-" || kind != .file ? source : URL(fileURLWithPath: source).standardizedFileURL.path
        let items = detections.map { InboxItem(detection: $0, receivedAt: now, sourceKind: kind, source: where_) }
        do { try inbox.add(items, dedupe: policy) } catch { throw CLIError(message: error.description) }
    }

    /// Stores pasted sealed text.
    func keepText(_ text: String, source: String) throws(CLIError) {
        let bytes = Array(text.utf8)
        let kind = ContentClassifier.classify(bytes: bytes, text: text, symbology: "text").kind
        let item = InboxItem(receivedAt: Self.now(), sourceKind: .text, source: source, symbology: "text",
                             bytes: bytes, text: text, kind: kind)
        do { try inbox.add([item], dedupe: policy) } catch { throw CLIError(message: error.description) }
    }

    static func now() -> Int64 { Int64((Date().timeIntervalSince1970 * 1000).rounded()) }
}
