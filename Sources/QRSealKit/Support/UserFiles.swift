import FoundationEssentials
import Glibc

/// Where a user's inbox, keyring, contacts, configuration and cache live, the same for every
/// front end: `QRSEAL_INBOX` for the inbox, else the XDG base directories
/// (`~/.local/share/qrseal/`, `~/.config/qrseal/config`, `~/.cache/qrseal`).
///
/// The library never reads the environment: a front end hands over its own.
public struct UserFiles: Sendable {
    /// Why a place cannot be told, or the configuration file cannot be read.
    public enum Failure: Error, Equatable, Sendable, CustomStringConvertible {
        /// Neither XDG_DATA_HOME nor HOME is set.
        case noDataDirectory
        /// A line of the configuration file that is not `key = value`.
        case badConfigLine(path: String, line: Int)
        /// A setting whose value is not one of those it takes.
        case badConfigValue(path: String, key: String, value: String, expected: String)
        /// A key the configuration file has no use for: a slip (`dedup` for `dedupe`) that
        /// would otherwise leave the setting silently at its default.
        case unknownConfigKey(path: String, line: Int, key: String)

        public var description: String {
            switch self {
            case .noDataDirectory:
                return "cannot tell where to keep data: neither XDG_DATA_HOME nor HOME is set"
            case let .badConfigLine(path, line):
                return "\(path): line \(line): expected 'key = value'"
            case let .badConfigValue(path, key, value, expected):
                return "\(path): \(key) must be \(expected), not '\(DisplayText.escape(value))'"
            case let .unknownConfigKey(path, line, key):
                return "\(path): line \(line): unknown key '\(DisplayText.escape(key))' (the keys are: "
                    + UserFiles.configKeys.joined(separator: ", ") + ")"
            }
        }
    }

    public let environment: [String: String]

    public init(environment: [String: String]) { self.environment = environment }

    private var home: String? { environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } }

    /// `$XDG_CACHE_HOME/qrseal`, or `~/.cache/qrseal`; nil when neither is set.
    public var cacheDirectory: String? {
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") { return xdg + "/qrseal" }
        return home.map { $0 + "/.cache/qrseal" }
    }

    /// `$XDG_DATA_HOME/qrseal`, or `~/.local/share/qrseal`.
    public func dataDirectory() throws(Failure) -> String {
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") { return xdg + "/qrseal" }
        guard let home else { throw .noDataDirectory }
        return home + "/.local/share/qrseal"
    }

    /// The inbox file: `given` (a front end's option), else `QRSEAL_INBOX`, else
    /// `<data directory>/inbox.sqlite`.
    public func inboxPath(given: String? = nil) throws(Failure) -> String {
        if let given { return given }
        if let path = environment["QRSEAL_INBOX"], !path.isEmpty { return path }
        return try dataDirectory() + "/inbox.sqlite"
    }

    /// The keyring folder: `<data directory>/keys`.
    public func keyring() throws(Failure) -> Keyring { Keyring(directory: try dataDirectory() + "/keys") }

    /// The contacts folder: `<data directory>/contacts`.
    public func contacts() throws(Failure) -> Contacts { Contacts(directory: try dataDirectory() + "/contacts") }

    /// `$XDG_CONFIG_HOME/qrseal/config`, or `~/.config/qrseal/config`.
    public var configPath: String? {
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") { return xdg + "/qrseal/config" }
        return home.map { $0 + "/.config/qrseal/config" }
    }

    /// The keys the configuration file takes.
    public static let configKeys = ["dedupe"]

    /// The configuration file's settings: `key = value` lines, `#` comments; none when there
    /// is no file. A key not in `configKeys` is an error, not passed over.
    public func config() throws(Failure) -> [String: String] {
        guard let path = configPath, let data = FileManager.default.contents(atPath: path) else { return [:] }
        var settings: [String: String] = [:]
        for (n, raw) in String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            if line.trimmingSpaces().isEmpty { continue }
            let parts = line.split(separator: "=", maxSplits: 1)
            guard parts.count == 2 else { throw .badConfigLine(path: path, line: n + 1) }
            let key = parts[0].trimmingSpaces()
            guard Self.configKeys.contains(key) else { throw .unknownConfigKey(path: path, line: n + 1, key: key) }
            settings[key] = parts[1].trimmingSpaces()
        }
        return settings
    }

    /// The configuration's duplicate policy (`dedupe`), consecutive when unset.
    public func dedupePolicy() throws(Failure) -> DedupePolicy {
        guard let value = try config()["dedupe"] else { return .consecutive }
        guard let policy = DedupePolicy(rawValue: value.lowercased()) else {
            throw .badConfigValue(path: configPath ?? "config", key: "dedupe", value: value,
                                  expected: "consecutive, always or never")
        }
        return policy
    }
}
