/// The people one seals to: age recipients kept by name in one directory (mode 0700), one
/// `NAME.txt` file each holding the `age1…` line. Each file is also an age recipients file,
/// so `age -R contacts/NAME.txt` seals to the same person.
public struct Contacts: Sendable {
    public let directory: String

    public init(directory: String) {
        self.directory = directory
    }

    public struct Entry: Equatable, Sendable {
        public let name: String
        public let recipient: AgeRecipient
    }

    public enum Failure: Error, Equatable, Sendable, CustomStringConvertible {
        case badName(String)
        case exists(name: String, recipient: AgeRecipient)
        case missing(String)
        case io(String)
        case damaged(name: String, SealError)

        public var description: String {
            switch self {
            case .badName(let n):
                return "'\(DisplayText.escape(n))' is not a usable contact name (letters, digits, '-', '_' and '.', starting with a letter or digit)"
            case let .exists(name, recipient):
                return "a contact named '\(name)' is already there, with the recipient \(recipient.text)"
            case .missing(let n): return "no contact named '\(DisplayText.escape(n))'"
            case .io(let reason): return "contacts: \(DisplayText.escape(reason))"
            case let .damaged(name, error): return "contact '\(DisplayText.escape(name))': \(error.description)"
            }
        }
    }

    /// Adds `recipient` under `name`; never replaces a contact of the same name.
    public func add(_ recipient: AgeRecipient, name: String) throws(Failure) {
        guard Keyring.isUsable(name) else { throw .badName(name) }
        do { try SystemFiles.makeDirectories(directory, mode: 0o700) } catch {
            throw .io("\(directory): cannot create: \(error.description)")
        }
        do {
            try SecretFile.writeNew(Array((recipient.text + "\n").utf8), to: file(name))
        } catch {
            switch error {
            case .exists: throw .exists(name: name, recipient: (try? self.recipient(named: name)) ?? recipient)
            case .io(let reason): throw .io("\(file(name)): \(reason)")
            }
        }
    }

    /// The recipient kept under `name`.
    public func recipient(named name: String) throws(Failure) -> AgeRecipient {
        guard Keyring.isUsable(name) else { throw .badName(name) }
        guard SystemFiles.status(file(name)) != nil else { throw .missing(name) }
        guard let data = try? SystemFiles.read(file(name), limit: 4096) else { throw .io("\(file(name)): cannot read") }
        let line = String(decoding: data, as: UTF8.self).split(separator: "\n")
            .map { String($0).trimmingWhitespace() }.first { !$0.isEmpty && !$0.hasPrefix("#") } ?? ""
        do { return try AgeRecipient(text: line) } catch { throw .damaged(name: name, error) }
    }

    /// The contacts' names, sorted, read from the folder alone: no file is opened.
    public func names() -> [String] { SystemFiles.stems(in: directory, suffix: ".txt") }

    /// Every contact, by name.
    public func list() throws(Failure) -> [Entry] {
        var entries: [Entry] = []
        for name in names() {
            entries.append(Entry(name: name, recipient: try recipient(named: name)))
        }
        return entries
    }

    public func remove(_ name: String) throws(Failure) {
        guard Keyring.isUsable(name) else { throw .badName(name) }
        guard SystemFiles.status(file(name)) != nil else { throw .missing(name) }
        SystemFiles.remove(file(name))
    }

    private func file(_ name: String) -> String { SystemFiles.join(directory, name + ".txt") }
}
