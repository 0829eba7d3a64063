import FoundationEssentials
import Glibc

/// Key files and age identity files kept in one directory (mode 0700), one `NAME.key` file
/// (mode 0600) each, so that opening sealed messages needs no key named on the command line.
public struct Keyring: Sendable {
    public let directory: String

    public init(directory: String) {
        self.directory = directory
    }

    public struct Entry: Equatable, Sendable {
        public let name: String
        /// A short, non-secret identifier of the key: 16 hex digits of a hash of a key file, or
        /// the recipient's fingerprint for an identity.
        public let fingerprint: String
        /// The public key of an identity (its first, when the file holds several); nil for a key file.
        public let recipient: AgeRecipient?
    }

    /// Why a keyring operation failed.
    public enum Failure: Error, Equatable, Sendable, CustomStringConvertible {
        case badName(String)
        case exists(String)
        case missing(String)
        case io(String)
        case badKey(name: String, SealError)
        /// The key is a shared key (a key file): sound, but with no public key to give.
        case sharedKey(String)

        public var description: String {
            switch self {
            case .badName(let n):
                return "'\(DisplayText.escape(n))' is not a usable key name (letters, digits, '-', '_' and '.', starting with a letter or digit)"
            case .exists(let n): return "a key named '\(n)' is already in the keyring"
            case .missing(let n): return "no key named '\(DisplayText.escape(n))' in the keyring"
            case .io(let reason): return "keyring: \(DisplayText.escape(reason))"
            case let .badKey(name, error): return "keyring key '\(DisplayText.escape(name))': \(error.description)"
            case .sharedKey(let n):
                return "'\(DisplayText.escape(n))' is a shared key, which has no public key: only an identity has one "
                    + "(make one with 'qrseal keygen --x25519')"
            }
        }
    }

    /// Adds `key` under `name`; never replaces a key of the same name.
    public func add(_ key: SecretKey, name: String) throws(Failure) {
        guard Self.isUsable(name) else { throw .badName(name) }
        try makeDirectory()
        let path = file(name)
        do {
            try key.save(to: path)
        } catch {
            switch error {
            case .exists: throw .exists(name)
            case .io(let reason): throw .io("\(path): \(reason)")
            }
        }
    }

    /// Adds age identities under `name`, as an identity file in age-keygen's form.
    public func add(identities: [AgeIdentity], name: String, created: String) throws(Failure) {
        guard Self.isUsable(name), !identities.isEmpty else { throw .badName(name) }
        try makeDirectory()
        let path = file(name)
        let text = identities.map { $0.fileText(created: created) }.joined()
        do {
            try SecretFile.writeNew(Array(text.utf8), to: path)
        } catch {
            switch error {
            case .exists: throw .exists(name)
            case .io(let reason): throw .io("\(path): \(reason)")
            }
        }
    }

    /// The keys' names and fingerprints, by name.
    public func list() throws(Failure) -> [Entry] {
        try load().map { name, keys in
            if case .identity(let identity)? = keys.first {
                return Entry(name: name, fingerprint: identity.recipient.fingerprint, recipient: identity.recipient)
            }
            guard case .keyFile(let key)? = keys.first else { return Entry(name: name, fingerprint: "", recipient: nil) }
            return Entry(name: name, fingerprint: Self.fingerprint(key), recipient: nil)
        }
    }

    /// The keys' names, sorted, read from the folder alone: no key file is opened, so a
    /// damaged one is named too.
    public func names() -> [String] { SystemFiles.stems(in: directory, suffix: ".key") }

    /// The keys that can be read, and what went wrong with the others.
    public func readableKeys() -> ([SealKey], [Failure]) {
        var keys: [SealKey] = [], problems: [Failure] = []
        for name in names() {
            do { keys += try self.keys(named: name) } catch { problems.append(error) }
        }
        return (keys, problems)
    }

    /// The identities kept under `name`; a key file there is not one.
    public func identities(named name: String) throws(Failure) -> [AgeIdentity] {
        guard Self.isUsable(name) else { throw .badName(name) }
        guard SystemFiles.status(file(name)) != nil else { throw .missing(name) }
        let identities = try keys(named: name).compactMap { key -> AgeIdentity? in
            if case .identity(let identity) = key { return identity }
            return nil
        }
        guard !identities.isEmpty else { throw .sharedKey(name) }
        return identities
    }

    /// The key in a keyring file: a `QRSEAL-KEY-1-…` line, or an age identity file.
    public func keys(named name: String) throws(Failure) -> [SealKey] {
        // A key file is one line and an identity file a few; anything much longer is neither.
        guard let data = try? SystemFiles.read(file(name), limit: 64 << 10) else {
            throw .io("\(file(name)): cannot read")
        }
        do { return try Self.parse(String(decoding: data, as: UTF8.self)) } catch {
            throw .badKey(name: name, error)
        }
    }

    /// The keys of a key file's or identity file's text: `QRSEAL-KEY-1-…`, or the
    /// `AGE-SECRET-KEY-1…` lines of an identity file (ours or age-keygen's).
    public static func parse(_ text: String) throws(SealError) -> [SealKey] {
        if text.unicodeScalars.first == "\u{FEFF}" {
            throw .badKey("the file starts with a byte order mark (U+FEFF), which is no part of a key; "
                          + "save it as UTF-8 without one")
        }
        if text.trimmingWhitespace().uppercased().hasPrefix(SecretKey.prefix) { return [.keyFile(try SecretKey(text: text))] }
        return try AgeIdentity.parseFile(text).map(SealKey.identity)
    }

    public func remove(_ name: String) throws(Failure) {
        guard Self.isUsable(name) else { throw .badName(name) }
        guard RawBytes.withCString(file(name), { unlink($0) }) == 0 else {
            if errno == ENOENT { throw .missing(name) }
            throw .io("\(file(name)): \(SystemFiles.reason())")
        }
    }

    private func load() throws(Failure) -> [(String, [SealKey])] {
        var result: [(String, [SealKey])] = []
        for name in names() { result.append((name, try keys(named: name))) }
        return result
    }

    private func makeDirectory() throws(Failure) {
        do { try SystemFiles.makeDirectories(directory, mode: 0o700) } catch {
            throw .io("\(directory): cannot create: \(error.description)")
        }
    }

    private func file(_ name: String) -> String { directory + "/" + name + ".key" }

    /// A name that cannot pass for an option (`-`…), a hidden file (`.`…) or a path.
    static func isUsable(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first.isAlphanumeric else { return false }
        return name.count <= 64
            && name.unicodeScalars.allSatisfy { $0.isAlphanumeric || "-_.".unicodeScalars.contains($0) }
    }

    /// A shared key's fingerprint, in the form of a public key's (`Fingerprint`): digits that
    /// tell keys apart without giving them away.
    public static func fingerprint(_ key: SecretKey) -> String {
        Fingerprint.digits(label: "qrseal key fingerprint", key.bytes)
    }
}
