/// age v1 files (C2SP age.md) on libcrypto: sealing to X25519 recipients or a passphrase, and
/// opening with identities or passphrases. Post-quantum and plugin recipients are refused by name.
public enum AgeFile {
    static let fileKeyLength = 16
    static let x25519Label = Array("age-encryption.org/v1/X25519".utf8)
    static let scryptLabel = Array("age-encryption.org/v1/scrypt".utf8)
    /// The longest header a reader accepts; it must all be in the bytes given to `Decryptor.start`.
    public static let maxHeaderLength = AgeHeader.maxLength
    /// The work factor age itself writes (N = 2^18).
    public static let defaultWorkFactor = 18
    /// Stanza types named so the error can say what they are.
    static let knownUnsupported = ["mlkem768x25519": "mlkem768x25519 (post-quantum ML-KEM-768 + X25519)"]

    /// Whether `bytes` look like an age file, binary (`age-encryption.org/…`) or armored
    /// (`-----BEGIN AGE ENCRYPTED FILE-----`, white space before it allowed).
    public static func isAgeFile(_ bytes: [UInt8]) -> Bool {
        bytes.starts(with: AgeHeader.versionPrefix) || AgeArmor.isArmored(bytes)
    }

    /// The binary age file of `bytes`: itself, or its armor decoded.
    public static func binary(_ bytes: [UInt8]) throws(SealError) -> [UInt8] {
        AgeArmor.isArmored(bytes) ? try AgeArmor.decode(bytes) : bytes
    }

    // MARK: Sealing

    /// An age file of `plaintext` for every recipient, one X25519 stanza each.
    public static func seal(_ plaintext: [UInt8], to recipients: [AgeRecipient]) throws(SealError) -> [UInt8] {
        precondition(!recipients.isEmpty, "at least one recipient")
        let fileKey = try Crypto.randomBytes(fileKeyLength)
        var stanzas: [AgeStanza] = []
        for recipient in recipients {
            let ephemeral = try Crypto.randomBytes(32)
            let share = try Crypto.x25519PublicKey(privateKey: ephemeral)
            guard let shared = try Crypto.x25519(privateKey: ephemeral, publicKey: recipient.publicKey) else {
                throw .badKey("the recipient \(recipient.text) is a low-order point")
            }
            let wrapKey = Crypto.hkdfSHA256(ikm: shared, salt: share + recipient.publicKey, info: x25519Label)
            let body = try Crypto.chachaSeal(key: wrapKey, nonce: [UInt8](repeating: 0, count: 12), plaintext: fileKey)
            stanzas.append(AgeStanza(type: "X25519", arguments: [Base64.encode(share, padded: false)], body: body))
        }
        return try finish(stanzas, fileKey: fileKey, plaintext: plaintext)
    }

    /// An age file of `plaintext` for a passphrase: one scrypt stanza, N = 2^workFactor, r = 8, p = 1.
    public static func seal(_ plaintext: [UInt8], passphrase: String,
                            workFactor: Int = defaultWorkFactor) throws(SealError) -> [UInt8] {
        precondition((1...30).contains(workFactor), "scrypt work factor out of range")
        let fileKey = try Crypto.randomBytes(fileKeyLength)
        let salt = try Crypto.randomBytes(16)
        let key = try Crypto.scrypt(password: Array(passphrase.utf8), salt: scryptLabel + salt,
                                    log2N: workFactor, r: 8, p: 1)
        let body = try Crypto.chachaSeal(key: key, nonce: [UInt8](repeating: 0, count: 12), plaintext: fileKey)
        let stanza = AgeStanza(type: "scrypt", arguments: [Base64.encode(salt, padded: false), String(workFactor)], body: body)
        return try finish([stanza], fileKey: fileKey, plaintext: plaintext)
    }

    private static func finish(_ stanzas: [AgeStanza], fileKey: [UInt8], plaintext: [UInt8]) throws(SealError) -> [UInt8] {
        AgeHeader(stanzas: stanzas, fileKey: fileKey).bytes + (try AgeStream.seal(plaintext, fileKey: fileKey))
    }

    // MARK: Opening

    /// The kind of key the header asks for: `passphrase` for a scrypt stanza, else `public key`
    /// (an identity), the names `Opener.keyKind` gives.
    /// The most key agreements (identities × X25519 stanzas) tried for one file: a second or
    /// two. Ten identities against a header of 1600 recipients fit, as do 2000 identities
    /// against 8; real files are far below both.
    public static let maxX25519Trials = 1 << 14

    static func keyKind(_ header: AgeHeader) -> KeyKind {
        header.stanzas.contains { $0.type == "scrypt" } ? .passphrase : .publicKey
    }

    /// The file key of `header`, unwrapped with the first key that matches. Every stanza of
    /// a kind of key given is checked in full first (form, scrypt cost); then keys are tried.
    static func fileKey(_ header: AgeHeader, keys: [SealKey], maxScryptLog2N: Int,
                        budget: OpeningBudget) throws(SealError) -> [UInt8] {
        let stanzas = header.stanzas
        if stanzas.contains(where: { $0.type == "scrypt" }), stanzas.count > 1 {
            throw .ageHeader("a scrypt stanza must be the only stanza")
        }
        // The same identity given twice (a file and the keyring) is tried once.
        var given = Set<[UInt8]>()
        let identities = keys.compactMap { key -> AgeIdentity? in
            if case .identity(let identity) = key { return identity }
            return nil
        }.filter { given.insert($0.recipient.publicKey).inserted }
        let passphrases = keys.compactMap { key -> String? in
            if case .passphrase(let passphrase) = key { return passphrase }
            return nil
        }
        var x25519: [(share: [UInt8], body: [UInt8])] = []
        var scrypt: [(salt: [UInt8], workFactor: Int, body: [UInt8])] = []
        for stanza in stanzas {
            switch stanza.type {
            case "X25519" where !identities.isEmpty:
                guard stanza.arguments.count == 1 else { throw .ageHeader("an X25519 stanza has one argument") }
                guard let share = Base64.decode(Array(stanza.arguments[0].utf8), padded: false), share.count == 32 else {
                    throw .ageHeader("an X25519 share is not 32 bytes in canonical base64")
                }
                guard stanza.body.count == 32 else { throw .ageHeader("an X25519 stanza's body is not a 16-byte file key") }
                x25519.append((share, stanza.body))
            case "scrypt" where !passphrases.isEmpty:
                guard stanza.arguments.count == 2 else { throw .ageHeader("a scrypt stanza has two arguments") }
                guard let salt = Base64.decode(Array(stanza.arguments[0].utf8), padded: false), salt.count == 16 else {
                    throw .ageHeader("a scrypt salt is not 16 bytes in canonical base64")
                }
                let factor = stanza.arguments[1]
                guard let first = factor.utf8.first, first != UInt8(ascii: "0"), factor.utf8.count <= 2,
                      factor.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let workFactor = Int(factor) else {
                    throw .ageHeader("the scrypt work factor '\(DisplayText.escape(String(factor.prefix(20))))' is not a decimal number from 1 to 99")
                }
                let parameters = ScryptParameters(log2N: workFactor, r: 8, p: 1)
                guard parameters.isValid else { throw .ageHeader("scrypt work factor \(workFactor) is out of range") }
                guard parameters.isWithin(limit: maxScryptLog2N) else {
                    throw .kdfTooCostly(log2N: workFactor, r: 8, p: 1, limit: maxScryptLog2N)
                }
                guard stanza.body.count == 32 else { throw .ageHeader("a scrypt stanza's body is not a 16-byte file key") }
                scrypt.append((salt, workFactor, stanza.body))
            default:
                // Other types are ignored, as the spec says (mlkem768x25519 is named below when
                // nothing else could match).
                continue
            }
        }
        // An X25519 stanza does not say whose it is: each identity is tried on each, one key
        // agreement a pair. The pairs are bounded, so that a header of thousands of stanzas
        // opened with a file of thousands of identities is refused at once, not worked through.
        if identities.count * x25519.count > maxX25519Trials {
            throw .tooManyTrials(identities: identities.count, stanzas: x25519.count, limit: maxX25519Trials)
        }
        let zeroNonce = [UInt8](repeating: 0, count: 12)
        for identity in identities {
            for stanza in x25519 {
                guard let shared = try identity.sharedSecret(with: stanza.share) else {
                    throw .ageHeader("an X25519 share gives the all-zero shared secret (a low-order point)")
                }
                let wrapKey = Crypto.hkdfSHA256(ikm: shared, salt: stanza.share + identity.recipient.publicKey,
                                                info: x25519Label)
                if let key = try Crypto.chachaOpen(key: wrapKey, nonce: zeroNonce, sealed: stanza.body) { return key }
            }
        }
        for passphrase in passphrases {
            for stanza in scrypt {
                let key = try budget.scryptKey(password: Array(passphrase.utf8), salt: scryptLabel + stanza.salt,
                                               parameters: ScryptParameters(log2N: stanza.workFactor, r: 8, p: 1))
                if let fileKey = try Crypto.chachaOpen(key: key, nonce: zeroNonce, sealed: stanza.body) { return fileKey }
            }
        }
        if let unsupported = stanzas.lazy.compactMap({ knownUnsupported[$0.type] }).first,
           !stanzas.contains(where: { $0.type == "X25519" || $0.type == "scrypt" }) {
            throw .unsupportedRecipient(unsupported)
        }
        // No key of the kind the file needs at all: say which, so a passphrase can be asked for.
        // With a key of another kind given, the file is simply not for it ("no match").
        let kind = keyKind(header)
        if kind == .passphrase ? passphrases.isEmpty : identities.isEmpty && passphrases.isEmpty {
            throw .noKey(kind: kind)
        }
        throw .noIdentityMatches
    }

    /// A streaming opener: give it the file's first bytes (at least the whole header, or all
    /// of a short file) to `start`, then the rest in pieces to `feed`, then `finish`.
    public struct Decryptor {
        var stream: AgeStream.Opener

        /// Parses the header at the start of `bytes`, unwraps the file key with `keys` and
        /// checks the header MAC; the bytes after the header are taken as the payload's first.
        /// Returns the plaintext already known.
        public static func start(_ bytes: [UInt8], keys: [SealKey], opener: QRSealKit.Opener) throws(SealError)
            -> (Decryptor, [UInt8]) {
            let header = try AgeHeader(parsing: bytes)
            let fileKey = try AgeFile.fileKey(header, keys: keys, maxScryptLog2N: opener.maxScryptLog2N,
                                              budget: opener.budget)
            guard header.verifies(fileKey: fileKey) else { throw .headerMACFailed }
            var decryptor = Decryptor(stream: AgeStream.Opener(fileKey: fileKey))
            let first = try decryptor.feed(Array(bytes[header.length...]))
            return (decryptor, first)
        }

        public mutating func feed(_ bytes: [UInt8]) throws(SealError) -> [UInt8] { try stream.feed(bytes) }

        public mutating func finish() throws(SealError) -> [UInt8] { try stream.finish() }
    }

    /// The plaintext of a whole age file (binary or armored) in memory.
    public static func open(_ bytes: [UInt8], keys: [SealKey], opener: QRSealKit.Opener) throws(SealError) -> [UInt8] {
        let binary = try binary(bytes)
        var (decryptor, out) = try Decryptor.start(binary, keys: keys, opener: opener)
        out += try decryptor.finish()
        return out
    }

    /// The key kind (`public key` or `passphrase`) a whole age file needs, after the checks
    /// that need no key.
    public static func keyKind(_ bytes: [UInt8]) throws(SealError) -> KeyKind {
        keyKind(try AgeHeader(parsing: try binary(bytes)))
    }
}
