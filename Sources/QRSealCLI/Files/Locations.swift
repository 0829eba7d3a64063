import Foundation
import QRSealKit

/// Where the inbox, keyring and config file live: `--inbox` and `QRSEAL_INBOX`, else the
/// XDG base directories (`~/.local/share/qrseal/`, `~/.config/qrseal/config`).
struct Locations {
    static let inboxOption = OptionSpec(long: "inbox", value: "PATH",
                                        help: "Use the inbox at PATH (default: $QRSEAL_INBOX, else $XDG_DATA_HOME/qrseal/inbox.sqlite).")

    let environment: [String: String]

    init(console: Console) { environment = console.environment }

    private var home: String? { environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } }

    /// `$XDG_CACHE_HOME/qrseal`, or `~/.cache/qrseal`; nil when neither is set.
    var cacheDirectory: String? {
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") { return xdg + "/qrseal" }
        return home.map { $0 + "/.cache/qrseal" }
    }

    /// `$XDG_DATA_HOME/qrseal`, or `~/.local/share/qrseal`.
    func dataDirectory() throws(CLIError) -> String {
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") { return xdg + "/qrseal" }
        guard let home else {
            throw CLIError(message: "cannot tell where to keep data: neither XDG_DATA_HOME nor HOME is set",
                           hints: ["pass --inbox PATH or set QRSEAL_INBOX"])
        }
        return home + "/.local/share/qrseal"
    }

    /// The inbox file for this command.
    func inboxPath(_ args: ParsedArguments) throws(CLIError) -> String {
        if let path = args.value("inbox") { return path }
        if let path = environment["QRSEAL_INBOX"], !path.isEmpty { return path }
        return try dataDirectory() + "/inbox.sqlite"
    }

    /// Opens the inbox, its folder made with mode 0700; only commands that store create it,
    /// and commands that only read open it read-only.
    func openInbox(_ args: ParsedArguments, create: Bool = true,
                   access: Inbox.Access = .readWrite) throws(CLIError) -> Inbox {
        let path = try inboxPath(args)
        if !create && SystemFiles.status(path) == nil {
            throw CLIError(message: "\(path): no inbox yet", hints: ["'qrseal scan' keeps what it reads there"],
                           status: .nothingFound)
        }
        if create { try Files.makeDirectories(SystemFiles.directory(of: path), mode: 0o700) }
        do { return try Inbox(path: path, access: access) } catch { throw CLIError(error) }
    }

    /// The keyring folder: `<data directory>/keys`.
    func keyring() throws(CLIError) -> Keyring {
        Keyring(directory: try dataDirectory() + "/keys")
    }

    /// The keyring's keys, to try on sealed messages. Without a data directory there is no
    /// keyring; a key file that cannot be read is skipped with a warning.
    func keyringKeys(console: Console) -> [SealKey] {
        guard let ring = try? keyring() else { return [] }
        let (keys, problems) = ring.readableKeys()
        for problem in problems { console.printError("qrseal: warning: " + DisplayText.escape(problem.description)) }
        return keys
    }

    /// The contacts folder: `<data directory>/contacts`.
    func contacts() throws(CLIError) -> Contacts {
        Contacts(directory: try dataDirectory() + "/contacts")
    }

    /// `$XDG_CONFIG_HOME/qrseal/config`, or `~/.config/qrseal/config`.
    var configPath: String? {
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") { return xdg + "/qrseal/config" }
        return home.map { $0 + "/.config/qrseal/config" }
    }

    /// The config file's settings: `key = value` lines, `#` comments.
    func config() throws(CLIError) -> [String: String] {
        guard let path = configPath, let data = FileManager.default.contents(atPath: path) else { return [:] }
        var settings: [String: String] = [:]
        for (n, raw) in String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            if line.trimmingCharacters(in: .whitespaces).isEmpty { continue }
            let parts = line.split(separator: "=", maxSplits: 1)
            guard parts.count == 2 else {
                throw CLIError(message: "\(path): line \(n + 1): expected 'key = value'")
            }
            settings[parts[0].trimmingCharacters(in: .whitespaces)] = parts[1].trimmingCharacters(in: .whitespaces)
        }
        return settings
    }

    /// The duplicate policy: `--dedupe`, else the config file's `dedupe`, else consecutive.
    func dedupePolicy(_ args: ParsedArguments) throws(CLIError) -> DedupePolicy {
        if let policy = try args.choice("dedupe", of: DedupePolicy.self) { return policy }
        if let value = try config()["dedupe"] {
            guard let policy = DedupePolicy(rawValue: value.lowercased()) else {
                throw CLIError(message: "\(configPath ?? "config"): dedupe must be consecutive, always or never, not '\(value)'")
            }
            return policy
        }
        return .consecutive
    }
}

extension CLIError {
    /// The inbox's failure, with what the user can do about it.
    init(_ error: InboxError) {
        switch error {
        case .cannotWrite:
            self.init(message: error.description,
                      hints: ["change the mode or owner of what is named; scan --no-store reads without keeping"])
        case .emptyFile:
            self.init(message: error.description, hints: ["remove it, and the next command that stores makes a new inbox there"])
        case .library(let error):
            self.init(error)
        default:
            self.init(message: error.description)
        }
    }
}
