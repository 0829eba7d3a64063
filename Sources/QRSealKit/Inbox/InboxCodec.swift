import Foundation

/// The export formats of the inbox, and reading them back.
///
/// JSON: one object per line. CSV: RFC 4180 with a header row, and an apostrophe before
/// any cell that starts with `=`, `+`, `-`, `@`, a tab, a CR or an apostrophe, so that a
/// spreadsheet shows it as text instead of running it (import removes it). Both carry the
/// payload as base64, so binary items survive; an export imported into an empty inbox
/// exports the same.
public enum InboxFormat: String, CaseIterable, Sendable {
    case json, csv

    static let csvColumns = ["id", "received_at", "source_kind", "source", "symbology", "kind",
                             "text", "bytes_base64", "corners", "label", "pinned"]

    /// The CSV header line, for the start of a CSV export.
    public static var csvHeader: String { csvColumns.joined(separator: ",") }

    /// One item as one JSON line or one CSV record (without the line break).
    public func encode(_ item: InboxItem) -> String {
        switch self {
        case .json:
            var fields: [(String, JSON.Value)] = [
                ("id", .int(Int(item.id ?? 0))),
                ("received_at", .string(Timestamp.iso8601(item.receivedAt))),
                ("source_kind", .string(item.sourceKind.rawValue)),
                ("source", .string(item.source)),
                ("symbology", .string(item.symbology)),
                ("kind", .string(item.kind.rawValue)),
            ]
            if let text = item.text { fields.append(("text", .string(text))) }
            fields.append(("bytes_base64", .string(Data(item.bytes).base64EncodedString())))
            fields.append(("corners", .array(item.corners.map { .array([.number($0.x), .number($0.y)]) })))
            if let label = item.label { fields.append(("label", .string(label))) }
            fields.append(("pinned", .bool(item.pinned)))
            return JSON.line(fields)
        case .csv:
            let cells = [String(item.id ?? 0), Timestamp.iso8601(item.receivedAt), item.sourceKind.rawValue,
                         item.source, item.symbology, item.kind.rawValue, item.text ?? "",
                         Data(item.bytes).base64EncodedString(),
                         item.corners.isEmpty ? "" : InboxRow.encodeCorners(item.corners),
                         item.label ?? "", item.pinned ? "1" : "0"]
            return cells.map { Self.csvQuote(Self.csvDefused($0)) }.joined(separator: ",")
        }
    }

    /// RFC 4180: a cell with a comma, quote, CR or LF is quoted, its quotes doubled. Scalars,
    /// not characters: a CR LF pair is one Swift character, equal to neither "\r" nor "\n",
    /// and a quote followed by a combining mark is one character, equal to no quote.
    static func csvQuote(_ cell: String) -> String {
        guard cell.unicodeScalars.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return cell }
        return "\"" + cell.replacingAll("\"", with: "\"\"") + "\""
    }

    /// The first scalars a spreadsheet takes for the start of a formula (`=`, `+`, `-`, `@`,
    /// and a tab or CR before them), and the apostrophe that marks a cell as text.
    static let csvFormulaStarts: Set<Unicode.Scalar> = ["=", "+", "-", "@", "\t", "\r", "'"]

    /// A cell a spreadsheet will not run: one that starts with a formula character or an
    /// apostrophe gets an apostrophe in front, which spreadsheets hide and our import removes
    /// (`csvRestored`). Every cell, so that import needs no list of which.
    static func csvDefused(_ cell: String) -> String {
        guard let first = cell.unicodeScalars.first, csvFormulaStarts.contains(first) else { return cell }
        return "'" + cell
    }

    /// The cell `csvDefused` was given: one leading apostrophe removed when a formula
    /// character or another apostrophe follows it; anything else, an older export's
    /// `'text` too, as it is.
    static func csvRestored(_ cell: String) -> String {
        var scalars = cell.unicodeScalars.makeIterator()
        guard scalars.next() == "'", let second = scalars.next(), csvFormulaStarts.contains(second) else { return cell }
        return String(cell.unicodeScalars.dropFirst())
    }
}

/// Reads exported items one at a time from lines of text, naming the line of any error.
///
/// A line longer than `maxLineBytes`, or one that is not UTF-8, is refused: nothing is cut
/// or replaced on the way in.
public struct InboxImportReader {
    /// The longest line (and CSV record) read: 16 MiB, far above any code's payload.
    public static let maxLineBytes = 16 << 20

    private let nextLine: () -> String?
    private var lineNumber = 0
    private var format: InboxFormat?

    /// `nextLine` gives the file's lines without their line breaks, then nil; bytes that are
    /// not UTF-8 come as ``RawBytes`` scalars, and a line may stop after `maxLineBytes + 1`.
    public init(nextLine: @escaping () -> String?) {
        self.nextLine = nextLine
    }

    /// The next item, nil at the end; throws `.badImport` naming the line.
    public mutating func next() throws(InboxError) -> InboxItem? {
        while let raw = try readRawLine() {
            let line = raw.hasSuffix("\r") ? String(raw.dropLast()) : raw
            if line.trimmingCharacters(in: .whitespaces).isEmpty { continue }
            if format == nil {
                if line.hasPrefix("{") {
                    format = .json
                } else if line.trimmingCharacters(in: .whitespaces) == InboxFormat.csvHeader {
                    format = .csv
                    continue
                } else {
                    throw .badImport(line: lineNumber, reason: "not a qrseal export (expected JSON lines or CSV with a header)")
                }
            }
            let start = lineNumber
            return try format == .json ? jsonItem(line, line: start) : csvItem(raw, line: start)
        }
        return nil
    }

    /// The next physical line, its CR kept: inside a quoted CSV cell it is content.
    private mutating func readRawLine() throws(InboxError) -> String? {
        guard let line = nextLine() else { return nil }
        lineNumber += 1
        if line.utf8.count > Self.maxLineBytes {
            throw .badImport(line: lineNumber, reason: "longer than \(Self.maxLineBytes >> 20) MiB")
        }
        if RawBytes.hasRawBytes(line) { throw .badImport(line: lineNumber, reason: "not valid UTF-8") }
        return line
    }

    private func jsonItem(_ line: String, line number: Int) throws(InboxError) -> InboxItem {
        guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
            throw .badImport(line: number, reason: "malformed JSON")
        }
        func string(_ key: String) -> String? { object[key] as? String }
        var corners: [Point] = []
        if object["corners"] != nil {
            // JSONDecoder, because JSONSerialization on Linux reads some doubles as a
            // neighbouring value, and an export must import to the same corners.
            let list = try? JSONDecoder().decode(CornerList.self, from: Data(line.utf8))
            guard let pairs = list?.corners, pairs.allSatisfy({ $0.count == 2 }) else {
                throw .badImport(line: number, reason: "corners must be a list of [x, y] pairs")
            }
            corners = pairs.map { Point(x: $0[0], y: $0[1]) }
        }
        if object["text"] != nil && string("text") == nil { throw .badImport(line: number, reason: "text must be a string") }
        if object["label"] != nil && string("label") == nil { throw .badImport(line: number, reason: "label must be a string") }
        if object["pinned"] != nil && !(object["pinned"] is Bool) {
            throw .badImport(line: number, reason: "pinned must be true or false")
        }
        return try Self.item(receivedAt: string("received_at"), sourceKind: string("source_kind"),
                             source: string("source"), symbology: string("symbology"), kind: string("kind"),
                             text: string("text"), base64: string("bytes_base64"), corners: corners,
                             label: string("label"), pinned: object["pinned"] as? Bool ?? false, line: number)
    }

    private struct CornerList: Decodable { let corners: [[Double]]? }

    private mutating func csvItem(_ first: String, line number: Int) throws(InboxError) -> InboxItem {
        // A quoted cell may hold line breaks: read on until the quotes balance. Only the
        // CR that ends the whole record is dropped; CRs inside quotes are content.
        var record = first
        var quotes = Self.quoteCount(first)
        while quotes % 2 == 1 {
            guard let more = try readRawLine() else { throw .badImport(line: number, reason: "unterminated quoted field") }
            record += "\n" + more
            quotes += Self.quoteCount(more)
            if record.utf8.count > Self.maxLineBytes {
                throw .badImport(line: number, reason: "record longer than \(Self.maxLineBytes >> 20) MiB")
            }
        }
        if record.unicodeScalars.last == "\r" { record.unicodeScalars.removeLast() }
        let cells = Self.csvCells(record)?.map(InboxFormat.csvRestored)
        guard let cells, cells.count == InboxFormat.csvColumns.count else {
            throw .badImport(line: number, reason: "expected \(InboxFormat.csvColumns.count) fields")
        }
        guard cells[10] == "0" || cells[10] == "1" else { throw .badImport(line: number, reason: "pinned must be 0 or 1") }
        let corners = cells[8].isEmpty ? [] : InboxRow.decodeCorners(cells[8])
        if !cells[8].isEmpty && corners.isEmpty { throw .badImport(line: number, reason: "bad corners") }
        let bytesGiven = !(cells[7].isEmpty)
        // CSV cannot tell empty text from none: an empty cell beside a payload means "not text".
        let text: String? = cells[6].isEmpty && bytesGiven ? nil : cells[6]
        return try Self.item(receivedAt: cells[1], sourceKind: cells[2], source: cells[3], symbology: cells[4],
                             kind: cells[5], text: text, base64: cells[7], corners: corners,
                             label: cells[9].isEmpty ? nil : cells[9], pinned: cells[10] == "1", line: number)
    }

    private static func quoteCount(_ line: String) -> Int { line.utf8.reduce(0) { $0 + ($1 == 0x22 ? 1 : 0) } }

    /// The cells of one CSV record, or nil when a quoted cell is still open. Scalars, not
    /// characters: a CR LF pair is one Swift character, and would hide its LF.
    static func csvCells(_ record: String) -> [String]? {
        var cells: [String] = []
        var cell = String.UnicodeScalarView()
        var quoted = false, afterQuote = false
        for c in record.unicodeScalars {
            if quoted {
                if c == "\"" { quoted = false; afterQuote = true } else { cell.append(c) }
            } else if c == "\"" {
                if afterQuote { cell.append("\"") }  // "" inside quotes
                quoted = true
                afterQuote = false
            } else if c == "," {
                cells.append(String(cell)); cell = String.UnicodeScalarView(); afterQuote = false
            } else {
                cell.append(c); afterQuote = false
            }
        }
        if quoted { return nil }
        cells.append(String(cell))
        return cells
    }

    /// An item from an export's fields. The kind is the content's own, recomputed: a file
    /// cannot make sealed bytes pass for text (which would be searchable) or text for sealed.
    private static func item(receivedAt: String?, sourceKind: String?, source: String?, symbology: String?,
                             kind: String?, text: String?, base64: String?, corners: [Point],
                             label: String?, pinned: Bool, line: Int) throws(InboxError) -> InboxItem {
        guard let receivedAt, let time = Timestamp.parse(receivedAt) else {
            throw .badImport(line: line, reason: "received_at must be an ISO 8601 time, not \(shown(receivedAt))")
        }
        guard let sourceKind, let source_ = InboxItem.SourceKind(rawValue: sourceKind) else {
            throw .badImport(line: line, reason: "unknown source_kind \(shown(sourceKind))")
        }
        guard let source, let symbology, !symbology.isEmpty else {
            throw .badImport(line: line, reason: "source and symbology are required")
        }
        guard let kind, ContentKind(rawValue: kind) != nil else {
            throw .badImport(line: line, reason: "unknown kind \(shown(kind))")
        }
        guard let base64, let bytes = Data(base64Encoded: base64) else {
            throw .badImport(line: line, reason: "bad base64 in bytes_base64")
        }
        guard corners.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) else {
            throw .badImport(line: line, reason: "corners must be finite numbers")
        }
        let payload = [UInt8](bytes)
        let contentKind = ContentClassifier.classify(bytes: payload, text: text, symbology: symbology).kind
        return InboxItem(receivedAt: time, sourceKind: source_, source: source, symbology: symbology,
                         bytes: payload, text: text, kind: contentKind, corners: corners,
                         label: label, pinned: pinned)
    }

    /// A value from the file for an error message: quoted, escaped, at most 40 characters.
    private static func shown(_ value: String?) -> String {
        guard let value else { return "(missing)" }
        let cut = value.count > 40 ? value.prefix(40) + "…" : Substring(value)
        return "'" + DisplayText.escape(cut) + "'"
    }
}
