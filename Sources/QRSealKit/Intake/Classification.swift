/// What a symbol's payload is, decided once, before anything is opened: a piece of a larger
/// message is filed before it is ever taken for a sealed message.
public enum Classification: Sendable {
    /// An ordinary code or text: its bytes are the message.
    case plain
    /// A message sealed by qrseal: its envelope, still sealed.
    case sealed(envelope: [UInt8])
    /// An age file, binary or armored, still sealed.
    case age([UInt8])
    /// A qrseal sealed symbol whose armor does not read.
    case damagedSealed(SealError)
    /// A piece of a larger message: a qrseal part, or one symbol of a Structured Append sequence.
    case piece(Inbox.Piece)
    /// A qrseal part whose header does not read.
    case damagedPiece(PartsError)

    /// What `bytes`, read from a symbol that may be one of a Structured Append sequence, hold.
    public init(symbolBytes bytes: [UInt8], structuredAppend: StructuredAppend? = nil) {
        do {
            if let part = try Part.fromSymbol(bytes) {
                self = .piece(Inbox.Piece(part))
                return
            }
        } catch {
            self = .damagedPiece(error)
            return
        }
        if let sequence = structuredAppend {
            self = .piece(Inbox.Piece(structuredAppend: sequence.index, of: sequence.count, parity: sequence.parity, bytes: bytes))
        } else if AgeFile.isAgeFile(bytes) {
            self = .age(bytes)
        } else if Armor.isSealed(bytes) {
            do {
                self = try Armor.envelope(fromSymbol: bytes).map { .sealed(envelope: $0) } ?? .plain
            } catch {
                self = .damagedSealed(error)
            }
        } else {
            self = .plain
        }
    }

    /// What a detected symbol holds.
    public init(_ detection: Detection) {
        self.init(symbolBytes: detection.bytes, structuredAppend: detection.structuredAppend)
    }

    /// What a recognised text block holds: a printed sealed message, or plain text.
    public init(_ block: TextBlock) {
        self = block.sealedArmor.map { Classification(symbolBytes: $0) } ?? .plain
    }

    /// Whether this is a piece of a larger message, damaged ones included.
    public var isPiece: Bool {
        switch self {
        case .piece, .damagedPiece: return true
        default: return false
        }
    }

    /// Whether this is a sealed message, ours or age's, damaged ones included.
    public var isSealed: Bool {
        switch self {
        case .sealed, .age, .damagedSealed: return true
        default: return false
        }
    }
}
