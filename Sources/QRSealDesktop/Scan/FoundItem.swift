import QRSealKit

/// One thing read on the scan page — a code, a text block, or a message rebuilt from parts —
/// with what the intake made of it. Shown as a row of the list and, while in view, an outline.
final class FoundItem {
    enum Subject {
        case code(Detection)
        case text(TextBlock)
        case message(CompletedMessage)
        case pasted(String)
    }

    let subject: Subject
    private(set) var outcome: Outcome?
    let row: Row

    init(subject: Subject, outcome: Outcome? = nil) {
        self.subject = subject
        self.outcome = outcome
        row = Row(title: "", subtitle: "")
        row.activatable()
        refresh()
    }

    func update(_ outcome: Outcome) {
        self.outcome = outcome
        refresh()
    }

    /// Symbology and bytes, or the text: what makes two reads the same item.
    var key: String {
        switch subject {
        case .code(let d): return d.symbology.rawValue + ":" + RawBytes.string(d.bytes)
        case .text(let block): return "text:" + block.text
        case .message(let m): return "message:" + RawBytes.string(m.item.bytes)
        case .pasted(let text): return "pasted:" + text
        }
    }

    /// The content as the intake left it: plain, opened, locked or failed.
    var content: Reader.Content {
        if let outcome {
            if case .piece(let piece) = outcome.event, let completed = piece.completed { return completed.content }
            if let content = outcome.content { return content }
        }
        if case .message(let m) = subject { return m.content }
        return .plain
    }

    /// The inbox item this is kept as, if any.
    var inboxID: Int64? {
        if case .piece(let piece)? = outcome?.event, let completed = piece.completed { return completed.item.id }
        if case .message(let m) = subject { return m.item.id }
        return outcome?.kept?.id
    }

    /// The text the content holds, or nil (locked, failed, a file, bytes that are not text).
    var text: String? {
        switch content {
        case .opened(.text(let text)): return text
        case .opened(.file): return nil
        case .locked, .failed: return nil
        case .plain:
            switch subject {
            case .code(let d): return d.text
            case .text(let block): return block.text
            case .message(let m): return m.item.text
            case .pasted(let text): return text
            }
        }
    }

    /// What the content holds, classified once each time the outcome changes (outlines ask for
    /// it at every tracked move).
    private(set) var summary = ContentSummary(kind: .text)

    private func classify() -> ContentSummary {
        switch content {
        case .opened(.text(let text)): return ContentClassifier.classify(bytes: Array(text.utf8), text: text, symbology: "text")
        case .opened(.file(let name, let bytes)):
            return ContentSummary(kind: .binary, fields: [ContentField(name: "file", value: name),
                                                          ContentField(name: "size", value: String(bytes.count))])
        case .locked, .failed: return ContentSummary(kind: .sealed)
        case .plain:
            switch subject {
            case .code(let d): return ContentClassifier.classify(bytes: d.bytes, text: d.text, symbology: d.symbology.rawValue)
            case .text(let block): return ContentClassifier.classify(bytes: Array(block.text.utf8), text: block.text, symbology: "text")
            case .message(let m): return ContentClassifier.classify(bytes: m.item.bytes, text: m.item.text, symbology: m.item.symbology)
            case .pasted(let text): return ContentClassifier.classify(bytes: Array(text.utf8), text: text, symbology: "text")
            }
        }
    }

    /// "QR Code", "Text", "3 parts".
    var format: String {
        switch subject {
        case .code(let d): return d.symbology.displayName
        case .text: return "Text"
        case .message(let m):
            let parts = partCount.map { " · \($0) parts" } ?? ""
            return (Symbology(rawValue: m.item.symbology)?.displayName ?? m.item.symbology) + parts
        case .pasted: return "Pasted"
        }
    }

    /// The kind, and for sealed messages whether they are open.
    /// The parts a message rebuilt from parts came in.
    private var partCount: Int? {
        if case .piece(let piece)? = outcome?.event { return piece.progress.totalParts }
        return nil
    }

    /// Whether this is a message rebuilt from parts that was never sealed.
    private var isUnsealedMessage: Bool {
        if case .message(let m) = subject { return !m.isSealed }
        return false
    }

    var title: String {
        if isUnsealedMessage, case .opened(.text) = content { return "Message" }
        switch content {
        case .opened(.text): return "Opened message"
        case .opened(.file(let name, _)): return name.isEmpty ? "Opened file" : "File " + name
        case .locked(let kind, _): return "Sealed message (\(kind.description))"
        case .failed: return "Sealed message that cannot be opened"
        case .plain: return ItemText.name(summary.kind)
        }
    }

    /// One line of the content for lists and outlines, escaped and shortened.
    func preview(_ limit: Int) -> String {
        let whole: String
        switch content {
        case .locked: whole = "locked — activate to open"
        case .failed(let error): whole = error.description
        case .opened(.file(_, let bytes)): whole = "\(bytes.count) bytes"
        default:
            // What names a network, a contact or an event, not its raw text (a Wi-Fi code
            // holds its password).
            let summary = self.summary
            let key = [ContentKind.wifi: "ssid", .contact: "name", .event: "summary"][summary.kind]
            whole = key.flatMap(summary.value) ?? text ?? "\(rawCount) bytes"
        }
        let flat = DisplayText.escape(whole.split(whereSeparator: \.isNewline).joined(separator: " "))
        return flat.count > limit ? String(flat.prefix(limit - 1)) + "…" : flat
    }

    private var rawCount: Int {
        switch subject {
        case .code(let d): return d.bytes.count
        case .text(let block): return block.text.utf8.count
        case .message(let m): return m.size
        case .pasted(let text): return text.utf8.count
        }
    }

    private func refresh() {
        summary = classify()
        row.set(title: title, subtitle: format + " · " + preview(80))
        row.set(icon: ItemText.icon(summary.kind))
    }
}
