import FoundationEssentials
import Glibc

/// The export formats of the inbox, and reading them back (docs/FORMAT.md, section 10).
///
/// JSON: a line naming the export's version, then one object per line. CSV: RFC 4180 with
/// a header row, whose columns name the version, and an apostrophe before any cell that
/// starts with `=`, `+`, `-`, `@`, a tab, a CR or an apostrophe, so that a spreadsheet shows
/// it as text instead of running it (import removes it). Both carry payloads as base64, so
/// binary items survive; an export imported into an empty inbox exports the same. Version 2
/// adds the pieces of messages still waiting for parts after the items; version 1 (no
/// version line in JSON, 11 columns in CSV) had items only, and is still read.
public enum InboxFormat: String, CaseIterable, Sendable {
    case json, csv

    /// The version exports are written in.
    public static let version = 2

    /// The columns of version 1, an item's fields.
    static let csvItemColumns = ["id", "received_at", "source_kind", "source", "symbology", "kind",
                                 "text", "bytes_base64", "corners", "label", "pinned"]
    /// The columns version 2 adds, for the pieces of waiting messages; empty in an item's row.
    static let csvPieceColumns = ["waiting", "sequence_index", "sequence_count", "sequence_parity"]
    /// The name of the file an unsealed item rebuilt from parts carries; empty otherwise.
    static let csvFileNameColumn = "file_name"
    static let csvColumns = csvItemColumns + csvPieceColumns + [csvFileNameColumn]

    /// The CSV header line, for the start of a CSV export.
    public static var csvHeader: String { csvColumns.joined(separator: ",") }
    /// The header line of a version 1 CSV export.
    static var csvHeaderVersion1: String { csvItemColumns.joined(separator: ",") }

    /// The key of the line that starts a JSON export: `{"qrseal_inbox_export":2}`.
    static let jsonVersionKey = "qrseal_inbox_export"

    /// The first line of an export in this format: the version line, or the CSV header.
    public var header: String {
        switch self {
        case .json: return JSON.line([(Self.jsonVersionKey, .int(Self.version))])
        case .csv: return Self.csvHeader
        }
    }

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
            if let name = item.fileName { fields.append(("file_name", .string(name))) }
            return JSON.line(fields)
        case .csv:
            let cells = [String(item.id ?? 0), Timestamp.iso8601(item.receivedAt), item.sourceKind.rawValue,
                         item.source, item.symbology, item.kind.rawValue, item.text ?? "",
                         Data(item.bytes).base64EncodedString(),
                         item.corners.isEmpty ? "" : InboxRow.encodeCorners(item.corners),
                         item.label ?? "", item.pinned ? "1" : "0"]
            return Self.csvRecord(cells + Array(repeating: "", count: Self.csvPieceColumns.count) + [item.fileName ?? ""])
        }
    }

    /// One CSV record of `cells`, each defused and quoted.
    static func csvRecord(_ cells: [String]) -> String {
        cells.map { csvQuote(csvDefused($0)) }.joined(separator: ",")
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

/// Reads exported items, and pieces of waiting messages, one at a time from lines of text,
/// naming the line of any error.
///
/// A line longer than `maxLineBytes`, or one that is not UTF-8, is refused: nothing is cut
/// or replaced on the way in.
public struct InboxImportReader {
    /// The longest line (and CSV record) read: 16 MiB, far above any code's payload.
    public static let maxLineBytes = 16 << 20

    private let nextLine: () -> String?
    private var lineNumber = 0
    private var format: InboxFormat?
    /// The export's version, told by its first line.
    private(set) var version = 1

    /// `nextLine` gives the file's lines without their line breaks, then nil; bytes that are
    /// not UTF-8 come as ``RawBytes`` scalars, and a line may stop after `maxLineBytes + 1`.
    public init(nextLine: @escaping () -> String?) {
        self.nextLine = nextLine
    }

    /// The next record, nil at the end; throws `.badImport` naming the line.
    public mutating func next() throws(InboxError) -> InboxRecord? {
        while let raw = try readRawLine() {
            let line = raw.hasSuffix("\r") ? String(raw.dropLast()) : raw
            let trimmed = line.trimmingSpaces()
            if trimmed.isEmpty { continue }
            if format == nil {
                if line.hasPrefix("{") {
                    format = .json
                    if let version = try Self.jsonVersion(line, line: lineNumber) {
                        self.version = version
                        continue
                    }
                } else if trimmed == InboxFormat.csvHeader || trimmed == InboxFormat.csvHeaderVersion1 {
                    format = .csv
                    version = trimmed == InboxFormat.csvHeader ? 2 : 1
                    continue
                } else {
                    throw .badImport(line: lineNumber, reason: "not a qrseal export (expected JSON lines or CSV with a header)")
                }
            }
            let start = lineNumber
            return try format == .json ? jsonRecord(line, line: start) : csvRecord(raw, line: start)
        }
        return nil
    }

    /// The version a JSON export's first line names, nil when it is an item (version 1 had
    /// no version line); a version this reader does not know is refused.
    private static func jsonVersion(_ line: String, line number: Int) throws(InboxError) -> Int? {
        guard let object = JSON.object(parsing: line), object[InboxFormat.jsonVersionKey] != nil else { return nil }
        guard let version = try? JSONDecoder().decode(VersionLine.self, from: Data(line.utf8)).qrseal_inbox_export,
              version >= 1 else {
            throw .badImport(line: number, reason: "the export's version must be a whole number from 1")
        }
        guard version <= InboxFormat.version else {
            throw .badImport(line: number, reason: "an export of version \(version), newer than this qrseal reads "
                             + "(up to \(InboxFormat.version))")
        }
        return version
    }

    private struct VersionLine: Decodable { let qrseal_inbox_export: Int }

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

    private func jsonRecord(_ line: String, line number: Int) throws(InboxError) -> InboxRecord {
        guard let object = JSON.object(parsing: line) else {
            throw .badImport(line: number, reason: "malformed JSON")
        }
        // Version 1 had no pieces: there, a "waiting" field is one the reader does not know.
        if version >= 2 && object["waiting"] != nil { return .piece(try Self.jsonPiece(line, line: number)) }
        return .item(try jsonItem(object, line: number))
    }

    private func jsonItem(_ object: [String: JSON.Value], line number: Int) throws(InboxError) -> InboxItem {
        func string(_ key: String) -> String? { object[key]?.string }
        var corners: [Point] = []
        if let value = object["corners"] {
            guard let points = Self.points(value) else {
                throw .badImport(line: number, reason: "corners must be a list of [x, y] pairs")
            }
            corners = points
        }
        if object["text"] != nil && string("text") == nil { throw .badImport(line: number, reason: "text must be a string") }
        if object["label"] != nil && string("label") == nil { throw .badImport(line: number, reason: "label must be a string") }
        if object["pinned"] != nil && object["pinned"]?.bool == nil {
            throw .badImport(line: number, reason: "pinned must be true or false")
        }
        if object["file_name"] != nil && string("file_name") == nil {
            throw .badImport(line: number, reason: "file_name must be a string")
        }
        var item = try Self.item(receivedAt: string("received_at"), sourceKind: string("source_kind"),
                             source: string("source"), symbology: string("symbology"), kind: string("kind"),
                             text: string("text"), base64: string("bytes_base64"), corners: corners,
                             label: string("label"), pinned: object["pinned"]?.bool ?? false, line: number)
        // An empty file name is none, as in CSV (and as `encode` would never write one).
        item.fileName = string("file_name").flatMap { $0.isEmpty ? nil : $0 }
        return item
    }


    /// `[[x, y], …]` as points, each number read as a Double; nil for anything else.
    private static func points(_ value: JSON.Value) -> [Point]? {
        guard case .array(let pairs) = value else { return nil }
        var points: [Point] = []
        for pair in pairs {
            guard case .array(let xy) = pair, xy.count == 2, let x = xy[0].number, let y = xy[1].number else { return nil }
            points.append(Point(x: x, y: y))
        }
        return points
    }

    private mutating func csvRecord(_ first: String, line number: Int) throws(InboxError) -> InboxRecord {
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
        let columns = version >= 2 ? InboxFormat.csvColumns.count : InboxFormat.csvItemColumns.count
        let cells = Self.csvCells(record)?.map(InboxFormat.csvRestored)
        guard let cells, cells.count == columns else { throw .badImport(line: number, reason: "expected \(columns) fields") }
        if version >= 2 && !cells[11].isEmpty { return .piece(try Self.csvPiece(cells, line: number)) }
        return .item(try Self.csvItem(cells, line: number))
    }

    private static func csvItem(_ cells: [String], line number: Int) throws(InboxError) -> InboxItem {
        guard cells[10] == "0" || cells[10] == "1" else { throw .badImport(line: number, reason: "pinned must be 0 or 1") }
        let corners = cells[8].isEmpty ? [] : InboxRow.decodeCorners(cells[8])
        if !cells[8].isEmpty && corners.isEmpty { throw .badImport(line: number, reason: "bad corners") }
        var made = try item(receivedAt: cells[1], sourceKind: cells[2], source: cells[3], symbology: cells[4],
                            kind: cells[5], text: cells[6], base64: cells[7], corners: corners,
                            label: cells[9], pinned: cells[10] == "1", line: number)
        if cells.count > 15, !cells[15].isEmpty { made.fileName = cells[15] }
        return made
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
        let (time, source_, source, symbology) = try origin(receivedAt: receivedAt, sourceKind: sourceKind, source: source,
                                                            symbology: symbology, line: line)
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
        // CSV cannot tell empty text from none: in either format, empty text beside a payload
        // means "not text", so that an item imports the same from both.
        let text = text == "" && !payload.isEmpty ? nil : text
        let contentKind = ContentClassifier.classify(bytes: payload, text: text, symbology: symbology).kind
        // An empty label is none, as `inbox label ID ''` clears one, and as CSV reads it.
        return InboxItem(receivedAt: time, sourceKind: source_, source: source, symbology: symbology,
                         bytes: payload, text: text, kind: contentKind, corners: corners,
                         label: label?.isEmpty == false ? label : nil, pinned: pinned)
    }

    /// When, from what kind of source, from where and in what symbology an item or a piece
    /// came: the fields both have, checked.
    static func origin(receivedAt: String?, sourceKind: String?, source: String?, symbology: String?,
                       line: Int) throws(InboxError) -> (Int64, InboxItem.SourceKind, String, String) {
        guard let receivedAt, let time = Timestamp.parse(receivedAt) else {
            throw .badImport(line: line, reason: "received_at must be an ISO 8601 time, not \(shown(receivedAt))")
        }
        guard let sourceKind, let kind = InboxItem.SourceKind(rawValue: sourceKind) else {
            throw .badImport(line: line, reason: "unknown source_kind \(shown(sourceKind))")
        }
        guard let source, let symbology, !symbology.isEmpty else {
            throw .badImport(line: line, reason: "source and symbology are required")
        }
        return (time, kind, source, symbology)
    }

    /// A value from the file for an error message: quoted, escaped, at most 40 characters.
    static func shown(_ value: String?) -> String {
        guard let value else { return "(missing)" }
        let cut = value.count > 40 ? value.prefix(40) + "…" : Substring(value)
        return "'" + DisplayText.escape(cut) + "'"
    }
}
