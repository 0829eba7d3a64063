import FoundationEssentials
import Glibc
import QRSealKit

/// Where the inbox, keyring and config file live: `--inbox` and `QRSEAL_INBOX`, else the
/// XDG base directories (`~/.local/share/qrseal/`, `~/.config/qrseal/config`).
struct Locations {
    static let inboxOption = OptionSpec(long: "inbox", value: "PATH",
                                        help: "Use the inbox at PATH (default: $QRSEAL_INBOX, else $XDG_DATA_HOME/qrseal/inbox.sqlite).")

    let environment: [String: String]
    /// The library's answer to where things live, from this process's environment.
    let files: UserFiles

    init(console: Console) {
        environment = console.environment
        files = UserFiles(environment: console.environment)
    }

    /// `$XDG_CACHE_HOME/qrseal`, or `~/.cache/qrseal`; nil when neither is set.
    var cacheDirectory: String? { files.cacheDirectory }

    /// `$XDG_DATA_HOME/qrseal`, or `~/.local/share/qrseal`.
    func dataDirectory() throws(CLIError) -> String {
        do { return try files.dataDirectory() } catch { throw CLIError(error) }
    }

    /// The inbox file for this command.
    func inboxPath(_ args: ParsedArguments) throws(CLIError) -> String {
        do { return try files.inboxPath(given: args.value("inbox")) } catch { throw CLIError(error) }
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
        do { return try files.keyring() } catch { throw CLIError(error) }
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
        do { return try files.contacts() } catch { throw CLIError(error) }
    }

    /// `$XDG_CONFIG_HOME/qrseal/config`, or `~/.config/qrseal/config`.
    var configPath: String? { files.configPath }

    /// The config file's settings: `key = value` lines, `#` comments.
    func config() throws(CLIError) -> [String: String] {
        do { return try files.config() } catch { throw CLIError(error) }
    }

    /// The duplicate policy: `--dedupe`, else the config file's `dedupe`, else consecutive.
    func dedupePolicy(_ args: ParsedArguments) throws(CLIError) -> DedupePolicy {
        if let policy = try args.choice("dedupe", of: DedupePolicy.self) { return policy }
        do { return try files.dedupePolicy() } catch { throw CLIError(error) }
    }
}

extension CLIError {
    /// Where things live cannot be told, or the configuration cannot be read.
    init(_ error: UserFiles.Failure) {
        switch error {
        case .noDataDirectory: self.init(message: error.description, hints: ["pass --inbox PATH or set QRSEAL_INBOX"])
        default: self.init(message: error.description)
        }
    }

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
