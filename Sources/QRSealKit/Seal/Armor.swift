/// How an envelope sits in a QR symbol (docs/FORMAT.md, section 4).
public enum Armor: String, CaseIterable, Sendable {
    /// `QRSEAL1:` in an alphanumeric segment, then the envelope as digits in a numeric segment.
    case digits
    /// The magic bytes `00 51 52 53`, then the envelope, in one byte segment.
    case binary

    static let prefixName = "QRSEAL"
    /// `prefixName` as bytes, compared at every `Q` of a pasted text.
    static let prefixNameBytes = Array(prefixName.utf8)
    static let digitsPrefix = "QRSEAL1:"
    static let magic: [UInt8] = [0x00, 0x51, 0x52, 0x53]

    /// The QR content that carries `envelope`.
    public func content(for envelope: [UInt8]) -> QREncoder.Content {
        switch self {
        case .digits:
            return .segments([Segment(mode: .alphanumeric, bytes: Array(Self.digitsPrefix.utf8)),
                              Segment(mode: .numeric, bytes: Digits.encode(envelope))])
        case .binary:
            return .binary(Self.magic + envelope)
        }
    }

    /// The text a scanner shows for `envelope` in digits armor.
    public static func text(for envelope: [UInt8]) -> String {
        digitsPrefix + String(decoding: Digits.encode(envelope), as: UTF8.self)
    }

    /// The envelope in a symbol's payload; nil when the payload is not a sealed message at all.
    public static func envelope(fromSymbol bytes: [UInt8]) throws(SealError) -> [UInt8]? {
        if bytes.starts(with: magic) { return Array(bytes.dropFirst(magic.count)) }
        guard let digitsStart = try digitsPrefixLength(bytes) else { return nil }
        return try envelope(fromDigits: Array(bytes[digitsStart...]))
    }

    /// The envelope in pasted text: white space anywhere is ignored, and so is what comes
    /// before the first `QRSEAL<version>:` (scanner apps put "Scanned text:" or the like on the
    /// clipboard before the payload).
    public static func envelope(fromText text: String) throws(SealError) -> [UInt8] {
        let compact = text.unicodeScalars.filter { !$0.properties.isWhitespace }
        let bytes = Array(String(String.UnicodeScalarView(compact)).utf8)
        for at in bytes.indices where bytes[at] & 0xDF == UInt8(ascii: "Q") {
            if let start = try digitsPrefixEnd(bytes[at...]) { return try envelope(fromDigits: Array(bytes[start...])) }
        }
        throw .badArmor("the text holds no \(digitsPrefix)")
    }

    /// The envelope behind the digits after `QRSEAL1:`. The prefix promises a version 1
    /// message in one symbol with a known key type (docs/FORMAT.md, section 4.1); digits cut
    /// off or mistyped change the leading bytes, so other first bytes are damage, not a
    /// version, frame or key type to report.
    static func envelope(fromDigits digits: [UInt8]) throws(SealError) -> [UInt8] {
        let envelope = try Digits.decode(digits)
        guard envelope.count >= Envelope.minimumLength else { throw .truncated }
        guard envelope[0] == Envelope.version << 4 | Envelope.completeFrame,
              Envelope.KeyKind(rawValue: envelope[1]) != nil else {
            throw .badArmor("the digits do not start a version 1 message (cut off or mistyped)")
        }
        return envelope
    }

    /// Whether a payload is sealed (either armor), without decoding it.
    public static func isSealed(_ bytes: [UInt8]) -> Bool {
        if bytes.starts(with: magic) { return true }
        do { return try digitsPrefixLength(bytes) != nil } catch { return true }
    }

    /// The length of a `QRSEAL<version>:` prefix (any case, any number of digits), nil
    /// without one; throws for a version other than 1.
    static func digitsPrefixLength(_ bytes: [UInt8]) throws(SealError) -> Int? {
        try digitsPrefixEnd(bytes[...])
    }

    /// Where a `QRSEAL<version>:` prefix at the start of `bytes` ends (an index of `bytes`),
    /// nil without one; throws for a version other than 1.
    static func digitsPrefixEnd(_ bytes: ArraySlice<UInt8>) throws(SealError) -> Int? {
        let name = prefixNameBytes
        guard bytes.count > name.count,
              zip(bytes, name).allSatisfy({ $0 & 0xDF == $1 }) else { return nil }
        let digits = bytes.startIndex + name.count
        var i = digits
        var version = 0
        while i < bytes.endIndex, bytes[i] >= 0x30, bytes[i] <= 0x39 {
            // Saturate: a version too long to count is still a version this reader does not know.
            version = min(version * 10 + Int(bytes[i] - 0x30), Int(Int32.max))
            i += 1
        }
        guard i > digits, i < bytes.endIndex, bytes[i] == UInt8(ascii: ":") else { return nil }
        guard version == 1 else { throw .unsupportedVersion(version) }
        return i + 1
    }

    /// The most envelope bytes a symbol of `version` at `level` carries in this armor.
    public func maxEnvelopeBytes(version: Int, level: ErrorCorrection) -> Int {
        maxEnvelopeBytes(version: version, level: level, prefix: Self.digitsPrefix)
    }

    /// The same, for digits armor under `prefix` (a part's prefix is one character longer).
    func maxEnvelopeBytes(version: Int, level: ErrorCorrection, prefix digitsPrefix: String) -> Int {
        let bits = QRCapacity.dataBits(version: version, level: level)
        switch self {
        case .binary:
            return max(0, QRCapacity.byteCapacity(version: version, level: level) - Self.magic.count)
        case .digits:
            let prefix = Segment(mode: .alphanumeric, bytes: Array(digitsPrefix.utf8)).bitLength(version: version)
            let room = bits - prefix - 4 - Segment.Mode.numeric.countBits(version: version)
            guard room > 0 else { return 0 }
            let digits = room / 10 * 3 + (room % 10 >= 7 ? 2 : (room % 10 >= 4 ? 1 : 0))
            var n = Int(Double(digits) / 2.408239965311849)
            while n > 0 && Digits.count(forBytes: n) > digits { n -= 1 }
            return n
        }
    }
}
