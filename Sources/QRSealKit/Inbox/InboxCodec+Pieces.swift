import FoundationEssentials
import Glibc

/// The pieces of messages still waiting for parts, as version 2 of the export carries them
/// (docs/FORMAT.md, section 10): a qrseal part as its whole frame, whose header and check
/// say everything about it, and a Structured Append symbol as its data with its place in
/// the sequence.
extension InboxFormat {
    /// One waiting piece as one JSON line or one CSV record (without the line break).
    public func encode(_ waiting: Inbox.WaitingPiece) -> String {
        let piece = waiting.piece
        let time = Timestamp.iso8601(waiting.receivedAt)
        let bytes = Data(Self.exportedBytes(piece)).base64EncodedString()
        let sequence = piece.kind == .structuredAppend ? [piece.index, piece.dataParts, Int(piece.messageID)] : []
        switch self {
        case .json:
            var fields: [(String, JSON.Value)] = [
                ("waiting", .string(piece.kind.rawValue)),
                ("received_at", .string(time)),
                ("source_kind", .string(waiting.sourceKind.rawValue)),
                ("source", .string(waiting.source)),
                ("symbology", .string(waiting.symbology)),
            ]
            fields += zip(Self.csvPieceColumns.dropFirst(), sequence).map { ($0, .int($1)) }
            fields.append(("bytes_base64", .string(bytes)))
            return JSON.line(fields)
        case .csv:
            // The item columns a piece has not (id, kind, text, corners, label, pinned) are empty.
            let cells = ["", time, waiting.sourceKind.rawValue, waiting.source, waiting.symbology, "", "", bytes, "", "", "",
                         piece.kind.rawValue] + (sequence.isEmpty ? ["", "", ""] : sequence.map(String.init)) + [""]
            return Self.csvRecord(cells)
        }
    }

    /// A part's frame (header, check and chunk), or a Structured Append symbol's data.
    static func exportedBytes(_ piece: Inbox.Piece) -> [UInt8] {
        guard piece.kind == .parts else { return piece.bytes }
        return Part(messageID: piece.messageID, dataParts: piece.dataParts, totalParts: piece.totalParts, index: piece.index,
                    length: piece.length, chunk: piece.bytes).frame
    }
}

extension InboxImportReader {
    /// A piece's line of a JSON export; fields of the wrong type are refused as a whole.
    static func jsonPiece(_ line: String, line number: Int) throws(InboxError) -> Inbox.WaitingPiece {
        guard let f = try? JSONDecoder().decode(PieceFields.self, from: Data(line.utf8)) else {
            throw .badImport(line: number, reason: "a waiting part's fields must be strings, and its sequence_ fields whole numbers")
        }
        return try piece(waiting: f.waiting, receivedAt: f.received_at, sourceKind: f.source_kind, source: f.source,
                         symbology: f.symbology, base64: f.bytes_base64,
                         sequence: (f.sequence_index, f.sequence_count, f.sequence_parity), line: number)
    }

    private struct PieceFields: Decodable {
        let waiting: String
        let received_at, source_kind, source, symbology, bytes_base64: String?
        let sequence_index, sequence_count, sequence_parity: Int?
    }

    /// A piece's record of a CSV export (version 2: 15 cells, `waiting` not empty).
    static func csvPiece(_ cells: [String], line number: Int) throws(InboxError) -> Inbox.WaitingPiece {
        var numbers: [Int?] = []
        for (name, cell) in zip(InboxFormat.csvPieceColumns.dropFirst(), cells[12...]) {
            guard cell.isEmpty || Int(cell) != nil else { throw .badImport(line: number, reason: "\(name) must be a whole number") }
            numbers.append(Int(cell))
        }
        return try piece(waiting: cells[11], receivedAt: cells[1], sourceKind: cells[2], source: cells[3], symbology: cells[4],
                         base64: cells[7], sequence: (numbers[0], numbers[1], numbers[2]), line: number)
    }

    /// A piece from an export's fields, checked as a scan would check it: a part's frame
    /// against its header's rules and its check, a Structured Append symbol's place against
    /// the 16 symbols a sequence may have.
    private static func piece(waiting: String, receivedAt: String?, sourceKind: String?, source: String?, symbology: String?,
                              base64: String?, sequence: (index: Int?, count: Int?, parity: Int?),
                              line: Int) throws(InboxError) -> Inbox.WaitingPiece {
        let (time, kind, source, symbology) = try origin(receivedAt: receivedAt, sourceKind: sourceKind, source: source,
                                                         symbology: symbology, line: line)
        guard let base64, let data = Data(base64Encoded: base64) else {
            throw .badImport(line: line, reason: "bad base64 in bytes_base64")
        }
        guard data.count <= Inbox.WaitingPiece.maxBytes else {
            throw .badImport(line: line, reason: "a waiting part of \(data.count) bytes, more than one code holds "
                             + "(\(Inbox.WaitingPiece.maxBytes))")
        }
        let piece: Inbox.Piece
        switch Inbox.Piece.Kind(rawValue: waiting) {
        case .parts?:
            do { piece = Inbox.Piece(try Part(frame: [UInt8](data))) } catch {
                throw .badImport(line: line, reason: error.description)
            }
        case .structuredAppend?:
            guard let count = sequence.count, (1...16).contains(count), let index = sequence.index, (0..<count).contains(index),
                  let parity = sequence.parity, (0...0xFFFF).contains(parity) else {
                throw .badImport(line: line, reason: "a Structured Append symbol needs sequence_count 1 to 16, sequence_index "
                                 + "below it and sequence_parity 0 to 65535")
            }
            piece = Inbox.Piece(structuredAppend: index, of: count, parity: parity, bytes: [UInt8](data))
        case nil:
            throw .badImport(line: line, reason: "unknown waiting \(shown(waiting)) (parts or structured-append)")
        }
        return Inbox.WaitingPiece(piece, symbology: symbology, sourceKind: kind, source: source, receivedAt: time)
    }
}
