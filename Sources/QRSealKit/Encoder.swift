/// Turns a message into a QR symbol: optionally sealed, armored, segmented and encoded.
public struct Encoder: Sendable {
    public var symbol: QREncoder
    public var armor: Armor
    public var sealer: Sealer

    public init(symbol: QREncoder = QREncoder(), armor: Armor = .digits, sealer: Sealer = Sealer()) {
        self.symbol = symbol
        self.armor = armor
        self.sealer = sealer
    }

    /// A plain (unsealed) symbol for `content`.
    public func encode(_ content: QREncoder.Content) throws(SymbolError) -> QRMatrix {
        try symbol.encode(content)
    }

    /// Why a sealed message could not be encoded.
    public enum SealedError: Error, Sendable {
        case seal(SealError)
        /// The sealed message (`envelope` bytes) does not fit; `maxPlaintext` is the most
        /// content bytes that would fit at this level and armor, uncompressed.
        case tooLarge(envelope: Int, maxEnvelope: Int, level: ErrorCorrection)
        case symbol(SymbolError)
    }

    /// The symbol of `payload` sealed with `key`, and the envelope it carries.
    public func encodeSealed(_ payload: Payload, with key: SealKey) throws(SealedError) -> (QRMatrix, [UInt8]) {
        let envelope: [UInt8]
        let max = armor.maxEnvelopeBytes(version: 40, level: symbol.level)
        do { envelope = try sealer.seal(payload, with: key, maxEnvelope: max) } catch { throw .seal(error) }
        guard envelope.count <= max else {
            throw .tooLarge(envelope: envelope.count, maxEnvelope: max, level: symbol.level)
        }
        do {
            return (try symbol.encode(armor.content(for: envelope)), envelope)
        } catch {
            throw .symbol(error)
        }
    }

    /// Bytes a sealed message adds to its content for this key kind (and a file's name).
    public static func sealOverhead(passphrase: Bool, nameBytes: Int? = nil) -> Int {
        Envelope.overhead(passphrase ? .passphrase : .keyFile) + 1 + (nameBytes.map { $0 + 1 } ?? 0)
    }
}
