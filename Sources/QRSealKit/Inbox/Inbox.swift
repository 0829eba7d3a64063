import FoundationEssentials
import Glibc

/// The local store of received messages and scans, in one SQLite file.
///
/// Writes take an immediate transaction and readers never block writers (WAL), so several
/// `qrseal` processes may share one inbox; a busy inbox is waited for up to 10 s.
public final class Inbox {
    let db: Database
    public let path: String
    /// The columns an item is selected with (`InboxRow`), as this inbox's schema has them.
    private(set) var columns = InboxRow.columns
    /// How many messages and parts may wait, and for how long (`WaitingLimits`).
    public var waitingLimits = WaitingLimits()

    /// What a command does with the inbox.
    public enum Access: Sendable {
        /// Creates the inbox when there is none and brings an older one up to date.
        case readWrite
        /// Reads only: never creates, changes or upgrades anything, and works on a file or
        /// folder this user may not write.
        case readOnly
    }

    /// Opens the inbox at `path`. With `.readWrite` it is created (mode 0600) when no file is
    /// there and an older one is brought up to date. A file that is not an inbox, an empty
    /// one included, is never changed.
    public convenience init(path: String, access: Access = .readWrite) throws(InboxError) {
        try self.init(path: path, schemaVersion: InboxSchema.currentVersion, access: access)
    }

    /// Opens at a given schema version: tests use it to make an older inbox.
    init(path: String, schemaVersion: Int, access: Access = .readWrite) throws(InboxError) {
        self.path = path
        if access == .readWrite { InboxFiles.removeStale(beside: path) }
        var info = stat()
        if RawBytes.withCString(path, { stat($0, &info) }) != 0 {
            let failure = errno
            // A link that points nowhere: SQLite would follow it, and access(2) call it read-only.
            if failure == ENOENT, let target = SystemFiles.linkTarget(path) {
                throw .cannotOpen(path: path, reason: "a symbolic link to \(target), which does not exist")
            }
            guard failure == ENOENT, access == .readWrite else { throw .cannotOpen(path: path, reason: SystemFiles.reason(failure)) }
            try Self.create(path, schemaVersion: schemaVersion)
        } else if (info.st_mode & S_IFMT) != S_IFREG {
            throw .cannotOpen(path: path, reason: "not a regular file")
        } else if info.st_size == 0 {
            // SQLite would take an empty file for an empty database and keep its mode.
            throw .emptyFile(path: path)
        }
        do {
            db = try Self.connect(path, access: access)
            db.setBusyTimeout(10_000)
            try db.addFoldedContains()
            try Self.check(db, path, migratingTo: access == .readWrite ? schemaVersion : nil)
            if Int(try db.integer("PRAGMA user_version")) < 6 { columns = InboxRow.columnsBefore6 }
        } catch {
            throw Self.explained(error, path, writing: access == .readWrite)
        }
    }

    /// An inbox in memory only, gone when it is released: nothing of what it keeps reaches a
    /// disk (`scan --no-store` keeps there the parts that wait for the rest of their message).
    public static func inMemory() throws(InboxError) -> Inbox { try Inbox(memory: ()) }

    private init(memory: Void) throws(InboxError) {
        path = ":memory:"
        let db = try Database(path: path)
        try db.addFoldedContains()
        try db.transaction { () throws(InboxError) in try Self.migrate(db, from: 0, to: InboxSchema.currentVersion) }
        self.db = db
    }

    /// A connection for `access`. SQLite opens a file this user may not write read-only
    /// without a word, and makes its `-wal` and `-shm` files with the file's mode, which
    /// would then stop its owner's writes: a writer is refused at once, and a reader reads
    /// such a file as immutable, making nothing, when no write-ahead log says that a writer
    /// is at work. So is an inbox in a read-only folder, where no `-shm` file can be made.
    /// A reader of a file it could write opens it as a writer does, so that SQLite tidies
    /// its files away on closing, but with `query_only` set: it changes nothing.
    private static func connect(_ path: String, access: Access) throws(InboxError) -> Database {
        let writable = InboxFiles.isWritable(path)
        if access == .readWrite {
            guard writable else { throw .cannotWrite(path: path, reason: InboxFiles.problem(path, writing: true) ?? SystemFiles.reason()) }
            return try Database(path: path)
        }
        if !writable && !InboxFiles.hasLog(path) { return try Database(path: path, mode: .immutable) }
        let db = try Database(path: path, mode: writable ? .readWrite : .readOnly)
        do {
            try db.execute("PRAGMA query_only = 1")
            _ = try db.integer("PRAGMA user_version")
            return db
        } catch {
            guard case .cannotOpen = error, !InboxFiles.hasLog(path) else { throw error }
            return try Database(path: path, mode: .immutable)
        }
    }

    /// Makes a complete inbox (schema, WAL mode, mode 0600) under a temporary name and links
    /// it into place, so that no process ever opens a half-made one. When another process
    /// links its inbox first, theirs is used. A temporary file left by a killed process is
    /// removed by the next one (`InboxFiles.removeStale`).
    private static func create(_ path: String, schemaVersion: Int) throws(InboxError) {
        let (fd, temp): (Int32, String)
        do { (fd, temp) = try SystemFiles.makeTemporary(InboxFiles.temporaryPrefix(path) + "XXXXXX") } catch {
            throw .cannotOpen(path: path, reason: error.description)
        }
        close(fd)
        defer {
            for companion in ["", "-wal", "-shm", "-journal"] { SystemFiles.remove(temp + companion) }
        }
        do {
            let fresh = try Database(path: temp)
            try fresh.execute("PRAGMA journal_mode = WAL")
            try fresh.transaction { () throws(InboxError) in try migrate(fresh, from: 0, to: schemaVersion) }
        }
        guard SystemFiles.link(temp, to: path) || errno == EEXIST else {
            throw .cannotOpen(path: path, reason: SystemFiles.reason())
        }
    }

    /// Runs the migration steps `from ..< to` and records the version; inside a transaction.
    private static func migrate(_ db: Database, from: Int, to target: Int) throws(InboxError) {
        for step in InboxSchema.migrations[from..<target] { try db.execute(step) }
        try db.execute("PRAGMA application_id = \(InboxSchema.applicationID)")
        try db.execute("PRAGMA user_version = \(target)")
    }

    /// Refuses foreign, damaged and newer files before anything is written, then migrates
    /// to `target` (nil: reads only, nothing is changed).
    private static func check(_ db: Database, _ path: String, migratingTo target: Int?) throws(InboxError) {
        // The first read of the header: a non-database fails here, before any write. One
        // read transaction, so that another process's migration is seen whole or not at all.
        try db.execute("BEGIN")
        let application: Int64, version: Int, tables: Int64
        do {
            application = try db.integer("PRAGMA application_id")
            version = Int(try db.integer("PRAGMA user_version"))
            tables = try db.integer("SELECT count(*) FROM sqlite_master")
            try db.execute("COMMIT")
        } catch {
            try? db.execute("ROLLBACK")
            throw error
        }
        if application != InboxSchema.applicationID && (tables > 0 || version > 0) {
            throw .notAnInbox(path: path)
        }
        if version > InboxSchema.currentVersion {
            throw .newerSchema(path: path, found: version, supported: InboxSchema.currentVersion)
        }
        guard let target else { return }
        // Inboxes are made in WAL mode; an older one may not be. Asking to change it
        // writes, so only ask when it must change.
        if try db.rows("PRAGMA journal_mode").first?.first != .text("wal") {
            try db.execute("PRAGMA journal_mode = WAL")
        }
        guard version < target else { return }
        try db.transaction { () throws(InboxError) in
            // Re-read under the write lock: another process may have migrated meanwhile.
            let now = Int(try db.integer("PRAGMA user_version"))
            guard now < target else { return }
            try Self.migrate(db, from: now, to: target)
        }
    }

    /// A failure to open or write, with what is wrong with the files when that can be seen.
    static func explained(_ error: InboxError, _ path: String, writing: Bool = true) -> InboxError {
        guard case .cannotOpen = error, let problem = InboxFiles.problem(path, writing: writing) else { return error }
        return writing ? .cannotWrite(path: path, reason: problem) : .cannotOpen(path: path, reason: problem)
    }

    /// The schema version of this inbox.
    public var schemaVersion: Int {
        get throws(InboxError) { Int(try db.integer("PRAGMA user_version")) }
    }

    /// Whether this connection has checked the file before writing to it.
    private var checkedForWriting = false

    /// Before the first write, a full check (PRAGMA quick_check), so that a damaged inbox
    /// is refused rather than written to. Reads skip it: a damaged page they touch fails anyway.
    private func checkBeforeWriting() throws(InboxError) {
        guard !checkedForWriting else { return }
        let result = try db.rows("PRAGMA quick_check")
        guard result.count == 1, result.first?.first == .text("ok") else {
            throw .damaged(path: path, reason: "integrity check failed")
        }
        checkedForWriting = true
    }

    /// A write transaction on a checked file.
    func write<T>(_ body: () throws(InboxError) -> T) throws(InboxError) -> T {
        do {
            try checkBeforeWriting()
            return try db.transaction(body)
        } catch {
            throw Self.explained(error, path)
        }
    }

    // MARK: Adding

    /// What became of one item given to `keep`.
    public struct Kept: Equatable, Sendable {
        /// The item's id: its new one, or for a repeat, the id of the item it repeats.
        public let id: Int64
        /// True when the duplicate policy skipped it as a repeat.
        public let isRepeat: Bool
    }

    /// Stores `items` in one transaction, skipping repeats as `policy` says; returns, for
    /// each item in order, its id (a repeat gives the id of the item it matched).
    @discardableResult
    public func keep(_ items: [InboxItem], dedupe policy: DedupePolicy) throws(InboxError) -> [Kept] {
        try write { () throws(InboxError) -> [Kept] in
            var kept: [Kept] = []
            for item in items {
                if let id = try repeated(item, policy) {
                    kept.append(Kept(id: id, isRepeat: true))
                } else {
                    kept.append(Kept(id: try insert(item).id!, isRepeat: false))
                }
            }
            return kept
        }
    }

    /// Stores `items` as `keep` does; returns the stored items with their ids (repeats are
    /// left out).
    @discardableResult
    public func add(_ items: [InboxItem], dedupe policy: DedupePolicy) throws(InboxError) -> [InboxItem] {
        let kept = try keep(items, dedupe: policy)
        return zip(items, kept).compactMap { item, kept in
            guard !kept.isRepeat else { return nil }
            var stored = item
            stored.id = kept.id
            return stored
        }
    }

    /// The id of the item that `item` repeats under `policy`, nil when it is new.
    private func repeated(_ item: InboxItem, _ policy: DedupePolicy) throws(InboxError) -> Int64? {
        let rows: [[SQLValue]]
        switch policy {
        case .never:
            return nil
        case .always:
            rows = try db.rows("SELECT id FROM items WHERE digest = ? AND symbology = ? AND bytes = ? ORDER BY id DESC LIMIT 1",
                               [.blob(Self.digest(item)), .text(item.symbology), .blob(item.bytes)])
        case .consecutive:
            // The source's last visit is every item stored from it at its latest time: one
            // image may hold several codes, and each counts as seen.
            rows = try db.rows("""
                SELECT id FROM items WHERE source = ?1 AND digest = ?2
                AND received_at = (SELECT max(received_at) FROM items WHERE source = ?1)
                ORDER BY id DESC LIMIT 1
                """, [.text(item.source), .blob(Self.digest(item))])
        }
        guard case .integer(let id)? = rows.first?.first else { return nil }
        return id
    }

    func insert(_ item: InboxItem) throws(InboxError) -> InboxItem {
        // An inbox made at an older schema (tests make them) has no `file_name`.
        let hasFileName = columns == InboxRow.columns
        let statement = try db.prepare("""
            INSERT INTO items (received_at, source_kind, source, symbology, bytes, text, kind, corners, label, pinned,
                               \(hasFileName ? "file_name, " : "")digest)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?\(hasFileName ? ", ?" : ""))
            """, InboxRow.values(item, fileName: hasFileName) + [.blob(Self.digest(item))])
        _ = try statement.step()
        var stored = item
        stored.id = db.lastInsertID
        return stored
    }

    /// SHA-256 of the symbology, a zero byte and the payload: equal content, equal digest.
    static func digest(_ item: InboxItem) -> [UInt8] {
        Crypto.sha256(Array(item.symbology.utf8) + [0] + item.bytes)
    }

    // MARK: Reading

    /// Items matching `query`, newest first.
    public func list(_ query: InboxQuery) throws(InboxError) -> [InboxItem] {
        let (whereClause, values) = InboxRow.filter(query)
        var sql = "SELECT \(columns) FROM items \(whereClause) ORDER BY received_at DESC, id DESC"
        if let limit = query.limit { sql += " LIMIT \(max(0, limit))" }
        return try db.rows(sql, values).map(InboxRow.item)
    }

    /// How many items match `query` (its limit is ignored).
    public func count(_ query: InboxQuery) throws(InboxError) -> Int {
        let (whereClause, values) = InboxRow.filter(query)
        return Int(try db.integer("SELECT count(*) FROM items \(whereClause)", values))
    }

    /// How many items of each kind match `query`, most first (kinds with none left out).
    public func countByKind(_ query: InboxQuery = InboxQuery()) throws(InboxError) -> [(ContentKind, Int)] {
        let (whereClause, values) = InboxRow.filter(query)
        return try db.rows("SELECT kind, count(*) FROM items \(whereClause) GROUP BY kind ORDER BY count(*) DESC, kind",
                           values).compactMap { row in
            guard case .text(let k) = row[0], case .integer(let n) = row[1], let kind = ContentKind(rawValue: k) else { return nil }
            return (kind, Int(n))
        }
    }

    /// The item with `id`.
    public func item(_ id: Int64) throws(InboxError) -> InboxItem {
        guard let row = try db.rows("SELECT \(columns) FROM items WHERE id = ?", [.integer(id)]).first else {
            throw .noSuchItem(id)
        }
        return InboxRow.item(row)
    }

    /// Every item, oldest first, handed to `body` one at a time (for export).
    public func forEach(_ query: InboxQuery = InboxQuery(), _ body: (InboxItem) throws -> Void) throws {
        let (whereClause, values) = InboxRow.filter(query)
        let statement = try db.prepare("SELECT \(columns) FROM items \(whereClause) ORDER BY received_at, id", values)
        while try statement.step() { try body(InboxRow.item(statement.columns())) }
    }

    // MARK: Changing

    /// Removes the items with these ids (each once, however often it is given); throws
    /// without removing any when one is missing. Returns how many were removed.
    @discardableResult
    public func remove(_ ids: [Int64]) throws(InboxError) -> Int {
        var seen = Set<Int64>()
        let distinct = ids.filter { seen.insert($0).inserted }
        return try write { () throws(InboxError) -> Int in
            for id in distinct {
                try db.prepare("DELETE FROM items WHERE id = ?", [.integer(id)]).run()
                if db.changes == 0 { throw .noSuchItem(id) }
            }
            return distinct.count
        }
    }

    /// Removes unpinned items received before `cutoff` (ms since the epoch); returns how many.
    @discardableResult
    public func removeUnpinned(before cutoff: Int64) throws(InboxError) -> Int {
        try write { () throws(InboxError) -> Int in
            try db.prepare("DELETE FROM items WHERE received_at < ? AND pinned = 0", [.integer(cutoff)]).run()
            return db.changes
        }
    }

    /// Sets (or with nil, clears) an item's label.
    public func setLabel(_ label: String?, for id: Int64) throws(InboxError) {
        try update("UPDATE items SET label = ? WHERE id = ?", [label.map(SQLValue.text) ?? .null, .integer(id)], id)
    }

    public func setPinned(_ pinned: Bool, for id: Int64) throws(InboxError) {
        try update("UPDATE items SET pinned = ? WHERE id = ?", [.integer(pinned ? 1 : 0), .integer(id)], id)
    }

    private func update(_ sql: String, _ values: [SQLValue], _ id: Int64) throws(InboxError) {
        try write { () throws(InboxError) in
            try db.prepare(sql, values).run()
            if db.changes == 0 { throw .noSuchItem(id) }
        }
    }
}

extension Statement {
    /// Steps a statement that returns no rows.
    func run() throws(InboxError) { _ = try step() }
}
