import Foundation

/// A key to seal with or try when opening.
public enum SealKey: Sendable {
    case passphrase(String)
    case keyFile(SecretKey)

    public var isPassphrase: Bool {
        if case .passphrase = self { return true }
        return false
    }
}

/// Seals payloads into envelopes (docs/FORMAT.md).
public struct Sealer: Sendable {
    public var scrypt: ScryptParameters = .standard
    /// Whether to try Brotli; it is used only when it makes the message smaller.
    public var compress = true
    /// Test-only: fixed salt and nonce instead of random ones, to pin vectors.
    var fixedRandom: (salt: [UInt8], nonce: [UInt8])?

    public init(scrypt: ScryptParameters = .standard, compress: Bool = true) {
        self.scrypt = scrypt
        self.compress = compress
    }

    /// The envelope bytes of `payload` sealed with `key`. A caller that can carry at most
    /// `maxEnvelope` bytes says so, and compression stops as soon as it cannot get under it
    /// (the envelope is then the uncompressed one, too large as it is).
    public func seal(_ payload: Payload, with key: SealKey, maxEnvelope: Int = .max) throws(SealError) -> [UInt8] {
        let overhead = Envelope.overhead(key.isPassphrase ? .passphrase : .keyFile)
        let inner = try InnerPlaintext.encode(payload, compress: compress,
                                              compressedLimit: maxEnvelope == .max ? .max : max(0, maxEnvelope - overhead))
        let nonce: [UInt8]
        if let fixed = fixedRandom { nonce = fixed.nonce } else { nonce = try Self.random(Crypto.nonceLength) }
        switch key {
        case .passphrase(let passphrase):
            guard scrypt.isValid else {
                throw .unsupported("scrypt parameters N=2^\(scrypt.log2N), r=\(scrypt.r), p=\(scrypt.p)")
            }
            let salt: [UInt8]
            if let fixed = fixedRandom { salt = fixed.salt } else { salt = try Self.random(16) }
            let aesKey = try Crypto.scrypt(password: Self.passphraseBytes(passphrase), salt: salt,
                                           log2N: scrypt.log2N, r: scrypt.r, p: scrypt.p)
            return try finish(Envelope(kind: .passphrase, scrypt: scrypt, salt: salt, nonce: nonce, sealed: []),
                              key: aesKey, inner: inner)
        case .keyFile(let secret):
            return try finish(Envelope(kind: .keyFile, scrypt: nil, salt: [], nonce: nonce, sealed: []),
                              key: secret.messageKey, inner: inner)
        }
    }

    private func finish(_ draft: Envelope, key: [UInt8], inner: [UInt8]) throws(SealError) -> [UInt8] {
        let sealed = try Crypto.seal(key: key, nonce: draft.nonce, aad: draft.header, plaintext: inner)
        return draft.header + sealed
    }

    private static func random(_ count: Int) throws(SealError) -> [UInt8] {
        try Crypto.randomBytes(count)
    }

    /// UTF-8 of the passphrase in Unicode NFC.
    static func passphraseBytes(_ passphrase: String) -> [UInt8] {
        Array(passphrase.precomposedStringWithCanonicalMapping.utf8)
    }
}

/// Opens envelopes with the keys it is given. Copies share one `OpeningBudget`, so the
/// work of every message a reader opens counts against the same allowance.
public struct Opener: Sendable {
    /// The largest scrypt work accepted for one message: N = 2^maxScryptLog2N at r = 8, p = 1.
    public var maxScryptLog2N = 18
    /// What all the messages opened together may cost, and the keys derived so far.
    public let budget: OpeningBudget

    /// Without a `budget`, a new one sized for `maxScryptLog2N`
    /// (`OpeningBudget.defaultScryptWork(limit:)`).
    public init(maxScryptLog2N: Int = 18, budget: OpeningBudget? = nil) {
        self.maxScryptLog2N = maxScryptLog2N
        self.budget = budget ?? OpeningBudget(maxScryptWork: OpeningBudget.defaultScryptWork(limit: maxScryptLog2N))
    }

    /// The payload of `envelope`, trying each key of the envelope's kind in turn. Everything
    /// that needs no key is checked first (layout, then the scrypt limit), so that a damaged or
    /// unsupported message is reported as such even when no key of its kind was given.
    public func open(_ bytes: [UInt8], keys: [SealKey]) throws(SealError) -> Payload {
        let envelope = try checked(bytes)
        let matching = keys.filter { key in
            switch (key, envelope.kind) {
            case (.keyFile, .keyFile), (.passphrase, .passphrase): return true
            default: return false
            }
        }
        guard !matching.isEmpty else { throw .noKey(kind: envelope.kind.name) }
        // Keys are derived one at a time: scrypt is costly, and the first may be the right one.
        for key in matching {
            let aesKey: [UInt8]
            switch key {
            case .keyFile(let secret):
                aesKey = secret.messageKey
            case .passphrase(let passphrase):
                aesKey = try budget.scryptKey(password: Sealer.passphraseBytes(passphrase), salt: envelope.salt,
                                              parameters: envelope.scrypt!)
            }
            if let inner = try Crypto.open(key: aesKey, nonce: envelope.nonce, aad: envelope.header,
                                           sealed: envelope.sealed) {
                return try decode(inner)
            }
        }
        throw .authenticationFailed
    }

    /// The kind of key (`passphrase` or `key file`) that `bytes` needs, after every check that
    /// needs no key: throws what `open` would for a damaged, unsupported or too costly message.
    public func keyKind(_ bytes: [UInt8]) throws(SealError) -> String {
        try checked(bytes).kind.name
    }

    /// The envelope of `bytes`, its layout and scrypt cost checked.
    private func checked(_ bytes: [UInt8]) throws(SealError) -> Envelope {
        let envelope = try Envelope(parsing: bytes)
        if let params = envelope.scrypt, !params.isWithin(limit: maxScryptLog2N) {
            throw .kdfTooCostly(log2N: params.log2N, r: params.r, p: params.p, limit: maxScryptLog2N)
        }
        return envelope
    }

    /// The inner plaintext's payload, its content counted against the budget.
    private func decode(_ inner: [UInt8]) throws(SealError) -> Payload {
        let payload: Payload
        do {
            payload = try InnerPlaintext.decode(inner, maxContent: budget.contentBytesLeft)
        } catch .contentTooLarge {
            throw .contentTooLarge(limit: budget.maxContentBytes)
        }
        budget.spendContent(payload.content.count)
        return payload
    }

    /// What a sealed message says about itself without a key: its key kind and size.
    public static func describe(_ bytes: [UInt8]) throws(SealError) -> (keyKind: String, bytes: Int) {
        let envelope = try Envelope(parsing: bytes)
        return (envelope.kind.name, bytes.count)
    }
}
