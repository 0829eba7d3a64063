import FoundationEssentials
import Glibc
import QRSealKit

/// Human-readable views of inbox items: a table sized to the terminal, and full details.
enum InboxTable {
    /// A header and one line per item: ID, when, kind, where from, and as much content as fits.
    static func lines(_ items: [InboxItem], width: Int) -> [String] {
        // A pinned item's id carries its mark, "*10", and the column makes room for it.
        let idWidth = max(2, items.map { String($0.id ?? 0).count + ($0.pinned ? 1 : 0) }.max() ?? 2)
        let fromWidth = min(24, max(4, items.map { shortSource($0).count }.max() ?? 4))
        // Seven fits every kind but "recipient"; the column widens only when one is listed.
        let kindWidth = max(7, items.map { $0.kind.rawValue.count }.max() ?? 7)
        let fixed = idWidth + 1 + 16 + 1 + kindWidth + 1 + fromWidth + 1
        let contentWidth = max(10, width - fixed)
        var out = [row([pad("ID", idWidth, right: true), pad("WHEN", 16), pad("KIND", kindWidth), pad("FROM", fromWidth), "CONTENT"])]
        for item in items {
            let mark = item.pinned ? "*" : ""
            var content = summary(item)
            if let label = item.label { content = "[\(DisplayText.oneLine(label))] " + content }
            out.append(row([pad(mark + String(item.id ?? 0), idWidth, right: true),
                            pad(Timestamp.local(item.receivedAt), 16), pad(item.kind.rawValue, kindWidth),
                            pad(truncate(shortSource(item), fromWidth), fromWidth),
                            truncate(content, contentWidth)]))
        }
        return out
    }

    /// One line of content: text with line breaks shown as ⏎ and other controls escaped, or a
    /// note for sealed and binary.
    static func summary(_ item: InboxItem) -> String {
        switch item.kind {
        case .sealed:
            var size = item.bytes.count
            if case .sealed(let envelope) = Classification(symbolBytes: item.bytes) { size = envelope.count }
            return "sealed message, \(size) bytes; 'qrseal inbox open \(item.id ?? 0)'"
        case .binary: return "\(item.bytes.count) bytes of binary data"
        case .recipient:
            let fingerprint = (try? AgeRecipient(text: item.text ?? ""))?.fingerprint ?? "?"
            return "public key, fingerprint \(fingerprint); 'qrseal contacts add NAME --from-inbox \(item.id ?? 0)'"
        default:
            return DisplayText.oneLine(item.text ?? "")
        }
    }

    /// Every field of an item, one `name  value` line each, with the parsed content fields.
    static func details(_ item: InboxItem) -> [String] {
        var fields: [(String, String)] = [
            ("id", String(item.id ?? 0)),
            ("received", Timestamp.local(item.receivedAt, seconds: true) + " (" + Timestamp.iso8601(item.receivedAt) + ")"),
            // One line each: a label or source with line breaks could pass for other fields.
            ("from", "\(item.sourceKind.rawValue) \(DisplayText.escape(item.source))"),
            ("format", Symbology(rawValue: item.symbology)?.displayName ?? item.symbology),
            ("kind", item.kind.rawValue),
        ]
        if let label = item.label { fields.append(("label", DisplayText.escape(label))) }
        if item.pinned { fields.append(("pinned", "yes")) }
        let parsed = ContentClassifier.classify(bytes: item.bytes, text: item.text, symbology: item.symbology)
        fields += parsed.fields.map { ($0.name, $0.value) }
        switch item.kind {
        case .sealed:
            fields.append(("note", "kept sealed; open it with 'qrseal inbox open \(item.id ?? 0)'"))
        case .recipient:
            if let text = item.text { fields.append(("text", text)) }
            fields.append(("note", "someone's public key; seal to it after 'qrseal contacts add NAME --from-inbox \(item.id ?? 0)'"))
        case .binary:
            fields.append(("hex", NumberText.hex(item.bytes.prefix(48), separator: " ")
                + (item.bytes.count > 48 ? " …" : "")))
        default:
            if let text = item.text { fields.append(("text", text)) }
        }
        if !item.corners.isEmpty {
            fields.append(("corners", item.corners.map { "(\(fmt($0.x)), \(fmt($0.y)))" }.joined(separator: " ")))
        }
        let width = fields.map(\.0.count).max() ?? 0
        return fields.flatMap { name, value -> [String] in
            DisplayText.lines(of: value).enumerated().map { i, line in
                (i == 0 ? pad(name, width) : String(repeating: " ", count: width)) + "  " + line
            }
        }
    }

    private static func fmt(_ d: Double) -> String { d == d.rounded() ? String(Int(d)) : NumberText.oneDecimal(d) }

    private static func shortSource(_ item: InboxItem) -> String {
        DisplayText.escape(item.sourceKind == .file ? URL(fileURLWithPath: item.source).lastPathComponent : item.source)
    }

    private static func row(_ cells: [String]) -> String { cells.joined(separator: " ") }

    private static func pad(_ s: String, _ width: Int, right: Bool = false) -> String {
        let fill = String(repeating: " ", count: max(0, width - s.count))
        return right ? fill + s : s + fill
    }

    static func truncate(_ s: String, _ width: Int) -> String {
        s.count <= width ? s : String(s.prefix(max(0, width - 1))) + "…"
    }
}
