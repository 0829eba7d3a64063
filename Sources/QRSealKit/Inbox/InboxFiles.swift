import FoundationEssentials
import Glibc

/// The files beside an inbox: SQLite's `-wal` and `-shm`, and the temporary `.new-XXXXXX`
/// files in which a new inbox is made.
enum InboxFiles {
    /// A temporary file untouched for this long was left by a process that died while
    /// making an inbox (making one takes milliseconds).
    static let staleAfterSeconds = 600

    /// The prefix of the temporary names under which a new inbox at `path` is made.
    static func temporaryPrefix(_ path: String) -> String { path + ".new-" }

    /// Removes temporary inboxes that a killed process left beside `path`; a recent one may
    /// be another process's, still at work, and is left alone.
    static func removeStale(beside path: String) {
        let prefix = temporaryPrefix(path)
        let directory = SystemFiles.directory(of: prefix)
        let namePrefix = SystemFiles.lastComponent(of: prefix)
        guard let names = SystemFiles.names(in: directory) else { return }
        let now = time(nil)
        for name in names where name.hasPrefix(namePrefix) && name.count == namePrefix.count + 6 {
            let candidate = SystemFiles.join(directory, name)
            guard let info = SystemFiles.status(candidate, followLinks: false), (info.st_mode & S_IFMT) == S_IFREG,
                  Int(now - info.st_mtim.tv_sec) > staleAfterSeconds else { continue }
            SystemFiles.remove(candidate)
        }
    }

    /// Why this process cannot read (or, `writing`, change) the inbox at `path`, naming the
    /// file or folder at fault; nil when nothing visible is wrong.
    static func problem(_ path: String, writing: Bool) -> String? {
        if allows(path, writing ? R_OK | W_OK : R_OK) != 0 {
            // Only a refusal says read-only: a file gone missing (or a dangling link) is not.
            let failure = errno
            let refused = failure == EACCES || failure == EROFS || failure == EPERM
            return writing && refused ? "the file is read-only (\(SystemFiles.reason(failure)))" : SystemFiles.reason(failure)
        }
        for companion in [path + "-wal", path + "-shm"] where allows(companion, F_OK) == 0 {
            if allows(companion, writing ? R_OK | W_OK : R_OK) != 0 {
                return "\(companion): \(SystemFiles.reason()) (SQLite's file beside the inbox must be readable and writable by you, like the inbox)"
            }
        }
        let directory = SystemFiles.directory(of: path)
        if writing && allows(directory, W_OK) != 0 {
            return "its folder \(directory) is read-only (\(SystemFiles.reason())); SQLite keeps files beside the inbox"
        }
        return nil
    }

    /// access(2) for a path that may carry bytes that are not UTF-8 (``RawBytes``).
    private static func allows(_ path: String, _ mode: Int32) -> Int32 {
        RawBytes.withCString(path) { access($0, mode) }
    }

    /// Whether this process may write the file at `path`.
    static func isWritable(_ path: String) -> Bool { allows(path, W_OK) == 0 }

    /// Whether SQLite's write-ahead log is there: a reader that ignored it would miss writes.
    static func hasLog(_ path: String) -> Bool { allows(path + "-wal", F_OK) == 0 }

}
