/// What a message rebuilt from parts holds (FORMAT.md 8.5).
public enum RebuiltMessage {
    public enum Content: Equatable, Sendable {
        /// A sealed message: its envelope, kept sealed.
        case sealed(envelope: [UInt8])
        /// A plain message: its text, or a file with its name.
        case plain(Payload)
    }

    /// Reads the whole: an envelope (lead byte `10`) or a plain inner plaintext.
    public static func content(of whole: [UInt8]) throws(PartsError) -> Content {
        guard let lead = whole.first else { throw .malformed("empty message") }
        if lead == Envelope.version << 4 | Envelope.completeFrame { return .sealed(envelope: whole) }
        do {
            return .plain(try InnerPlaintext.decode(whole, maxContent: OpeningBudget.defaultContentBytes))
        } catch {
            throw .malformed("the rebuilt message: \(error.description)")
        }
    }
}
