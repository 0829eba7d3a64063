import FoundationEssentials
import Glibc

/// An X25519 public key, in age's text form `age1…` (Bech32, human-readable part `age`).
public struct AgeRecipient: Equatable, Hashable, Sendable {
    static let hrp = "age"
    /// The 32-byte X25519 public key.
    let publicKey: [UInt8]

    init(publicKey: [UInt8]) {
        precondition(publicKey.count == 32, "an X25519 public key is 32 bytes")
        self.publicKey = publicKey
    }

    /// Parses `age1…` in either case (a QR code holds it upper case); white space around it is
    /// ignored. Post-quantum (`age1pq1…`) and plugin recipients (`age1NAME1…`) are refused with
    /// an error that names them.
    public init(text: String) throws(SealError) {
        let line = text.trimmingWhitespace()
        let decoded: (hrp: String, data: [UInt8])
        do { decoded = try Bech32.decode(line) } catch {
            throw .badKey("not an age recipient: \(error.reason)")
        }
        if decoded.hrp == "age1pq" {
            throw .unsupportedRecipient("age1pq (post-quantum ML-KEM-768 + X25519)")
        }
        if decoded.hrp.hasPrefix("age1") {
            throw .unsupportedRecipient("\(decoded.hrp) (the age plugin age-plugin-\(decoded.hrp.dropFirst(4)))")
        }
        guard decoded.hrp == Self.hrp else { throw .badKey("an age recipient starts with age1") }
        guard decoded.data.count == 32 else { throw .badKey("an age recipient holds 32 bytes, not \(decoded.data.count)") }
        self.publicKey = decoded.data
    }

    /// `age1…`, lower case, as age prints it.
    public var text: String { Bech32.encode(hrp: Self.hrp, data: publicKey) }

    /// The recipient upper case, for a QR code: every character is then in QR's alphanumeric
    /// set, which packs 2 characters in 11 bits instead of 16.
    public var qrText: String { text.uppercased() }

    /// A short code both sides can read aloud and compare: 16 decimal digits in groups of 4,
    /// from SHA-256 of a label and the public key (64 bits).
    public var fingerprint: String { Fingerprint.digits(label: "qrseal recipient fingerprint", publicKey) }
}

/// An X25519 secret key, in age's text form `AGE-SECRET-KEY-1…`: what `age-keygen` writes.
public struct AgeIdentity: Equatable, Sendable {
    static let hrp = "age-secret-key-"
    /// The 32-byte X25519 private scalar.
    let secret: [UInt8]
    public let recipient: AgeRecipient

    init(secret: [UInt8]) throws(SealError) {
        precondition(secret.count == 32, "an X25519 private key is 32 bytes")
        self.secret = secret
        self.recipient = AgeRecipient(publicKey: try Crypto.x25519PublicKey(privateKey: secret))
    }

    /// A new random identity.
    public static func generate() throws(SealError) -> AgeIdentity {
        try AgeIdentity(secret: Crypto.randomBytes(32))
    }

    /// Parses one `AGE-SECRET-KEY-1…` line (white space around it ignored).
    public init(text: String) throws(SealError) {
        let line = text.trimmingWhitespace()
        let upper = line.uppercased()
        if upper.hasPrefix("AGE-SECRET-KEY-PQ-") {
            throw .unsupportedRecipient("AGE-SECRET-KEY-PQ (post-quantum ML-KEM-768 + X25519 identity)")
        }
        if upper.hasPrefix("AGE-PLUGIN-") {
            throw .unsupportedRecipient("\(DisplayText.escape(String(line.prefix { $0 != "1" }))) (an age plugin identity)")
        }
        let decoded: (hrp: String, data: [UInt8])
        do { decoded = try Bech32.decode(line) } catch {
            throw .badKey("not an age identity: \(error.reason)")
        }
        guard decoded.hrp == Self.hrp else { throw .badKey("an age identity starts with AGE-SECRET-KEY-1") }
        guard decoded.data.count == 32 else { throw .badKey("an age identity holds 32 bytes, not \(decoded.data.count)") }
        try self.init(secret: decoded.data)
    }

    /// `AGE-SECRET-KEY-1…`, upper case, as age-keygen writes it.
    public var text: String { Bech32.encode(hrp: Self.hrp, data: secret).uppercased() }

    /// The identities in an identity file as age-keygen writes it: `#` comment lines, blank
    /// lines, and one `AGE-SECRET-KEY-1…` per line. A file with none, or with any other line,
    /// is refused; the error names the line.
    public static func parseFile(_ text: String) throws(SealError) -> [AgeIdentity] {
        var identities: [AgeIdentity] = []
        // Lines end at LF, CR LF too: by scalars, since CR LF is one Swift character.
        for (n, raw) in text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = String(String.UnicodeScalarView(raw)).trimmingWhitespace()
            if line.isEmpty || line.hasPrefix("#") { continue }
            do { identities.append(try AgeIdentity(text: line)) } catch {
                if case .badKey(let reason) = error { throw .badKey("line \(n + 1): \(reason)") }
                throw error
            }
        }
        guard !identities.isEmpty else { throw .badKey("no AGE-SECRET-KEY-1 line in the file") }
        return identities
    }

    /// The identity file age-keygen would write: a created line, the public key, the key.
    public func fileText(created: String) -> String {
        "# created: \(created)\n# public key: \(recipient.text)\n\(text)\n"
    }

    /// The share's wrapping of a file key, shared by age's X25519 stanza and qrseal's recipients
    /// envelope: the X25519 secret of `ephemeral` and this identity, or nil when it is all zeros.
    func sharedSecret(with share: [UInt8]) throws(SealError) -> [UInt8]? {
        try Crypto.x25519(privateKey: secret, publicKey: share)
    }
}

/// The fingerprints qrseal shows, of a public key or of a shared key: 16 decimal digits in
/// groups of four, a short code both sides can read aloud and compare, from the first 8
/// bytes of SHA-256 of a label and the key read as a big-endian integer, modulo 10^16.
enum Fingerprint {
    static func digits(label: String, _ key: [UInt8]) -> String {
        let hash = Crypto.sha256(Array(label.utf8) + key)
        let value = hash.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        let digits = String(value % 10_000_000_000_000_000)
        let padded = String(repeating: "0", count: 16 - digits.count) + digits
        return stride(from: 0, to: 16, by: 4).map { i in
            String(padded.dropFirst(i).prefix(4))
        }.joined(separator: " ")
    }
}
