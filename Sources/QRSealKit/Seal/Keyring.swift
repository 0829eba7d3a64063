import Foundation

/// Key files kept in one directory (mode 0700), one `NAME.key` file (mode 0600) each,
/// so that opening sealed messages needs no key named on the command line.
public struct Keyring: Sendable {
    public let directory: String

    public init(directory: String) {
        self.directory = directory
    }

    public struct Entry: Equatable, Sendable {
        public let name: String
        /// A short, non-secret identifier of the key: 16 hex digits of a hash of it.
        public let fingerprint: String
    }

    /// Why a keyring operation failed.
    public enum Failure: Error, Equatable, Sendable, CustomStringConvertible {
        case badName(String)
        case exists(String)
        case missing(String)
        case io(String)
        case badKey(name: String, SealError)

        public var description: String {
            switch self {
            case .badName(let n):
                return "'\(DisplayText.escape(n))' is not a usable key name (letters, digits, '-', '_' and '.', starting with a letter or digit)"
            case .exists(let n): return "a key named '\(n)' is already in the keyring"
            case .missing(let n): return "no key named '\(DisplayText.escape(n))' in the keyring"
            case .io(let reason): return "keyring: \(DisplayText.escape(reason))"
            case let .badKey(name, error): return "keyring key '\(DisplayText.escape(name))': \(error.description)"
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

    /// The keys' names and fingerprints, by name.
    public func list() throws(Failure) -> [Entry] {
        try load().map { Entry(name: $0.0, fingerprint: Self.fingerprint($0.1)) }
    }

    /// The keys that can be read, and what went wrong with the others.
    public func readableKeys() -> ([SecretKey], [Failure]) {
        guard let names = SystemFiles.names(in: directory) else { return ([], []) }
        var keys: [SecretKey] = [], problems: [Failure] = []
        for fileName in names.sorted() where fileName.hasSuffix(".key") {
            let name = String(fileName.dropLast(4))
            do { keys.append(try key(named: name)) } catch { problems.append(error) }
        }
        return (keys, problems)
    }

    private func key(named name: String) throws(Failure) -> SecretKey {
        // A key file is one line; anything much longer is not one.
        guard let data = try? SystemFiles.read(file(name), limit: 4096) else {
            throw .io("\(file(name)): cannot read")
        }
        do { return try SecretKey(text: String(decoding: data, as: UTF8.self)) } catch {
            throw .badKey(name: name, error)
        }
    }

    public func remove(_ name: String) throws(Failure) {
        guard Self.isUsable(name) else { throw .badName(name) }
        guard RawBytes.withCString(file(name), { unlink($0) }) == 0 else {
            if errno == ENOENT { throw .missing(name) }
            throw .io("\(file(name)): \(SystemFiles.reason())")
        }
    }

    private func load() throws(Failure) -> [(String, SecretKey)] {
        guard let names = SystemFiles.names(in: directory) else { return [] }
        var result: [(String, SecretKey)] = []
        for fileName in names.sorted() where fileName.hasSuffix(".key") {
            let name = String(fileName.dropLast(4))
            result.append((name, try key(named: name)))
        }
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
        guard let first = name.unicodeScalars.first, CharacterSet.alphanumerics.contains(first) else { return false }
        return name.count <= 64
            && name.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) || "-_.".unicodeScalars.contains($0) }
    }

    public static func fingerprint(_ key: SecretKey) -> String {
        Crypto.sha256(Array("qrseal key fingerprint".utf8) + key.bytes).prefix(8)
            .map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }
}
