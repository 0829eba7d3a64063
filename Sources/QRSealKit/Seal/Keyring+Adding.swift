/// Adding a key file's or identity file's keys to the keyring, and generating new ones: what
/// `qrseal keys add` and `keygen` do and the desktop app's keys page does the same way.
extension Keyring {
    /// What was added: a key file's key, or identities (the first one's public key shown).
    public enum Added: Equatable, Sendable {
        case key(name: String, fingerprint: String)
        case identity(name: String, recipient: AgeRecipient)

        public var name: String {
            switch self {
            case .key(let name, _), .identity(let name, _): return name
            }
        }
    }

    /// Adds `keys` (from `Keyring.parse` of the file at `path`) under `name`, or when nil under
    /// the file's name without `.key` (`key-…` or `identity-…` and the fingerprint for "-").
    public func add(_ keys: [SealKey], name: String?, path: String, created: String) throws(Failure) -> Added {
        if case .keyFile(let key)? = keys.first {
            let fingerprint = Self.fingerprint(key)
            let name = name ?? Self.defaultName(path: path, fingerprint: "key-" + fingerprint.replacing(" ", with: ""))
            try add(key, name: name)
            return .key(name: name, fingerprint: fingerprint)
        }
        let identities = keys.compactMap { key -> AgeIdentity? in
            if case .identity(let identity) = key { return identity }
            return nil
        }
        guard let recipient = identities.first?.recipient else { throw .badName(name ?? path) }
        let name = name ?? Self.defaultName(path: path,
                                            fingerprint: "identity-" + recipient.fingerprint.replacing(" ", with: ""))
        try add(identities: identities, name: name, created: created)
        return .identity(name: name, recipient: recipient)
    }

    /// Generates a new key file's key (`identity` false) or an age identity and adds it under `name`.
    public func generate(identity: Bool, name: String, created: String) throws(GenerateFailure) -> Added {
        if identity {
            let new: AgeIdentity
            do { new = try AgeIdentity.generate() } catch { throw .random(error) }
            do { try add(identities: [new], name: name, created: created) } catch { throw .keyring(error) }
            return .identity(name: name, recipient: new.recipient)
        }
        let key: SecretKey
        do { key = try SecretKey.generate() } catch { throw .random(error) }
        do { try add(key, name: name) } catch { throw .keyring(error) }
        return .key(name: name, fingerprint: Self.fingerprint(key))
    }

    public enum GenerateFailure: Error, Equatable, Sendable, CustomStringConvertible {
        /// No random bytes for the key.
        case random(SealError)
        case keyring(Failure)

        public var description: String {
            switch self {
            case .random(let error): return error.description
            case .keyring(let error): return error.description
            }
        }
    }

    /// The file's name without `.key`; for standard input ("-"), `fingerprint`.
    public static func defaultName(path: String, fingerprint: String) -> String {
        if path == "-" { return fingerprint }
        let name = SystemFiles.lastComponent(of: path)
        return name.hasSuffix(".key") ? String(name.dropLast(4)) : name
    }

    /// Whether `name` may name a key or a contact: letters, digits, '-', '_' and '.', starting
    /// with a letter or digit, at most 64 characters.
    public static func isUsableName(_ name: String) -> Bool { isUsable(name) }
}

extension AgeRecipient {
    /// The recipient's QR code, as `keys show --qr` draws it: the upper-case key in
    /// alphanumeric mode, error correction M.
    public func qrMatrix() throws(SymbolError) -> QRMatrix {
        try QREncoder(level: .medium).encode(.segments([Segment(mode: .alphanumeric, bytes: Array(qrText.utf8))]))
    }
}
