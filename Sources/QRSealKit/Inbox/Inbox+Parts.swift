/// Parts of messages larger than one symbol wait in the inbox until enough of them are there;
/// then the message is rebuilt, stored as one item and its parts removed, in one transaction.
extension Inbox {
    /// One piece of a larger message, as it waits: a qrseal part (docs/FORMAT.md, section 8)
    /// or one symbol of a QR Structured Append sequence.
    public struct Piece: Sendable {
        public enum Kind: String, Sendable { case parts, structuredAppend = "structured-append" }

        public let kind: Kind
        public let messageID: UInt32
        public let dataParts: Int
        public let totalParts: Int
        /// The message's length; 0 when the piece does not say (Structured Append).
        public let length: Int
        public let index: Int
        public let bytes: [UInt8]

        public init(_ part: Part) {
            self.init(kind: .parts, messageID: part.messageID, dataParts: part.dataParts, totalParts: part.totalParts,
                      length: part.length, index: part.index, bytes: part.chunk)
        }

        /// Symbol `index` (0-based) of a Structured Append sequence of `count` with `parity`.
        public init(structuredAppend index: Int, of count: Int, parity: Int, bytes: [UInt8]) {
            self.init(kind: .structuredAppend, messageID: UInt32(parity), dataParts: count, totalParts: count, length: 0,
                      index: index, bytes: bytes)
        }

        init(kind: Kind, messageID: UInt32, dataParts: Int, totalParts: Int, length: Int, index: Int, bytes: [UInt8]) {
            self.kind = kind
            self.messageID = messageID
            self.dataParts = dataParts
            self.totalParts = totalParts
            self.length = length
            self.index = index
            self.bytes = bytes
        }

        /// How more distinct pieces are needed when `indexes` are held.
        func stillNeeded(_ indexes: Set<Int>) -> Int {
            switch kind {
            case .parts: return MessageParts.stillNeeded(dataParts: dataParts, totalParts: totalParts, indexes: indexes)
            case .structuredAppend: return dataParts - indexes.filter { $0 < dataParts }.count
            }
        }

        /// The id as listings show it: 8 hexadecimal digits for parts, `SA` and the parity
        /// byte for Structured Append.
        public var idText: String {
            kind == .parts ? Part.idText(messageID) : "SA" + String(format2: Int(messageID))
        }
    }

    /// Where a message in parts stands.
    public struct PartProgress: Equatable, Sendable {
        public let idText: String
        /// Distinct pieces held.
        public let have: Int
        /// How many more distinct pieces would complete it (0 once complete).
        public let needed: Int
        /// How many pieces the writer made (N), of which `dataParts` (K) rebuild it.
        public let totalParts: Int
        public let dataParts: Int
        /// The message's length in bytes; 0 when unknown.
        public let length: Int
        public let isStructuredAppend: Bool
        /// When the first piece was seen (ms since the epoch), and from where.
        public let firstSeen: Int64
        public let source: String

        /// "7 of 12 parts, 3 more needed", or "complete" — never more held than needed.
        public var text: String {
            needed == 0 ? "\(have) of \(totalParts) parts, complete"
                : "\(have) of \(totalParts) parts, \(needed) more needed"
        }
    }

    /// What became of one piece given to `receive`.
    public enum PieceReceipt: Sendable {
        /// Kept, waiting for more (`isNew` false: that piece was there already).
        case waiting(PartProgress, isNew: Bool)
        /// Kept apart: another message has the same id but other part counts or length.
        case conflicting(PartProgress, other: PartProgress)
        /// The piece completed its message, now the item `item`; `message` is the rebuilt whole.
        case completed(InboxItem, message: [UInt8], PartProgress)
        /// A piece of a message already rebuilt into item `itemID`: nothing stored.
        case alreadyComplete(itemID: Int64, PartProgress)
        /// The piece would complete its message, but the rebuilt message is damaged (it fails
        /// its hash, or its content is malformed): nothing was written.
        case damaged(PartsError, PartProgress)
    }

    /// Keeps `piece` of a larger message; when it completes the message, rebuilds it, stores it
    /// as an item made by `item(whole)` and removes its parts, all in one transaction.
    public func receive(_ piece: Piece, symbology: String, receivedAt: Int64, sourceKind: InboxItem.SourceKind,
                        source: String, item: ([UInt8]) throws(PartsError) -> InboxItem) throws(InboxError) -> PieceReceipt {
        try write { () throws(InboxError) -> PieceReceipt in
            let key: [SQLValue] = [.text(piece.kind.rawValue), .integer(Int64(piece.messageID)), .integer(Int64(piece.dataParts)),
                                   .integer(Int64(piece.totalParts)), .integer(Int64(piece.length))]
            var row = try db.rows("""
                SELECT id, item_id, first_seen, source FROM part_messages
                WHERE kind = ? AND message_id = ? AND data_parts = ? AND total_parts = ? AND length = ?
                """, key).first
            if case .integer(let rowID)? = row?[0], case .integer(let itemID)? = row?[1] {
                if try !db.rows("SELECT 1 FROM items WHERE id = ?", [.integer(itemID)]).isEmpty {
                    let held = Set(try pieceIndexes(rowID))
                    return .alreadyComplete(itemID: itemID, progress(piece, held, row!))
                }
                // The item it became was removed since: the message may be received again.
                try db.prepare("UPDATE part_messages SET item_id = NULL WHERE id = ?", [.integer(rowID)]).run()
            }
            var conflict: PartProgress?
            if row == nil {
                conflict = try otherMessage(like: piece)
                try db.prepare("""
                    INSERT INTO part_messages (kind, message_id, data_parts, total_parts, length, symbology, source_kind,
                                               source, first_seen, last_seen)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """, key + [.text(symbology), .text(sourceKind.rawValue), .text(source), .integer(receivedAt),
                                .integer(receivedAt)]).run()
                row = [.integer(db.lastInsertID), .null, .integer(receivedAt), .text(source)]
            }
            guard case .integer(let rowID) = row![0] else { throw .sqlite("part_messages row without an id") }
            var held = try pieceIndexes(rowID)
            if held.contains(piece.index) { return .waiting(progress(piece, Set(held), row!), isNew: false) }
            held.append(piece.index)
            let now = progress(piece, Set(held), row!)
            guard now.needed == 0 else {
                try storePiece(piece, rowID, receivedAt)
                if let conflict { return .conflicting(now, other: conflict) }
                return .waiting(now, isNew: true)
            }
            let whole: [UInt8], stored: InboxItem
            do {
                whole = try rebuild(piece, rowID)
                stored = try insert(try item(whole))
            } catch let error as PartsError {
                return .damaged(error, now)
            } catch let error as InboxError {
                throw error
            } catch {
                throw .sqlite("\(error)")
            }
            try db.prepare("DELETE FROM waiting_parts WHERE message = ?", [.integer(rowID)]).run()
            try db.prepare("UPDATE part_messages SET item_id = ?, last_seen = ? WHERE id = ?",
                           [.integer(stored.id!), .integer(receivedAt), .integer(rowID)]).run()
            return .completed(stored, message: whole, now)
        }
    }

    /// Messages still waiting for parts, oldest first.
    public func waitingMessages() throws(InboxError) -> [PartProgress] {
        var waiting: [PartProgress] = []
        // An inbox older than schema 4, opened to read only, has no such table.
        guard try db.integer("SELECT count(*) FROM sqlite_master WHERE name = 'part_messages'") > 0 else { return [] }
        for row in try db.rows("""
            SELECT m.id, m.kind, m.message_id, m.data_parts, m.total_parts, m.length, m.first_seen, m.source
            FROM part_messages m WHERE m.item_id IS NULL ORDER BY m.first_seen, m.id
            """) {
            guard case .integer(let rowID) = row[0], case .text(let kind) = row[1], let kind = Piece.Kind(rawValue: kind),
                  case .integer(let id) = row[2], case .integer(let k) = row[3], case .integer(let n) = row[4],
                  case .integer(let length) = row[5] else { continue }
            let piece = Piece(kind: kind, messageID: UInt32(truncatingIfNeeded: id), dataParts: Int(k), totalParts: Int(n),
                              length: Int(length), index: 0, bytes: [])
            waiting.append(progress(piece, Set(try pieceIndexes(rowID)), [row[0], .null, row[6], row[7]]))
        }
        return waiting
    }

    /// Removes the messages still waiting, with their parts: all, or those whose id (as
    /// listings show it) is in `ids`. Returns how many were removed.
    @discardableResult
    public func removeWaiting(_ ids: [String]? = nil) throws(InboxError) -> Int {
        try write { () throws(InboxError) -> Int in
            var removed = 0
            for row in try db.rows("SELECT id, kind, message_id FROM part_messages WHERE item_id IS NULL") {
                guard case .integer(let rowID) = row[0], case .text(let kind) = row[1], case .integer(let id) = row[2] else { continue }
                let piece = Piece(kind: Piece.Kind(rawValue: kind) ?? .parts, messageID: UInt32(truncatingIfNeeded: id),
                                  dataParts: 1, totalParts: 1, length: 0, index: 0, bytes: [])
                guard ids?.contains(piece.idText) ?? true else { continue }
                try db.prepare("DELETE FROM waiting_parts WHERE message = ?", [.integer(rowID)]).run()
                try db.prepare("DELETE FROM part_messages WHERE id = ?", [.integer(rowID)]).run()
                removed += 1
            }
            return removed
        }
    }

    private func pieceIndexes(_ rowID: Int64) throws(InboxError) -> [Int] {
        try db.rows("SELECT part_index FROM waiting_parts WHERE message = ?", [.integer(rowID)]).compactMap {
            guard case .integer(let i) = $0[0] else { return nil }
            return Int(i)
        }
    }

    private func storePiece(_ piece: Piece, _ rowID: Int64, _ receivedAt: Int64) throws(InboxError) {
        try db.prepare("INSERT INTO waiting_parts (message, part_index, chunk, received_at) VALUES (?, ?, ?, ?)",
                       [.integer(rowID), .integer(Int64(piece.index)), .blob(piece.bytes), .integer(receivedAt)]).run()
        try db.prepare("UPDATE part_messages SET last_seen = ? WHERE id = ?", [.integer(receivedAt), .integer(rowID)]).run()
    }

    /// A message still waiting with the same kind and id as `piece` but other counts or length.
    private func otherMessage(like piece: Piece) throws(InboxError) -> PartProgress? {
        guard let row = try db.rows("""
            SELECT id, item_id, first_seen, source, data_parts, total_parts, length FROM part_messages
            WHERE kind = ? AND message_id = ? AND item_id IS NULL LIMIT 1
            """, [.text(piece.kind.rawValue), .integer(Int64(piece.messageID))]).first,
              case .integer(let rowID) = row[0], case .integer(let k) = row[4], case .integer(let n) = row[5],
              case .integer(let length) = row[6] else { return nil }
        let other = Piece(kind: piece.kind, messageID: piece.messageID, dataParts: Int(k), totalParts: Int(n),
                          length: Int(length), index: 0, bytes: [])
        return progress(other, Set(try pieceIndexes(rowID)), row)
    }

    /// The whole message from the stored pieces and `piece`.
    private func rebuild(_ piece: Piece, _ rowID: Int64) throws -> [UInt8] {
        var pieces: [(Int, [UInt8])] = [(piece.index, piece.bytes)]
        for row in try db.rows("SELECT part_index, chunk FROM waiting_parts WHERE message = ?", [.integer(rowID)]) {
            guard case .integer(let i) = row[0], case .blob(let bytes) = row[1] else { continue }
            pieces.append((Int(i), bytes))
        }
        switch piece.kind {
        case .parts:
            return try MessageParts.rebuild(pieces.map { index, bytes in
                Part(messageID: piece.messageID, dataParts: piece.dataParts, totalParts: piece.totalParts, index: index,
                     length: piece.length, chunk: bytes)
            })
        case .structuredAppend:
            return pieces.sorted { $0.0 < $1.0 }.flatMap { $0.1 }
        }
    }

    private func progress(_ piece: Piece, _ held: Set<Int>, _ row: [SQLValue]) -> PartProgress {
        var firstSeen: Int64 = 0, source = ""
        if case .integer(let t) = row[2] { firstSeen = t }
        if case .text(let s) = row[3] { source = s }
        return PartProgress(idText: piece.idText, have: held.count, needed: piece.stillNeeded(held),
                            totalParts: piece.totalParts, dataParts: piece.dataParts, length: piece.length,
                            isStructuredAppend: piece.kind == .structuredAppend, firstSeen: firstSeen, source: source)
    }
}

private extension String {
    /// `n` as two upper-case hexadecimal digits.
    init(format2 n: Int) {
        let hex = String(n, radix: 16, uppercase: true)
        self = hex.count < 2 ? "0" + hex : hex
    }
}
