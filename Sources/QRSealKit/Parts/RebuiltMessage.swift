/// What a message rebuilt from parts holds, and the inbox item it becomes (FORMAT.md 8.5).
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

    /// The inbox item for a rebuilt qrseal message: a sealed one as its binary armor (so that
    /// `inbox open` opens it as any sealed item), plain text as text, a plain file as its
    /// bytes with its name as the label.
    public static func item(whole: [UInt8], symbology: String, receivedAt: Int64, sourceKind: InboxItem.SourceKind,
                            source: String) throws(PartsError) -> InboxItem {
        let bytes: [UInt8], text: String?, label: String?
        switch try content(of: whole) {
        case .sealed(let envelope):
            (bytes, text, label) = (Armor.magic + envelope, nil, nil)
        case .plain(.text(let t)):
            (bytes, text, label) = (Array(t.utf8), t, nil)
        case .plain(.file(let name, let content)):
            (bytes, text, label) = (content, nil, name.isEmpty ? nil : "file " + name)
        }
        let kind = ContentClassifier.classify(bytes: bytes, text: text, symbology: symbology).kind
        return InboxItem(receivedAt: receivedAt, sourceKind: sourceKind, source: source, symbology: symbology,
                         bytes: bytes, text: text, kind: kind, label: label)
    }

    /// The inbox item for a joined Structured Append sequence: its bytes as one code's.
    public static func joinedItem(_ bytes: [UInt8], symbology: String, receivedAt: Int64,
                                  sourceKind: InboxItem.SourceKind, source: String) -> InboxItem {
        let text = String(validating: bytes, as: UTF8.self)
        let kind = ContentClassifier.classify(bytes: bytes, text: text, symbology: symbology).kind
        return InboxItem(receivedAt: receivedAt, sourceKind: sourceKind, source: source, symbology: symbology,
                         bytes: bytes, text: text, kind: kind)
    }
}
