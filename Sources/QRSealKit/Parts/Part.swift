/// One part of a message larger than one symbol (docs/FORMAT.md, section 8): a 16-byte header
/// and one chunk of the message or of its parity.
public struct Part: Equatable, Sendable {
    /// Version 1, frame type 1.
    static let lead: UInt8 = 0x11
    public static let headerLength = 16
    /// The longest message parts carry: the length field has 3 bytes.
    public static let maxMessageBytes = (1 << 24) - 1
    /// The most parts one message has: the count fields have 2 bytes.
    public static let maxParts = 65_535
    /// Parts per stripe: the rows of a GF(2^8) code.
    static let stripeRows = 255

    /// The first 4 bytes of the SHA-256 of the whole message: its id and its check.
    public let messageID: UInt32
    /// K: how many distinct parts rebuild the message (the data parts).
    public let dataParts: Int
    /// N: how many parts the writer made, data and parity.
    public let totalParts: Int
    /// 0-based; the first `dataParts` hold the message itself.
    public let index: Int
    /// The whole message's length in bytes.
    public let length: Int
    /// This part's share: `chunkLength` bytes.
    public let chunk: [UInt8]

    /// The id as labels and listings show it: 8 upper-case hexadecimal digits.
    public var idText: String { Self.idText(messageID) }

    public static func idText(_ id: UInt32) -> String {
        let hex = String(id, radix: 16, uppercase: true)
        return String(repeating: "0", count: 8 - hex.count) + hex
    }

    /// The chunk length every part of a message of `length` bytes in `dataParts` parts has.
    static func chunkLength(length: Int, dataParts: Int) -> Int { (length + dataParts - 1) / dataParts }

    /// S: stripes are independent codes of at most 255 parts (section 8.4).
    static func stripes(totalParts: Int) -> Int { (totalParts + stripeRows - 1) / stripeRows }

    var stripes: Int { Self.stripes(totalParts: totalParts) }
    var stripe: Int { index % stripes }
    /// The part's row in its stripe's code.
    var row: Int { index / stripes }

    /// How many data parts stripe `s` of a message has.
    static func dataParts(inStripe s: Int, dataParts k: Int, stripes: Int) -> Int { (k - s + stripes - 1) / stripes }

    /// A part made by the writer; the fields are trusted.
    init(messageID: UInt32, dataParts: Int, totalParts: Int, index: Int, length: Int, chunk: [UInt8]) {
        self.messageID = messageID
        self.dataParts = dataParts
        self.totalParts = totalParts
        self.index = index
        self.length = length
        self.chunk = chunk
    }

    /// The header and chunk, as the armor carries them.
    public var frame: [UInt8] {
        let head = headerFields
        return head + Self.check(head, chunk) + chunk
    }

    /// The header's first 14 bytes: everything but the check.
    private var headerFields: [UInt8] {
        [Self.lead, UInt8(dataParts >> 8), UInt8(dataParts & 0xFF), UInt8(totalParts >> 8), UInt8(totalParts & 0xFF),
         UInt8(index >> 8), UInt8(index & 0xFF), UInt8(length >> 16), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF),
         UInt8(messageID >> 24), UInt8(messageID >> 16 & 0xFF), UInt8(messageID >> 8 & 0xFF), UInt8(messageID & 0xFF)]
    }

    /// The first 2 bytes of SHA-256(header fields ‖ chunk).
    private static func check(_ head: [UInt8], _ chunk: [UInt8]) -> [UInt8] {
        Array(Crypto.sha256(head + chunk).prefix(2))
    }

    /// Parses a frame, checking in the order section 8.3 gives: length, lead byte, fields, check.
    public init(frame bytes: [UInt8]) throws(PartsError) {
        guard bytes.count > Self.headerLength else { throw .truncated }
        guard bytes[0] >> 4 == 1 else { throw .unsupported("format version \(bytes[0] >> 4)") }
        guard bytes[0] == Self.lead else { throw .unsupported("frame type \(bytes[0] & 0x0F)") }
        func field(_ at: Int, _ size: Int) -> Int { bytes[at..<at + size].reduce(0) { $0 << 8 | Int($1) } }
        let k = field(1, 2), n = field(3, 2), index = field(5, 2), length = field(7, 3)
        let chunk = Array(bytes[Self.headerLength...])
        guard k >= 1 else { throw .malformed("no data parts (K = 0)") }
        guard n >= k else { throw .malformed("fewer parts (\(n)) than data parts (\(k))") }
        guard n <= Self.stripeRows * k else { throw .malformed("more than 255 parts per data part (\(n) for \(k))") }
        guard index < n else { throw .malformed("part index \(index + 1) of \(n)") }
        guard length >= 1 else { throw .malformed("empty message") }
        let expected = Self.chunkLength(length: length, dataParts: k)
        guard (k - 1) * expected < length else { throw .malformed("more data parts (\(k)) than the \(length) bytes need") }
        guard chunk.count == expected else {
            throw .malformed("\(chunk.count) bytes of data where \(length) bytes in \(k) parts give \(expected)")
        }
        guard Array(bytes[14..<16]) == Self.check(Array(bytes[0..<14]), chunk) else { throw .damagedPart }
        self.init(messageID: UInt32(field(10, 4)), dataParts: k, totalParts: n, index: index, length: length, chunk: chunk)
    }

    // MARK: Armor

    /// The digits armor's prefix for a part (section 8.2).
    static let digitsPrefix = "QRSEAL1P:"

    /// The QR content that carries this part in `armor`.
    public func content(armor: Armor) -> QREncoder.Content {
        switch armor {
        case .digits:
            return .segments([Segment(mode: .alphanumeric, bytes: Array(Self.digitsPrefix.utf8)),
                              Segment(mode: .numeric, bytes: Digits.encode(frame))])
        case .binary:
            return .binary(Armor.magic + frame)
        }
    }

    /// The part a symbol's payload carries; nil when it carries none. Throws for a payload
    /// that is a part, but damaged or unsupported.
    public static func fromSymbol(_ bytes: [UInt8]) throws(PartsError) -> Part? {
        if bytes.starts(with: Armor.magic), bytes.count > Armor.magic.count, bytes[Armor.magic.count] == lead {
            return try Part(frame: Array(bytes.dropFirst(Armor.magic.count)))
        }
        let prefix = Array(digitsPrefix.utf8)
        guard bytes.count >= prefix.count, zip(bytes, prefix).allSatisfy({ upper($0) == $1 }) else { return nil }
        let digits: [UInt8]
        do { digits = try Digits.decode(Array(bytes[prefix.count...])) } catch {
            throw .malformed("the digits are not the form of any part (cut off or mistyped)")
        }
        return try Part(frame: digits)
    }

    private static func upper(_ c: UInt8) -> UInt8 { c >= 0x61 && c <= 0x7A ? c - 0x20 : c }

    /// The most chunk bytes a part carries in a symbol of `version` at `level`.
    public static func chunkCapacity(version: Int, level: ErrorCorrection, armor: Armor) -> Int {
        max(0, armor.maxEnvelopeBytes(version: version, level: level, prefix: digitsPrefix) - headerLength)
    }
}
