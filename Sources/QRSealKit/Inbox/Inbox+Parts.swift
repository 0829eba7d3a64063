/// Parts of messages larger than one symbol wait in the inbox until enough of them are there;
/// then the message is rebuilt, stored as one item and its parts removed, in one transaction.
extension Inbox {
    /// One piece of a larger message, as it waits: a qrseal part (docs/FORMAT.md, section 8)
    /// or one symbol of a QR Structured Append sequence.
    public struct Piece: Equatable, Sendable {
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

        /// "7 of 12 parts, 3 more needed" — never more held than needed. A message that
        /// waits with none needed holds a part that is not the sender's (`PieceReceipt.damaged`).
        public var text: String {
            needed == 0 ? "\(have) of \(totalParts) parts, no set of them fits: a part is not the sender's"
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
        /// The pieces held would be enough, but no set of them tried rebuilds a message that
        /// passes its check (a part's hash, a Structured Append parity byte), or whose content
        /// reads: some piece is not the sender's. The piece is kept and the message waits, so
        /// that the sender's own piece, scanned later, completes it; no item was written.
        case damaged(PartsError, PartProgress)
    }

    /// What `receive` did: the piece's receipt, and the waiting messages dropped to keep
    /// within `waitingLimits`, which the user should be told of.
    public struct Received: Sendable {
        public let receipt: PieceReceipt
        public let dropped: [DroppedMessage]
    }

    /// Keeps `piece` of a larger message; when it completes the message, rebuilds it, stores it
    /// as an item (`Piece.item(whole:)`) and removes its parts, all in one transaction. Every
    /// distinct piece received for an index is kept (within `waitingLimits`), and when the
    /// newest set fails the message's check, other sets are tried (`CandidateSearch`).
    public func receive(_ piece: Piece, symbology: String, receivedAt: Int64, sourceKind: InboxItem.SourceKind,
                        source: String) throws(InboxError) -> Received {
        try write { () throws(InboxError) -> Received in
            var dropped: [DroppedMessage] = []
            let receipt = try receive(piece, symbology: symbology, receivedAt: receivedAt, sourceKind: sourceKind,
                                      source: source, dropped: &dropped)
            return Received(receipt: receipt, dropped: dropped)
        }
    }

    /// `receive` inside a write transaction already open (import's), adding to `dropped`.
    func receive(_ piece: Piece, symbology: String, receivedAt: Int64, sourceKind: InboxItem.SourceKind, source: String,
                 dropped: inout [DroppedMessage]) throws(InboxError) -> PieceReceipt {
        let key: [SQLValue] = [.text(piece.kind.rawValue), .integer(Int64(piece.messageID)), .integer(Int64(piece.dataParts)),
                               .integer(Int64(piece.totalParts)), .integer(Int64(piece.length))]
        var row = try db.rows("""
            SELECT id, item_id, first_seen, source FROM part_messages
            WHERE kind = ? AND message_id = ? AND data_parts = ? AND total_parts = ? AND length = ?
            """, key).first
        if case .integer(let rowID)? = row?[0], case .integer(let itemID)? = row?[1] {
            if case .blob(let bytes)? = try db.rows("SELECT bytes FROM items WHERE id = ?", [.integer(itemID)]).first?[0] {
                // A Structured Append sequence is named by its count and parity byte alone: a
                // piece the item does not hold is of another sequence that shares them.
                guard piece.kind == .structuredAppend, bytes.firstRange(of: piece.bytes) == nil else {
                    return .alreadyComplete(itemID: itemID, progress(piece, Set(try pieceIndexes(rowID)), row!))
                }
                try db.prepare("UPDATE part_messages SET first_seen = ?, source = ? WHERE id = ?",
                               [.integer(receivedAt), .text(source), .integer(rowID)]).run()
                row![2] = .integer(receivedAt)
                row![3] = .text(source)
            }
            // The item it became was removed since, or is of another sequence: the message may
            // be received again.
            try db.prepare("UPDATE part_messages SET item_id = NULL WHERE id = ?", [.integer(rowID)]).run()
        }
        var thisRow: Int64?
        if case .integer(let rowID)? = row?[0] { thisRow = rowID }
        dropped += try expireWaiting(now: receivedAt, keeping: thisRow)
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
        let held = try heldPieces(rowID)
        if held.contains(where: { $0.index == piece.index && $0.bytes == piece.bytes }) {
            return .waiting(progress(piece, Set(held.map(\.index)), row!), isNew: false)
        }
        try storePiece(piece, rowID, receivedAt)
        try trimPieces(of: rowID, at: piece.index)
        dropped += try trimWaiting(keeping: rowID)
        let candidates = try heldPieces(rowID)
        let now = progress(piece, Set(candidates.map(\.index)), row!)
        guard now.needed == 0 else {
            if let conflict { return .conflicting(now, other: conflict) }
            return .waiting(now, isNew: true)
        }
        var failure = PartsError.damagedMessage
        let found = search(piece, candidates).first { set -> ([UInt8], InboxItem)? in
            do throws(PartsError) {
                let whole = try assemble(piece, set)
                return (whole, try piece.item(whole: whole, symbology: symbology, receivedAt: receivedAt,
                                              sourceKind: sourceKind, source: source))
            } catch {
                failure = error
                return nil
            }
        }
        guard let (whole, made) = found else { return .damaged(failure, now) }
        let stored = try insert(made)
        try db.prepare("DELETE FROM waiting_parts WHERE message = ?", [.integer(rowID)]).run()
        try db.prepare("UPDATE part_messages SET item_id = ?, last_seen = ? WHERE id = ?",
                       [.integer(stored.id!), .integer(receivedAt), .integer(rowID)]).run()
        return .completed(stored, message: whole, now)
    }

    /// Messages still waiting for parts, oldest first.
    public func waitingMessages() throws(InboxError) -> [PartProgress] {
        // An inbox older than schema 4, opened to read only, has no such table.
        guard try db.integer("SELECT count(*) FROM sqlite_master WHERE name = 'part_messages'") > 0 else { return [] }
        return try waitingRows("ORDER BY m.first_seen, m.id").map(\.progress)
    }

    /// The rows of messages still waiting, ordered as `order` says, with where each stands.
    func waitingRows(_ order: String, _ values: [SQLValue] = []) throws(InboxError) -> [(rowID: Int64, progress: PartProgress)] {
        var waiting: [(rowID: Int64, progress: PartProgress)] = []
        for row in try db.rows("""
            SELECT m.id, m.kind, m.message_id, m.data_parts, m.total_parts, m.length, m.first_seen, m.source
            FROM part_messages m WHERE m.item_id IS NULL \(order)
            """, values) {
            guard case .integer(let rowID) = row[0], case .text(let kind) = row[1], let kind = Piece.Kind(rawValue: kind),
                  case .integer(let id) = row[2], case .integer(let k) = row[3], case .integer(let n) = row[4],
                  case .integer(let length) = row[5] else { continue }
            let piece = Piece(kind: kind, messageID: UInt32(truncatingIfNeeded: id), dataParts: Int(k), totalParts: Int(n),
                              length: Int(length), index: 0, bytes: [])
            waiting.append((rowID, progress(piece, Set(try pieceIndexes(rowID)), [row[0], .null, row[6], row[7]])))
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
                try dropWaiting(rowID)
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

    /// Every piece held for the message in row `rowID`, newest first.
    private func heldPieces(_ rowID: Int64) throws(InboxError) -> [(index: Int, bytes: [UInt8])] {
        try db.rows("SELECT part_index, chunk FROM waiting_parts WHERE message = ? ORDER BY id DESC", [.integer(rowID)]).compactMap {
            guard case .integer(let i) = $0[0], case .blob(let bytes) = $0[1] else { return nil }
            return (Int(i), bytes)
        }
    }

    /// The search for a set of `held` pieces, which holds `piece`, that rebuilds its message.
    private func search(_ piece: Piece, _ held: [(index: Int, bytes: [UInt8])]) -> CandidateSearch {
        var candidates: [Int: [[UInt8]]] = [:]
        for (index, bytes) in held where index >= 0 && index < piece.totalParts { candidates[index, default: []].append(bytes) }
        switch piece.kind {
        case .parts:
            let stripes = Part.stripes(totalParts: piece.totalParts)
            return CandidateSearch(candidates: candidates, fixed: (piece.index, piece.bytes),
                                   need: (0..<stripes).map { Part.dataParts(inStripe: $0, dataParts: piece.dataParts, stripes: stripes) },
                                   group: { $0 % stripes })
        case .structuredAppend:
            return CandidateSearch(candidates: candidates, fixed: (piece.index, piece.bytes), need: [piece.dataParts],
                                   group: { $0 < piece.dataParts ? 0 : -1 })
        }
    }

    /// The whole message from one set of pieces of `piece`'s message, checked: a qrseal
    /// message against its id (the hash), a QR Structured Append sequence against its parity
    /// byte (the XOR of all its bytes, ISO/IEC 18004). Data Matrix's file identification
    /// (above 255) is no check of the data.
    private func assemble(_ piece: Piece, _ set: [(index: Int, bytes: [UInt8])]) throws(PartsError) -> [UInt8] {
        switch piece.kind {
        case .parts:
            return try MessageParts.rebuild(set.map { index, bytes in
                Part(messageID: piece.messageID, dataParts: piece.dataParts, totalParts: piece.totalParts, index: index,
                     length: piece.length, chunk: bytes)
            })
        case .structuredAppend:
            let whole = set.sorted { $0.index < $1.index }.flatMap(\.bytes)
            let parity = whole.reduce(0, ^)
            guard piece.messageID > 0xFF || UInt32(parity) == piece.messageID else {
                throw .parityMismatch(expected: Int(piece.messageID), found: Int(parity))
            }
            return whole
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
