import CSQLite

/// A value bound to or read from an SQL statement.
enum SQLValue: Equatable {
    case integer(Int64)
    case text(String)
    case blob([UInt8])
    case null
}

/// One SQLite connection (sqlite3_open_v2 … sqlite3_close_v2). Every SQLite failure becomes
/// an `InboxError` here, and nowhere else.
final class Database {
    private let handle: OpaquePointer
    let path: String

    /// How a connection may use the file.
    enum Mode {
        case readWrite, readOnly
        /// Read-only, and trusting that nobody writes the file meanwhile (the URI parameter
        /// `immutable=1`): for a file in a folder where no `-shm` file can be made.
        case immutable
    }

    /// Opens an existing database file, without creating it.
    init(path: String, mode: Mode = .readWrite) throws(InboxError) {
        do { try SharedLibrary.sqlite.load() } catch { throw .library(error) }
        var db: OpaquePointer?
        let flags: Int32
        var name = path
        switch mode {
        case .readWrite: flags = SQLITE_OPEN_READWRITE
        case .readOnly: flags = SQLITE_OPEN_READONLY
        case .immutable:
            flags = SQLITE_OPEN_READONLY | SQLITE_OPEN_URI
            name = "file:" + Self.uriEscaped(path) + "?immutable=1"
        }
        let status = RawBytes.withCString(name) { sqlite3_open_v2($0, &db, flags | SQLITE_OPEN_NOMUTEX, nil) }
        guard status == SQLITE_OK, let db else {
            let reason = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(db)
            throw .cannotOpen(path: path, reason: reason.lowercased())
        }
        handle = db
        self.path = path
        sqlite3_extended_result_codes(db, 1)
    }

    deinit { sqlite3_close_v2(handle) }

    /// `path` with the characters a URI gives meaning to written as `%HH`.
    private static func uriEscaped(_ path: String) -> String {
        var out = ""
        for byte in RawBytes.bytes(path) {
            if byte == 0x25 || byte == 0x3F || byte == 0x23 || byte < 0x21 || byte >= 0x7F {
                out += "%" + (byte < 0x10 ? "0" : "") + String(byte, radix: 16, uppercase: true)
            } else {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            }
        }
        return out
    }

    /// Whether the connection cannot write (the file or its folder is read-only, or it was
    /// opened so) (sqlite3_db_readonly).
    var isReadOnly: Bool { sqlite3_db_readonly(handle, "main") == 1 }

    /// Adds the SQL function `folded_contains(haystack, needle)`: 1 when `haystack`, in
    /// Unicode lower case, contains `needle` (given in lower case). SQLite's own LIKE folds
    /// ASCII letters only. (sqlite3_create_function_v2)
    func addFoldedContains() throws(InboxError) {
        let status = sqlite3_create_function_v2(
            handle, "folded_contains", 2, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nil,
            { context, count, arguments in
                guard count == 2, let arguments,
                      let haystack = sqlite3_value_text(arguments[0]),
                      let needle = sqlite3_value_text(arguments[1]) else {
                    sqlite3_result_int(context, 0)
                    return
                }
                func string(_ p: UnsafePointer<UInt8>, _ value: OpaquePointer?) -> String {
                    String(decoding: UnsafeBufferPointer(start: p, count: Int(sqlite3_value_bytes(value))), as: UTF8.self)
                }
                let h = string(haystack, arguments[0]).lowercased()
                sqlite3_result_int(context, h.contains(string(needle, arguments[1])) ? 1 : 0)
            }, nil, nil, nil)
        guard status == SQLITE_OK else { throw error(status) }
    }

    /// Runs one or more statements without results (sqlite3_exec).
    func execute(_ sql: String) throws(InboxError) {
        var message: UnsafeMutablePointer<CChar>?
        let status = sqlite3_exec(handle, sql, nil, nil, &message)
        defer { sqlite3_free(message) }
        guard status == SQLITE_OK else { throw error(status) }
    }

    /// A prepared statement with `values` bound (sqlite3_prepare_v2 and sqlite3_bind_*).
    func prepare(_ sql: String, _ values: [SQLValue] = []) throws(InboxError) -> Statement {
        var statement: OpaquePointer?
        let status = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard status == SQLITE_OK, let statement else { throw error(status) }
        let prepared = Statement(statement, database: self)
        try prepared.bind(values)
        return prepared
    }

    /// Every row of a query, each as its columns.
    func rows(_ sql: String, _ values: [SQLValue] = []) throws(InboxError) -> [[SQLValue]] {
        let statement = try prepare(sql, values)
        var rows: [[SQLValue]] = []
        while try statement.step() { rows.append(statement.columns()) }
        return rows
    }

    /// The first column of the first row, as an integer (0 when absent).
    func integer(_ sql: String, _ values: [SQLValue] = []) throws(InboxError) -> Int64 {
        guard case .integer(let n)? = try rows(sql, values).first?.first else { return 0 }
        return n
    }

    /// Runs `body` inside BEGIN IMMEDIATE … COMMIT, rolling back when it throws.
    func transaction<T>(_ body: () throws(InboxError) -> T) throws(InboxError) -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    var lastInsertID: Int64 { sqlite3_last_insert_rowid(handle) }
    var changes: Int { Int(sqlite3_changes(handle)) }

    /// Waits up to `milliseconds` for another connection's lock (sqlite3_busy_timeout).
    func setBusyTimeout(_ milliseconds: Int32) { sqlite3_busy_timeout(handle, milliseconds) }

    /// The error for a failed call, from the connection's message and the result code.
    func error(_ status: Int32) -> InboxError {
        let message = String(cString: sqlite3_errmsg(handle))
        switch status & 0xFF {
        case SQLITE_NOTADB: return .notADatabase(path: path)
        case SQLITE_CORRUPT: return .damaged(path: path, reason: message)
        case SQLITE_BUSY, SQLITE_LOCKED: return .busy(path: path)
        case SQLITE_CANTOPEN, SQLITE_READONLY, SQLITE_PERM, SQLITE_IOERR:
            return .cannotOpen(path: path, reason: message)
        default: return .sqlite(message)
        }
    }
}

/// A prepared statement, finalized when released.
final class Statement {
    private let handle: OpaquePointer
    private let database: Database

    fileprivate init(_ handle: OpaquePointer, database: Database) {
        self.handle = handle
        self.database = database
    }

    deinit { sqlite3_finalize(handle) }

    /// SQLite copies bound text and blobs (SQLITE_TRANSIENT), so Swift buffers may go away.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    func bind(_ values: [SQLValue]) throws(InboxError) {
        for (i, value) in values.enumerated() {
            let index = Int32(i + 1)
            let status: Int32
            switch value {
            case .integer(let n): status = sqlite3_bind_int64(handle, index, n)
            case .text(let s):
                // With its length, not up to a NUL: text from outside may hold one.
                status = s.utf8CString.withUnsafeBufferPointer {
                    sqlite3_bind_text(handle, index, $0.baseAddress, Int32($0.count - 1), Self.transient)
                }
            case .blob(let b):
                status = b.withUnsafeBytes {
                    sqlite3_bind_blob(handle, index, $0.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32($0.count), Self.transient)
                }
            case .null: status = sqlite3_bind_null(handle, index)
            }
            guard status == SQLITE_OK else { throw database.error(status) }
        }
    }

    /// Advances to the next row (sqlite3_step): true for a row, false when done.
    func step() throws(InboxError) -> Bool {
        let status = sqlite3_step(handle)
        switch status {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw database.error(status)
        }
    }

    /// Clears bindings and rewinds, to run again with new values.
    func reset(_ values: [SQLValue]) throws(InboxError) {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        try bind(values)
    }

    /// The current row's columns, copied out of SQLite's buffers.
    func columns() -> [SQLValue] {
        (0..<sqlite3_column_count(handle)).map { i in
            switch sqlite3_column_type(handle, i) {
            case SQLITE_INTEGER: return .integer(sqlite3_column_int64(handle, i))
            case SQLITE_NULL: return .null
            case SQLITE_BLOB:
                let count = Int(sqlite3_column_bytes(handle, i))
                guard count > 0, let p = sqlite3_column_blob(handle, i) else { return .blob([]) }
                return .blob(Array(UnsafeRawBufferPointer(start: p, count: count)))
            default:
                guard let p = sqlite3_column_text(handle, i) else { return .null }
                let count = Int(sqlite3_column_bytes(handle, i))
                return .text(String(decoding: UnsafeBufferPointer(start: p, count: count), as: UTF8.self))
            }
        }
    }
}
