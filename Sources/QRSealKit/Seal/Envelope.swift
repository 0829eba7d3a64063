/// The cleartext header, ciphertext and tag of a sealed message (docs/FORMAT.md, section 2).
struct Envelope: Equatable {
    static let version: UInt8 = 1
    static let completeFrame: UInt8 = 0

    enum KeyKind: UInt8 {
        case keyFile = 0x00
        case passphrase = 0x01
        case recipients = 0x02

        /// The key a user must give to open it.
        var opener: QRSealKit.KeyKind {
            switch self {
            case .keyFile: return .keyFile
            case .passphrase: return .passphrase
            case .recipients: return .publicKey
            }
        }
    }

    /// The most recipients one envelope names (the count is one byte).
    static let maxRecipients = 255
    /// Bytes of one recipient's slot: the 16-byte message key under AES-256-GCM, and its tag.
    static let slotLength = 32

    let kind: KeyKind
    /// scrypt parameters and salt; nil for key files.
    let scrypt: ScryptParameters?
    let salt: [UInt8]
    /// The ephemeral X25519 public key (recipients only).
    var share: [UInt8] = []
    /// The wrapped message key, one slot per recipient (recipients only).
    var slots: [[UInt8]] = []
    let nonce: [UInt8]
    /// Ciphertext followed by the 16-byte tag.
    let sealed: [UInt8]

    /// Every byte before the ciphertext: the associated data.
    var header: [UInt8] {
        var h: [UInt8] = [Self.version << 4 | Self.completeFrame, kind.rawValue]
        if let s = scrypt { h += [UInt8(s.log2N), UInt8(s.r), UInt8(s.p)] + salt }
        if kind == .recipients { h += share + [UInt8(slots.count)] + slots.flatMap { $0 } }
        return h + nonce
    }

    var bytes: [UInt8] { header + sealed }

    /// The fewest bytes any envelope has: a key-file header and the tag.
    static let minimumLength = overhead(.keyFile)

    /// Parses the layout: first the length every envelope has (a message cut short is damaged,
    /// whatever its first bytes say), then the version, frame and key type, then the length
    /// of its key type.
    init(parsing bytes: [UInt8]) throws(SealError) {
        guard bytes.count >= Self.minimumLength else { throw .truncated }
        let lead = bytes[0]
        guard lead >> 4 == Self.version else { throw .unsupportedVersion(Int(lead >> 4)) }
        guard lead & 0x0F == Self.completeFrame else {
            throw .unsupported("frame type \(lead & 0x0F) (part of a message spread over several symbols)")
        }
        guard let kind = KeyKind(rawValue: bytes[1]) else {
            throw .unsupported("key type \(bytes[1])")
        }
        var offset = 2
        var scrypt: ScryptParameters?
        var salt: [UInt8] = []
        if kind == .passphrase {
            guard bytes.count >= Self.overhead(.passphrase) else { throw .truncated }
            let (log2N, r, p) = (Int(bytes[2]), Int(bytes[3]), Int(bytes[4]))
            let parameters = ScryptParameters(log2N: log2N, r: r, p: p)
            guard parameters.isValid else {
                throw .malformed("invalid scrypt parameters N=2^\(log2N), r=\(r), p=\(p)")
            }
            scrypt = parameters
            salt = Array(bytes[5..<21])
            offset = 21
        }
        var share: [UInt8] = [], slots: [[UInt8]] = []
        if kind == .recipients {
            guard bytes.count >= Self.overhead(.recipients, recipients: 1) else { throw .truncated }
            share = Array(bytes[2..<34])
            let count = Int(bytes[34])
            guard count > 0 else { throw .malformed("no recipient slots") }
            guard bytes.count >= Self.overhead(.recipients, recipients: count) else { throw .truncated }
            offset = 35
            for _ in 0..<count {
                slots.append(Array(bytes[offset..<offset + Self.slotLength]))
                offset += Self.slotLength
            }
        }
        guard bytes.count >= offset + Crypto.nonceLength + Crypto.tagLength else { throw .truncated }
        self.kind = kind
        self.scrypt = scrypt
        self.salt = salt
        self.share = share
        self.slots = slots
        self.nonce = Array(bytes[offset..<offset + Crypto.nonceLength])
        self.sealed = Array(bytes[(offset + Crypto.nonceLength)...])
    }

    init(kind: KeyKind, scrypt: ScryptParameters?, salt: [UInt8], nonce: [UInt8], sealed: [UInt8]) {
        self.kind = kind
        self.scrypt = scrypt
        self.salt = salt
        self.nonce = nonce
        self.sealed = sealed
    }

    /// Bytes a sealed message adds to its inner plaintext: header and tag.
    static func overhead(_ kind: KeyKind, recipients: Int = 1) -> Int {
        let keyPart: Int
        switch kind {
        case .keyFile: keyPart = 0
        case .passphrase: keyPart = 3 + 16
        case .recipients: keyPart = 32 + 1 + slotLength * recipients
        }
        return 2 + keyPart + Crypto.nonceLength + Crypto.tagLength
    }
}

/// The cost parameters of scrypt, as recorded in a passphrase envelope.
public struct ScryptParameters: Equatable, Sendable {
    public let log2N: Int
    public let r: Int
    public let p: Int

    public init(log2N: Int, r: Int, p: Int) {
        self.log2N = log2N
        self.r = r
        self.p = p
    }

    /// Whether scrypt is defined for these values and they fit the header's bytes:
    /// 1 ≤ log2N ≤ 63 and log2N < 16·r (RFC 7914: N < 2^(128·r/8)), 1 ≤ r, p ≤ 255.
    public var isValid: Bool {
        (1...63).contains(log2N) && (1...255).contains(r) && (1...255).contains(p) && log2N < 16 * r
    }

    /// The work of one derivation, N·r·p (Int.max when it does not fit).
    public var work: Int {
        guard log2N < Int.bitWidth - 1 else { return .max }
        let (nr, o1) = (1 << log2N).multipliedReportingOverflow(by: r)
        let (nrp, o2) = nr.multipliedReportingOverflow(by: p)
        return o1 || o2 ? .max : nrp
    }

    /// What writers use: N = 2^17, r = 8, p = 1 (128 MiB).
    public static let standard = ScryptParameters(log2N: 17, r: 8, p: 1)

    /// Whether a reader whose limit is `limit` (N = 2^limit at r = 8, p = 1) may run these:
    /// work N·r·p and memory 128·N·r both within what the limit allows.
    public func isWithin(limit: Int) -> Bool {
        guard isValid, limit >= 0 else { return false }
        let n = Double(sign: .plus, exponent: log2N, significand: 1)
        let allowed = Double(sign: .plus, exponent: min(limit, 1000), significand: 1) * 8
        return n * Double(r) * Double(p) <= allowed && n * Double(r) <= allowed
    }
}
