/// What an export carries and an import adds back: items, and the pieces of messages still
/// waiting for parts, which go through `receive` as a scan's would.
extension Inbox {
    /// One piece of a message still waiting for parts, with where and when it came.
    public struct WaitingPiece: Equatable, Sendable {
        /// More bytes than any one symbol holds (QR version 40 holds 2,953): a larger piece
        /// in an import file was not made by a scan.
        public static let maxBytes = 4096

        public let piece: Piece
        /// The symbology, kind of source and source of the message's first piece (pieces of
        /// one message are not told apart by where they came from).
        public let symbology: String
        public let sourceKind: InboxItem.SourceKind
        public let source: String
        /// When this piece came, in ms since the epoch.
        public let receivedAt: Int64

        public init(_ piece: Piece, symbology: String, sourceKind: InboxItem.SourceKind, source: String, receivedAt: Int64) {
            self.piece = piece
            self.symbology = symbology
            self.sourceKind = sourceKind
            self.source = source
            self.receivedAt = receivedAt
        }
    }

    /// What `importRecords` added.
    public struct Imported: Sendable {
        /// Items stored (items already there are skipped).
        public internal(set) var items = 0
        /// Items skipped because the inbox held them already (same time, source and content).
        public internal(set) var alreadyThere = 0
        /// Pieces that now wait and did not before.
        public internal(set) var pieces = 0
        /// Messages that a piece of the file completed, stored as these items.
        public internal(set) var completed: [InboxItem] = []
        /// Waiting messages dropped to keep within `waitingLimits`.
        public internal(set) var dropped: [DroppedMessage] = []
    }

    /// Whether an imported item is there already: same content, time and source.
    static let importLookup = "SELECT 1 FROM items WHERE digest = ? AND received_at = ? AND source = ? LIMIT 1"

    /// Stores every record `next` yields in one transaction: all of them, or — when `next`
    /// throws — none. Items already in the inbox (same time, source and content) are skipped;
    /// pieces go through `receive` as scanned ones do, so that the waiting limits hold, a piece
    /// already waiting adds nothing, and a piece that completes its message makes its item.
    public func importRecords(_ next: () throws(InboxError) -> InboxRecord?) throws(InboxError) -> Imported {
        try write { () throws(InboxError) -> Imported in
            var imported = Imported()
            // One lookup in the index on (digest, received_at, source) per line: linear
            // however often a payload repeats.
            let lookup = try db.prepare(Self.importLookup)
            while let record = try next() {
                switch record {
                case .item(let item):
                    try lookup.reset([.blob(Self.digest(item)), .integer(item.receivedAt), .text(item.source)])
                    if try !lookup.step() {
                        _ = try insert(item)
                        imported.items += 1
                    } else {
                        imported.alreadyThere += 1
                    }
                case .piece(let waiting):
                    let receipt = try receive(waiting.piece, symbology: waiting.symbology, receivedAt: waiting.receivedAt,
                                              sourceKind: waiting.sourceKind, source: waiting.source,
                                              dropped: &imported.dropped)
                    switch receipt {
                    case .waiting(_, let isNew): imported.pieces += isNew ? 1 : 0
                    case .conflicting, .damaged: imported.pieces += 1
                    case .completed(let item, _, _): imported.completed.append(item)
                    case .alreadyComplete: break
                    }
                }
            }
            return imported
        }
    }

    /// Stores every item `next` yields as `importRecords` does; returns how many were stored.
    @discardableResult
    public func importItems(_ next: () throws(InboxError) -> InboxItem?) throws(InboxError) -> Int {
        try importRecords { () throws(InboxError) -> InboxRecord? in try next().map(InboxRecord.item) }.items
    }

    /// Every piece of the messages still waiting, handed to `body` one at a time (for export):
    /// message by message, oldest first, and each message's pieces in the order they came,
    /// so that an import receives them in that order again.
    public func forEachWaitingPiece(_ body: (WaitingPiece) throws -> Void) throws {
        // An inbox older than schema 4, opened to read only, has no such table; before
        // schema 5, pieces had no id to keep their order by.
        guard try db.integer("SELECT count(*) FROM sqlite_master WHERE name = 'part_messages'") > 0 else { return }
        let order = try schemaVersion >= 5 ? "w.id" : "w.received_at, w.part_index"
        let statement = try db.prepare("""
            SELECT m.kind, m.message_id, m.data_parts, m.total_parts, m.length, m.symbology, m.source_kind, m.source,
                   w.part_index, w.chunk, w.received_at
            FROM part_messages m JOIN waiting_parts w ON w.message = m.id
            WHERE m.item_id IS NULL ORDER BY m.first_seen, m.id, \(order)
            """)
        while try statement.step() {
            let row = statement.columns()
            guard case .text(let kind) = row[0], let kind = Piece.Kind(rawValue: kind), case .integer(let id) = row[1],
                  case .integer(let k) = row[2], case .integer(let n) = row[3], case .integer(let length) = row[4],
                  case .text(let symbology) = row[5], case .text(let sourceKind) = row[6],
                  let sourceKind = InboxItem.SourceKind(rawValue: sourceKind), case .text(let source) = row[7],
                  case .integer(let index) = row[8], case .blob(let bytes) = row[9], case .integer(let time) = row[10]
            else { throw InboxError.sqlite("a waiting part that cannot be read") }
            let piece = Piece(kind: kind, messageID: UInt32(truncatingIfNeeded: id), dataParts: Int(k), totalParts: Int(n),
                              length: Int(length), index: Int(index), bytes: bytes)
            try body(WaitingPiece(piece, symbology: symbology, sourceKind: sourceKind, source: source, receivedAt: time))
        }
    }
}

/// One record of an export: an item, or a piece of a message still waiting for parts.
public enum InboxRecord: Equatable, Sendable {
    case item(InboxItem)
    case piece(Inbox.WaitingPiece)

    /// The item, when the record is one.
    public var item: InboxItem? {
        guard case .item(let item) = self else { return nil }
        return item
    }
}
