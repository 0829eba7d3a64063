import FoundationEssentials
import Glibc

/// A key to seal with or try when opening.
public enum SealKey: Equatable, Sendable {
    case passphrase(String)
    case keyFile(SecretKey)
    /// An X25519 identity: opens age files and recipients envelopes sealed to its recipient.
    case identity(AgeIdentity)
    /// Public keys to seal to (a recipients envelope); never a key to open with.
    case recipients([AgeRecipient])

    public var isPassphrase: Bool {
        if case .passphrase = self { return true }
        return false
    }

    /// The envelope key type this key seals or opens.
    var kind: Envelope.KeyKind {
        switch self {
        case .passphrase: return .passphrase
        case .keyFile: return .keyFile
        case .identity, .recipients: return .recipients
        }
    }

    /// The bytes an envelope sealed with this key adds to its inner plaintext.
    var overhead: Int {
        if case .recipients(let list) = self { return Envelope.overhead(.recipients, recipients: max(1, list.count)) }
        return Envelope.overhead(kind)
    }
}

/// Seals payloads into envelopes (docs/FORMAT.md).
public struct Sealer: Sendable {
    public var scrypt: ScryptParameters = .standard
    /// Whether to try Brotli; it is used only when it makes the message smaller.
    public var compress = true
    /// Test-only: fixed salt and nonce instead of random ones, to pin vectors.
    var fixedRandom: (salt: [UInt8], nonce: [UInt8])?
    /// Test-only: a fixed ephemeral X25519 secret and message key for recipients envelopes.
    var fixedEphemeral: (secret: [UInt8], messageKey: [UInt8])?

    public init(scrypt: ScryptParameters = .standard, compress: Bool = true) {
        self.scrypt = scrypt
        self.compress = compress
    }

    /// The envelope bytes of `payload` sealed with `key`. A caller that can carry at most
    /// `maxEnvelope` bytes says so, and compression stops as soon as it cannot get under it
    /// (the envelope is then the uncompressed one, too large as it is).
    public func seal(_ payload: Payload, with key: SealKey, maxEnvelope: Int = .max) throws(SealError) -> [UInt8] {
        let overhead = key.overhead
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
        case .recipients(let recipients):
            guard (1...Envelope.maxRecipients).contains(recipients.count) else {
                throw .unsupported("\(recipients.count) recipients (one message takes 1 to \(Envelope.maxRecipients))")
            }
            let ephemeral: [UInt8], messageKey: [UInt8]
            if let fixed = fixedEphemeral {
                (ephemeral, messageKey) = fixed
            } else {
                ephemeral = try Self.random(32)
                messageKey = try Self.random(RecipientSlots.messageKeyLength)
            }
            let share = try Crypto.x25519PublicKey(privateKey: ephemeral)
            var slots: [[UInt8]] = []
            for recipient in recipients {
                guard let shared = try Crypto.x25519(privateKey: ephemeral, publicKey: recipient.publicKey) else {
                    throw .badKey("the recipient \(recipient.text) is a low-order point")
                }
                slots.append(try RecipientSlots.wrap(messageKey, shared: shared, share: share, recipient: recipient))
            }
            var draft = Envelope(kind: .recipients, scrypt: nil, salt: [], nonce: nonce, sealed: [])
            draft.share = share
            draft.slots = slots
            return try finish(draft, key: RecipientSlots.bodyKey(messageKey), inner: inner)
        case .identity:
            throw .unsupported("sealing with an identity: seal to its recipient (age1…) instead")
        }
    }

    private func finish(_ draft: Envelope, key: [UInt8], inner: [UInt8]) throws(SealError) -> [UInt8] {
        let sealed = try Crypto.seal(key: key, nonce: draft.nonce, aad: draft.header, plaintext: inner)
        return draft.header + sealed
    }

    private static func random(_ count: Int) throws(SealError) -> [UInt8] {
        try Crypto.randomBytes(count)
    }

    /// UTF-8 of the passphrase in Unicode NFC: the standard library's own normalization, the
    /// one its string comparison uses (public, if underscored: FoundationEssentials has none).
    static func passphraseBytes(_ passphrase: String) -> [UInt8] {
        passphrase._nfcCodeUnits
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
            case (.keyFile, .keyFile), (.passphrase, .passphrase), (.identity, .recipients): return true
            default: return false
            }
        }
        guard !matching.isEmpty else { throw .noKey(kind: envelope.kind.opener) }
        if envelope.kind == .recipients { return try openRecipients(envelope, keys: matching) }
        // Keys are derived one at a time: scrypt is costly, and the first may be the right one.
        for key in matching {
            let aesKey: [UInt8]
            switch key {
            case .keyFile(let secret):
                aesKey = secret.messageKey
            case .passphrase(let passphrase):
                aesKey = try budget.scryptKey(password: Sealer.passphraseBytes(passphrase), salt: envelope.salt,
                                              parameters: envelope.scrypt!)
            case .identity, .recipients:
                continue
            }
            if let inner = try Crypto.open(key: aesKey, nonce: envelope.nonce, aad: envelope.header,
                                           sealed: envelope.sealed) {
                return try decode(inner)
            }
        }
        throw .authenticationFailed
    }

    /// A recipients envelope opened with the first identity whose slot unwraps: a slot that
    /// unwraps and a body that then fails is an altered message; no slot at all, a message
    /// for someone else.
    private func openRecipients(_ envelope: Envelope, keys: [SealKey]) throws(SealError) -> Payload {
        for case .identity(let identity) in keys {
            guard let shared = try identity.sharedSecret(with: envelope.share) else {
                throw .malformed("the ephemeral key gives the all-zero X25519 secret (a low-order point)")
            }
            for slot in envelope.slots {
                guard let messageKey = try RecipientSlots.unwrap(slot, shared: shared, share: envelope.share,
                                                                 recipient: identity.recipient) else { continue }
                guard let inner = try Crypto.open(key: RecipientSlots.bodyKey(messageKey), nonce: envelope.nonce,
                                                  aad: envelope.header, sealed: envelope.sealed) else {
                    throw .authenticationFailed
                }
                return try decode(inner)
            }
        }
        throw .noIdentityMatches
    }

    /// An age file's payload, opened with the identities and passphrases among `keys` (after
    /// every check that needs no key): text when it is UTF-8, else a file without a name.
    public func openAge(_ bytes: [UInt8], keys: [SealKey]) throws(SealError) -> Payload {
        let plaintext = try AgeFile.open(bytes, keys: keys, opener: self)
        guard plaintext.count <= budget.contentBytesLeft else { throw .contentTooLarge(limit: budget.maxContentBytes) }
        budget.spendContent(plaintext.count)
        if let text = String(validating: plaintext, as: UTF8.self) { return .text(text) }
        return .file(name: "", bytes: plaintext)
    }

    /// The kind of key (`passphrase` or `key file`) that `bytes` needs, after every check that
    /// needs no key: throws what `open` would for a damaged, unsupported or too costly message.
    public func keyKind(_ bytes: [UInt8]) throws(SealError) -> KeyKind {
        if AgeFile.isAgeFile(bytes) { return try AgeFile.keyKind(bytes) }
        return try checked(bytes).kind.opener
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
    public static func describe(_ bytes: [UInt8]) throws(SealError) -> (keyKind: KeyKind, bytes: Int) {
        if AgeFile.isAgeFile(bytes) { return (try AgeFile.keyKind(bytes), bytes.count) }
        let envelope = try Envelope(parsing: bytes)
        return (envelope.kind.opener, bytes.count)
    }
}
