import Foundation

/// The local store of received messages and scans, in one SQLite file.
///
/// Writes take an immediate transaction and readers never block writers (WAL), so several
/// `qrseal` processes may share one inbox; a busy inbox is waited for up to 10 s.
public final class Inbox {
    let db: Database
    public let path: String

    /// Opens the inbox at `path`, creating it (mode 0600) when no file is there and
    /// bringing an older one up to date. A file that is not an inbox is never changed.
    public convenience init(path: String) throws(InboxError) {
        try self.init(path: path, schemaVersion: InboxSchema.currentVersion)
    }

    /// Opens at a given schema version: tests use it to make an older inbox.
    init(path: String, schemaVersion: Int) throws(InboxError) {
        self.path = path
        var info = stat()
        if RawBytes.withCString(path, { stat($0, &info) }) != 0 {
            guard errno == ENOENT else { throw .cannotOpen(path: path, reason: Self.errnoText()) }
            try Self.create(path, schemaVersion: schemaVersion)
        } else if (info.st_mode & S_IFMT) != S_IFREG {
            throw .cannotOpen(path: path, reason: "not a regular file")
        }
        db = try Database(path: path)
        db.setBusyTimeout(10_000)
        try db.addFoldedContains()
        try checkAndMigrate(to: schemaVersion)
    }

    /// Makes a complete inbox (schema, WAL mode, mode 0600) under a temporary name and links
    /// it into place, so that no process ever opens a half-made one. When another process
    /// links its inbox first, theirs is used.
    private static func create(_ path: String, schemaVersion: Int) throws(InboxError) {
        var template = RawBytes.bytes(path + ".new-XXXXXX").map { CChar(bitPattern: $0) } + [0]
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw .cannotOpen(path: path, reason: errnoText()) }
        close(fd)
        let temp = RawBytes.string(template.dropLast().map { UInt8(bitPattern: $0) })
        defer { _ = RawBytes.withCString(temp) { unlink($0) } }
        do {
            let fresh = try Database(path: temp)
            try fresh.execute("PRAGMA journal_mode = WAL")
            try fresh.transaction { () throws(InboxError) in try migrate(fresh, from: 0, to: schemaVersion) }
        }
        guard RawBytes.withCString(temp, { from in RawBytes.withCString(path) { link(from, $0) } }) == 0
                || errno == EEXIST else {
            throw .cannotOpen(path: path, reason: errnoText())
        }
    }

    /// Runs the migration steps `from ..< to` and records the version; inside a transaction.
    private static func migrate(_ db: Database, from: Int, to target: Int) throws(InboxError) {
        for step in InboxSchema.migrations[from..<target] { try db.execute(step) }
        try db.execute("PRAGMA application_id = \(InboxSchema.applicationID)")
        try db.execute("PRAGMA user_version = \(target)")
    }

    private static func errnoText() -> String { String(cString: strerror(errno)).lowercased() }

    /// Refuses foreign, damaged and newer files before anything is written, then migrates.
    private func checkAndMigrate(to target: Int) throws(InboxError) {
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
        try db.execute("PRAGMA journal_mode = WAL")
        guard version < target else { return }
        try db.transaction { () throws(InboxError) in
            // Re-read under the write lock: another process may have migrated meanwhile.
            let now = Int(try db.integer("PRAGMA user_version"))
            guard now < target else { return }
            try Self.migrate(db, from: now, to: target)
        }
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
    private func write<T>(_ body: () throws(InboxError) -> T) throws(InboxError) -> T {
        try checkBeforeWriting()
        return try db.transaction(body)
    }

    // MARK: Adding

    /// Stores `items` in one transaction, skipping repeats as `policy` says; returns the
    /// stored items with their ids (skipped ones are left out).
    @discardableResult
    public func add(_ items: [InboxItem], dedupe policy: DedupePolicy) throws(InboxError) -> [InboxItem] {
        try write { () throws(InboxError) -> [InboxItem] in
            var stored: [InboxItem] = []
            for item in items where try !isRepeat(item, policy) {
                stored.append(try insert(item))
            }
            return stored
        }
    }

    private func isRepeat(_ item: InboxItem, _ policy: DedupePolicy) throws(InboxError) -> Bool {
        switch policy {
        case .never:
            return false
        case .always:
            return try db.integer("SELECT count(*) FROM items WHERE digest = ? AND symbology = ? AND bytes = ?",
                                  [.blob(Self.digest(item)), .text(item.symbology), .blob(item.bytes)]) > 0
        case .consecutive:
            // The source's last visit is every item stored from it at its latest time: one
            // image may hold several codes, and each counts as seen.
            return try db.integer("""
                SELECT count(*) FROM items WHERE source = ?1 AND digest = ?2
                AND received_at = (SELECT max(received_at) FROM items WHERE source = ?1)
                """, [.text(item.source), .blob(Self.digest(item))]) > 0
        }
    }

    private func insert(_ item: InboxItem) throws(InboxError) -> InboxItem {
        let statement = try db.prepare("""
            INSERT INTO items (received_at, source_kind, source, symbology, bytes, text, kind, corners, label, pinned, digest)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, InboxRow.values(item) + [.blob(Self.digest(item))])
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
        var sql = "SELECT \(InboxRow.columns) FROM items \(whereClause) ORDER BY received_at DESC, id DESC"
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
        guard let row = try db.rows("SELECT \(InboxRow.columns) FROM items WHERE id = ?", [.integer(id)]).first else {
            throw .noSuchItem(id)
        }
        return InboxRow.item(row)
    }

    /// Every item, oldest first, handed to `body` one at a time (for export).
    public func forEach(_ query: InboxQuery = InboxQuery(), _ body: (InboxItem) throws -> Void) throws {
        let (whereClause, values) = InboxRow.filter(query)
        let statement = try db.prepare("SELECT \(InboxRow.columns) FROM items \(whereClause) ORDER BY received_at, id", values)
        while try statement.step() { try body(InboxRow.item(statement.columns())) }
    }

    // MARK: Changing

    /// Removes the items with these ids; throws without removing any when one is missing.
    public func remove(_ ids: [Int64]) throws(InboxError) {
        try write { () throws(InboxError) in
            for id in ids {
                try db.prepare("DELETE FROM items WHERE id = ?", [.integer(id)]).run()
                if db.changes == 0 { throw .noSuchItem(id) }
            }
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

    // MARK: Importing

    /// Stores every item `next` yields in one transaction: all of them, or — when `next`
    /// throws — none. Items already in the inbox (same time, source and content) are skipped.
    /// Returns how many were stored.
    @discardableResult
    public func importItems(_ next: () throws(InboxError) -> InboxItem?) throws(InboxError) -> Int {
        try write { () throws(InboxError) -> Int in
            var stored = 0
            while let item = try next() {
                let exists = try db.integer(
                    "SELECT count(*) FROM items WHERE digest = ? AND received_at = ? AND source = ?",
                    [.blob(Self.digest(item)), .integer(item.receivedAt), .text(item.source)])
                if exists == 0 {
                    _ = try insert(item)
                    stored += 1
                }
            }
            return stored
        }
    }
}

extension Statement {
    /// Steps a statement that returns no rows.
    func run() throws(InboxError) { _ = try step() }
}
