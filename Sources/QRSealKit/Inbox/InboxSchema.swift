/// The inbox's tables and the steps that bring an older inbox up to date.
///
/// `PRAGMA user_version` records how many steps have run; `PRAGMA application_id` marks
/// the file as a qrseal inbox, so another program's database is never changed.
enum InboxSchema {
    /// "QRSI" as a big-endian integer.
    static let applicationID: Int64 = 0x5152_5349

    /// Each step, in order; an inbox at version n has run the first n.
    static let migrations: [String] = [
        // 1: items, with indexes for listing by time, by kind, by source and by content. Ids are
        // never reused (AUTOINCREMENT), so an id a script holds never names another item.
        """
        CREATE TABLE items (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            received_at INTEGER NOT NULL,
            source_kind TEXT NOT NULL,
            source TEXT NOT NULL,
            symbology TEXT NOT NULL,
            bytes BLOB NOT NULL,
            text TEXT,
            kind TEXT NOT NULL,
            corners TEXT,
            label TEXT,
            pinned INTEGER NOT NULL DEFAULT 0,
            digest BLOB NOT NULL
        );
        CREATE INDEX items_by_time ON items(received_at, id);
        CREATE INDEX items_by_kind ON items(kind, received_at);
        CREATE INDEX items_by_source ON items(source, received_at);
        CREATE INDEX items_by_digest ON items(digest);
        """,
        // 2: substring search over text and labels (FTS5 trigram index, kept by triggers).
        // Sealed messages are not indexed: their text is ciphertext digits.
        """
        CREATE VIRTUAL TABLE items_search USING fts5(text, label, content='', tokenize='trigram');
        INSERT INTO items_search(rowid, text, label)
            SELECT id, CASE WHEN kind = 'sealed' THEN NULL ELSE text END, label FROM items;
        CREATE TRIGGER items_search_insert AFTER INSERT ON items BEGIN
            INSERT INTO items_search(rowid, text, label)
            VALUES (new.id, CASE WHEN new.kind = 'sealed' THEN NULL ELSE new.text END, new.label);
        END;
        CREATE TRIGGER items_search_delete AFTER DELETE ON items BEGIN
            INSERT INTO items_search(items_search, rowid, text, label)
            VALUES ('delete', old.id, CASE WHEN old.kind = 'sealed' THEN NULL ELSE old.text END, old.label);
        END;
        CREATE TRIGGER items_search_update AFTER UPDATE OF text, label, kind ON items BEGIN
            INSERT INTO items_search(items_search, rowid, text, label)
            VALUES ('delete', old.id, CASE WHEN old.kind = 'sealed' THEN NULL ELSE old.text END, old.label);
            INSERT INTO items_search(rowid, text, label)
            VALUES (new.id, CASE WHEN new.kind = 'sealed' THEN NULL ELSE new.text END, new.label);
        END;
        """,
        // 3: repeats found by one index lookup, for scans and for imports whose payloads repeat.
        """
        CREATE INDEX items_by_content ON items(digest, received_at, source);
        DROP INDEX items_by_digest;
        """,
        // 4: messages larger than one symbol. Each message seen in parts has a row until it
        // is rebuilt; its parts wait in waiting_parts, and go once the message is an item
        // (item_id), so that later copies of its parts are known for what they are. One row
        // per id, part counts and length: parts that disagree on these are kept apart.
        """
        CREATE TABLE part_messages (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            kind TEXT NOT NULL,
            message_id INTEGER NOT NULL,
            data_parts INTEGER NOT NULL,
            total_parts INTEGER NOT NULL,
            length INTEGER NOT NULL,
            symbology TEXT NOT NULL,
            source_kind TEXT NOT NULL,
            source TEXT NOT NULL,
            first_seen INTEGER NOT NULL,
            last_seen INTEGER NOT NULL,
            item_id INTEGER,
            UNIQUE (kind, message_id, data_parts, total_parts, length)
        );
        CREATE TABLE waiting_parts (
            message INTEGER NOT NULL,
            part_index INTEGER NOT NULL,
            chunk BLOB NOT NULL,
            received_at INTEGER NOT NULL,
            PRIMARY KEY (message, part_index)
        ) WITHOUT ROWID;
        """,
        // 5: every distinct piece received for an index waits, not only the first: a forged or
        // misread part that passes the keyless part check must not shut out the sender's own
        // (docs/FORMAT.md, section 8.5). Ids keep the order pieces came in, for dropping the oldest.
        """
        CREATE TABLE waiting_pieces (
            id INTEGER PRIMARY KEY,
            message INTEGER NOT NULL,
            part_index INTEGER NOT NULL,
            chunk BLOB NOT NULL,
            received_at INTEGER NOT NULL
        );
        INSERT INTO waiting_pieces (message, part_index, chunk, received_at)
            SELECT message, part_index, chunk, received_at FROM waiting_parts ORDER BY received_at;
        DROP TABLE waiting_parts;
        ALTER TABLE waiting_pieces RENAME TO waiting_parts;
        CREATE INDEX waiting_parts_by_message ON waiting_parts(message, part_index);
        """,
        // 6: an unsealed file rebuilt from parts keeps its name in a column of its own, so that
        // `inbox open` can write it out; before, the name was only in the label ("file NAME"),
        // which the user may change.
        """
        ALTER TABLE items ADD COLUMN file_name TEXT;
        UPDATE items SET file_name = substr(label, 6)
            WHERE label LIKE 'file _%' AND text IS NULL AND kind != 'sealed'
            AND id IN (SELECT item_id FROM part_messages WHERE kind = 'parts' AND item_id IS NOT NULL);
        """,
    ]

    static var currentVersion: Int { migrations.count }
}
