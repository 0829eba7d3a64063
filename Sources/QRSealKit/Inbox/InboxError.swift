/// Why the inbox could not be opened, read or changed.
public enum InboxError: Error, Equatable, Sendable {
    /// The file exists but is not an SQLite database; it was left untouched.
    case notADatabase(path: String)
    /// The file is an SQLite database of some other program; it was left untouched.
    case notAnInbox(path: String)
    /// The database is damaged; it was left untouched.
    case damaged(path: String, reason: String)
    /// The inbox was written by a newer qrseal (schema `found`, this one knows `supported`).
    case newerSchema(path: String, found: Int, supported: Int)
    /// The file cannot be opened or created; the text says why.
    case cannotOpen(path: String, reason: String)
    /// The inbox can be read but not changed; the text names the file or folder at fault.
    case cannotWrite(path: String, reason: String)
    /// An empty file is where the inbox should be: not taken over, since its mode would stay.
    case emptyFile(path: String)
    /// Another process held the inbox locked for longer than the wait allows.
    case busy(path: String)
    /// No item has this id.
    case noSuchItem(Int64)
    /// An import line could not be read; nothing from the file was stored.
    case badImport(line: Int, reason: String)
    /// Any other SQLite failure, with its message.
    case sqlite(String)
    /// SQLite, opened on first use, cannot be loaded.
    case library(LibraryError)
}

extension InboxError: CustomStringConvertible {
    public var description: String {
        switch self {
        case let .notADatabase(path):
            return "\(path): not an SQLite database (left untouched)"
        case let .notAnInbox(path):
            return "\(path): an SQLite database, but not a qrseal inbox (left untouched)"
        case let .damaged(path, reason):
            return "\(path): the inbox is damaged: \(reason) (left untouched)"
        case let .newerSchema(path, found, supported):
            return "\(path): the inbox was written by a newer qrseal (schema \(found); this one reads up to \(supported))"
        case let .cannotOpen(path, reason):
            return "\(path): cannot open the inbox: \(reason)"
        case let .cannotWrite(path, reason):
            return "\(path): cannot write to the inbox: \(reason)"
        case let .emptyFile(path):
            return "\(path): an empty file, not an inbox (left untouched)"
        case let .busy(path):
            return "\(path): the inbox is locked by another process"
        case let .noSuchItem(id):
            return "no item \(id) in the inbox"
        case let .badImport(line, reason):
            return "line \(line): \(reason); nothing was imported"
        case let .sqlite(message):
            return "inbox: \(message)"
        case let .library(error):
            return error.description
        }
    }
}
