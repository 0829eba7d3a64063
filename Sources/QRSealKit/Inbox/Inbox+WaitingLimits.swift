/// Bounds on the pieces that wait in the inbox for messages that may never complete
/// (docs/FORMAT.md, section 8.5): forged or foreign parts must not grow it without limit.
extension Inbox {
    /// How much may wait. Whole messages go, the one least recently added to first, and
    /// `receive` says which; single pieces set aside at a crowded index go silently.
    public struct WaitingLimits: Equatable, Sendable {
        /// Distinct pieces kept for one index of one message; past it, the oldest goes.
        public var piecesPerIndex = 4
        /// Pieces one message holds beyond one per index; past it, the oldest piece at an
        /// index that holds more than one goes.
        public var extraPiecesPerMessage = 16
        /// Messages waiting at once.
        public var messages = 64
        /// Pieces waiting, of all messages; the message a piece is added to is never dropped
        /// for it.
        public var pieces = 10_000
        /// A message that gained no piece for this long (milliseconds) is dropped: 30 days.
        public var expiry: Int64 = 30 * 24 * 3600 * 1000

        public init() {}
    }

    /// A waiting message dropped to keep within the limits, with where it stood.
    public struct DroppedMessage: Equatable, Sendable {
        public enum Reason: Equatable, Sendable {
            /// No piece of it came for `WaitingLimits.expiry`.
            case expired
            /// More than `WaitingLimits.messages` were waiting.
            case tooManyMessages
            /// More than `WaitingLimits.pieces` pieces were waiting.
            case tooManyPieces
        }

        public let progress: PartProgress
        public let reason: Reason
    }

    /// Drops the messages that gained no piece since `now - expiry`, but `keeping`.
    func expireWaiting(now: Int64, keeping: Int64?) throws(InboxError) -> [DroppedMessage] {
        let expired = try waitingRows("AND m.last_seen < ? AND m.id <> ?",
                                      [.integer(now - waitingLimits.expiry), .integer(keeping ?? -1)])
        for message in expired { try dropWaiting(message.rowID) }
        return expired.map { DroppedMessage(progress: $0.progress, reason: .expired) }
    }

    /// Keeps the pieces of message `rowID` at `index`, and its pieces beyond one per index,
    /// within bounds: the oldest go first, so that the piece just stored, the newest, stays.
    func trimPieces(of rowID: Int64, at index: Int) throws(InboxError) {
        try db.prepare("""
            DELETE FROM waiting_parts WHERE id IN (SELECT id FROM waiting_parts WHERE message = ? AND part_index = ?
                                                   ORDER BY id DESC LIMIT -1 OFFSET ?)
            """, [.integer(rowID), .integer(Int64(index)), .integer(Int64(max(1, waitingLimits.piecesPerIndex)))]).run()
        let extra = "SELECT count(*) - count(DISTINCT part_index) FROM waiting_parts WHERE message = ?"
        while try db.integer(extra, [.integer(rowID)]) > waitingLimits.extraPiecesPerMessage {
            try db.prepare("""
                DELETE FROM waiting_parts WHERE id = (
                    SELECT w.id FROM waiting_parts w WHERE w.message = ?1 AND (SELECT count(*) FROM waiting_parts v
                        WHERE v.message = ?1 AND v.part_index = w.part_index) > 1
                    ORDER BY w.id LIMIT 1)
                """, [.integer(rowID)]).run()
        }
    }

    /// Drops whole waiting messages but `keeping`, the least recently added to first, while
    /// more messages or pieces wait than the limits allow.
    func trimWaiting(keeping: Int64) throws(InboxError) -> [DroppedMessage] {
        var dropped: [DroppedMessage] = []
        let messages = "SELECT count(*) FROM part_messages WHERE item_id IS NULL"
        let pieces = "SELECT count(*) FROM waiting_parts"
        for (count, limit, reason) in [(messages, waitingLimits.messages, DroppedMessage.Reason.tooManyMessages),
                                       (pieces, waitingLimits.pieces, .tooManyPieces)] {
            while try db.integer(count) > limit {
                guard let oldest = try waitingRows("AND m.id <> ? ORDER BY m.last_seen, m.id LIMIT 1", [.integer(keeping)]).first
                else { break }
                try dropWaiting(oldest.rowID)
                dropped.append(DroppedMessage(progress: oldest.progress, reason: reason))
            }
        }
        return dropped
    }

    /// Removes waiting message `rowID` with its pieces.
    func dropWaiting(_ rowID: Int64) throws(InboxError) {
        try db.prepare("DELETE FROM waiting_parts WHERE message = ?", [.integer(rowID)]).run()
        try db.prepare("DELETE FROM part_messages WHERE id = ?", [.integer(rowID)]).run()
    }
}
