import Foundation
import Testing
import TestSupport
@testable import QRSealKit

/// The inbox store with the real SQLite: what is kept, found, changed and refused.
@Suite("Inbox store")
struct InboxStoreTests {
    let dir = try! TempDir()

    func item(_ text: String, at time: Int64 = 1_000, source: String = "/a.png", kind: ContentKind = .text,
              symbology: String = "qr") -> InboxItem {
        InboxItem(receivedAt: time, sourceKind: .file, source: source, symbology: symbology,
                  bytes: Array(text.utf8), text: text, kind: kind)
    }

    func fresh(_ name: String = "inbox.sqlite") throws -> Inbox { try Inbox(path: dir.path(name)) }

    @Test("a new inbox is created with mode 0600 at the current schema version")
    func creation() throws {
        let inbox = try fresh()
        let attributes = try FileManager.default.attributesOfItem(atPath: inbox.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        #expect(try inbox.schemaVersion == InboxSchema.currentVersion)
    }

    @Test("items come back newest first, with every field, and filters select them")
    func listAndFilter() throws {
        let inbox = try fresh()
        var wifi = item("WIFI:S:x;;", at: 2_000, kind: .wifi)
        wifi.corners = [Point(x: 1, y: 2), Point(x: 3.5, y: 4), Point(x: 5, y: 6), Point(x: 7, y: 8)]
        wifi.label = "café"
        try inbox.add([item("first", at: 1_000), wifi, item("third", at: 3_000, kind: .url)], dedupe: .never)
        let all = try inbox.list(InboxQuery())
        #expect(all.map(\.text) == ["third", "WIFI:S:x;;", "first"])
        let stored = try inbox.item(all[1].id!)
        #expect(stored.corners == wifi.corners && stored.label == "café" && stored.kind == .wifi)
        #expect(try inbox.list(InboxQuery(kind: .url)).map(\.text) == ["third"])
        #expect(try inbox.list(InboxQuery(since: 2_000)).count == 2)
        #expect(try inbox.list(InboxQuery(until: 2_000)).map(\.text) == ["first"])
        #expect(try inbox.list(InboxQuery(limit: 1)).map(\.text) == ["third"])
        try inbox.setPinned(true, for: all[2].id!)
        #expect(try inbox.list(InboxQuery(pinnedOnly: true)).map(\.text) == ["first"])
        #expect(try inbox.count(InboxQuery()) == 3)
    }

    @Test("duplicate policies: consecutive, always, never")
    func dedupe() throws {
        let inbox = try fresh()
        try inbox.add([item("same", source: "/a.png")], dedupe: .consecutive)
        #expect(try inbox.add([item("same", source: "/a.png")], dedupe: .consecutive).isEmpty)
        #expect(try inbox.add([item("same", source: "/b.png")], dedupe: .consecutive).count == 1)
        try inbox.add([item("other", at: 2_000, source: "/a.png")], dedupe: .consecutive)
        // Not consecutive any more: the same content from /a.png is stored again.
        #expect(try inbox.add([item("same", at: 3_000, source: "/a.png")], dedupe: .consecutive).count == 1)
        #expect(try inbox.add([item("same", source: "/c.png")], dedupe: .always).isEmpty)
        #expect(try inbox.add([item("same", source: "/a.png")], dedupe: .never).count == 1)
        // The same bytes in another symbology are other content.
        #expect(try inbox.add([item("same", symbology: "code128")], dedupe: .always).count == 1)
    }

    @Test("a picture with several codes, scanned again, is a repeat under the consecutive policy")
    func consecutiveBatch() throws {
        let inbox = try fresh()
        let batch = [item("left", at: 1_000), item("right", at: 1_000)]
        #expect(try inbox.add(batch, dedupe: .consecutive).count == 2)
        let again = batch.map { var i = $0; i.receivedAt = 2_000; return i }
        #expect(try inbox.add(again, dedupe: .consecutive).isEmpty)
        #expect(try inbox.count(InboxQuery()) == 2)
    }

    @Test("ids are never reused, even after the newest item is removed")
    func idsNotReused() throws {
        let inbox = try fresh()
        let first = try inbox.add([item("a"), item("b", at: 2_000)], dedupe: .never)
        try inbox.remove([first[1].id!])
        let next = try inbox.add([item("c", at: 3_000)], dedupe: .never)
        #expect(next[0].id! > first[1].id!)
    }

    @Test("search is a case-insensitive substring match, literal for quotes, % and _",
          arguments: ["'; DROP TABLE items; --", "100%", "a_b", "\"quoted\"", "ü", "%", "_", "O'Brien", "NOTE"])
    func search(term: String) throws {
        let inbox = try fresh()
        let texts = ["x '; DROP TABLE items; -- y", "100% sure", "a_b c", "say \"quoted\" now", "über",
                     "O'Brien's note", "plain words", "a%b", "ab"]
        try inbox.add(texts.enumerated().map { item($1, at: Int64($0)) }, dedupe: .never)
        let found = try inbox.list(InboxQuery(search: term)).compactMap(\.text)
        let expected = texts.filter { $0.lowercased().contains(term.lowercased()) }
        #expect(Set(found) == Set(expected), "search \(term)")
        #expect(try inbox.count(InboxQuery()) == texts.count)
    }

    @Test("labels are searched; sealed messages are not searched by their digits")
    func searchScope() throws {
        let inbox = try fresh()
        let stored = try inbox.add([item("QRSEAL1:0123456789", kind: .sealed), item("plain")], dedupe: .never)
        try inbox.setLabel("from Anna", for: stored[1].id!)
        #expect(try inbox.list(InboxQuery(search: "anna")).compactMap(\.text) == ["plain"])
        #expect(try inbox.list(InboxQuery(search: "23456")).isEmpty)
        #expect(try inbox.list(InboxQuery(search: "12")).isEmpty)
    }

    @Test("remove by id is all or nothing; remove by age keeps pinned items")
    func removal() throws {
        let inbox = try fresh()
        let stored = try inbox.add([item("old", at: 1_000), item("pinned", at: 1_000), item("new", at: 9_000)],
                                   dedupe: .never)
        #expect(throws: InboxError.noSuchItem(999)) { try inbox.remove([stored[0].id!, 999]) }
        #expect(try inbox.count(InboxQuery()) == 3)
        try inbox.setPinned(true, for: stored[1].id!)
        #expect(try inbox.removeUnpinned(before: 5_000) == 1)
        #expect(try inbox.list(InboxQuery()).compactMap(\.text) == ["new", "pinned"])
        #expect(throws: InboxError.noSuchItem(12345)) { try inbox.setLabel("x", for: 12345) }
    }

    @Test("an inbox made by the first schema is migrated, and its items become searchable")
    func migration() throws {
        let path = dir.path("old.sqlite")
        do {
            let old = try Inbox(path: path, schemaVersion: 1)
            #expect(try old.schemaVersion == 1)
            try old.add([item("kept across versions")], dedupe: .never)
        }
        let inbox = try Inbox(path: path)
        #expect(try inbox.schemaVersion == InboxSchema.currentVersion)
        #expect(try inbox.list(InboxQuery(search: "across")).compactMap(\.text) == ["kept across versions"])
    }

    @Test("read-only access creates nothing and upgrades nothing; a later writer upgrades")
    func readOnlyAccess() throws {
        let missing = dir.path("missing.sqlite")
        #expect(throws: InboxError.self) { try Inbox(path: missing, access: .readOnly) }
        #expect(!FileManager.default.fileExists(atPath: missing))
        let path = dir.path("older.sqlite")
        do {
            let old = try Inbox(path: path, schemaVersion: 2)
            try old.add([item("from schema 2")], dedupe: .never)
        }
        let reader = try Inbox(path: path, access: .readOnly)
        #expect(try reader.schemaVersion == 2)
        #expect(try reader.list(InboxQuery(search: "schema")).compactMap(\.text) == ["from schema 2"])
        #expect(throws: InboxError.self) { try reader.add([item("no")], dedupe: .never) }
        #expect(try Inbox(path: path).schemaVersion == InboxSchema.currentVersion)
    }

    @Test("files that are not this tool's inbox are refused and left byte for byte as they were")
    func foreignFiles() throws {
        let text = try dir.write("notes.sqlite", Data("my shopping list\n".utf8))
        #expect(throws: InboxError.notADatabase(path: text)) { try Inbox(path: text) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: text)) == Data("my shopping list\n".utf8))

        let other = dir.path("other.db")
        #expect(try Tools.run("sqlite3", [other, "CREATE TABLE t(a); INSERT INTO t VALUES (1);"]).status == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: other))
        #expect(throws: InboxError.notAnInbox(path: other)) { try Inbox(path: other) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: other)) == before)

        let newer = dir.path("newer.sqlite")
        do { _ = try Inbox(path: newer) }
        #expect(try Tools.run("sqlite3", [newer, "PRAGMA user_version = 99"]).status == 0)
        let newerBytes = try Data(contentsOf: URL(fileURLWithPath: newer))
        #expect(throws: InboxError.newerSchema(path: newer, found: 99, supported: InboxSchema.currentVersion)) {
            try Inbox(path: newer)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: newer)) == newerBytes)

        #expect(throws: InboxError.self) { try Inbox(path: dir.url.path) }
    }

    @Test("export then import into an empty inbox gives the same items, binary and odd text included",
          arguments: InboxFormat.allCases)
    func roundTrip(format: InboxFormat) throws {
        let source = try fresh("source.sqlite")
        var binary = InboxItem(receivedAt: 5, sourceKind: .camera, source: "/dev/video0", symbology: "qr",
                               bytes: [0, 1, 2, 0xFF, 0x0A, 0x2C], text: nil, kind: .binary)
        binary.label = "with, \"quotes\"\nand a break"
        binary.pinned = true
        var odd = item("comma, \"quote\"\r\nnew line ☕", at: 7)
        odd.corners = [Point(x: 0.5, y: 1), Point(x: 2, y: 3), Point(x: 4, y: 5), Point(x: 6, y: 7)]
        try source.add([binary, odd, item("", at: 9, kind: .text)], dedupe: .never)
        let exported = try export(source, format)

        let target = try fresh("target.sqlite")
        var lines = exported.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)[...]
        var reader = InboxImportReader(nextLine: { lines.popFirst() })
        #expect(try target.importRecords { () throws(InboxError) -> InboxRecord? in try reader.next() }.items == 3)
        #expect(try export(target, format) == exported)

        // Importing the same export again adds nothing.
        var again = exported.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)[...]
        var reader2 = InboxImportReader(nextLine: { again.popFirst() })
        #expect(try target.importRecords { () throws(InboxError) -> InboxRecord? in try reader2.next() }.items == 0)
    }

    @Test("an import that fails on a line names it and stores nothing", arguments: [
        ("{not json", "malformed JSON"),
        (#"{"received_at":"2026-01-01T00:00:00Z","source_kind":"file","source":"a","symbology":"qr","kind":"spaceship","bytes_base64":"YQ=="}"#, "unknown kind 'spaceship'"),
        (#"{"received_at":"2026-01-01T00:00:00Z","source_kind":"file","source":"a","symbology":"qr","kind":"text","bytes_base64":"!!!"}"#, "bad base64"),
        (#"{"received_at":"yesterday","source_kind":"file","source":"a","symbology":"qr","kind":"text","bytes_base64":"YQ=="}"#, "received_at"),
    ])
    func badImport(line: String, reason: String) throws {
        let inbox = try fresh()
        let good = #"{"received_at":"2026-01-01T00:00:00Z","source_kind":"file","source":"a","symbology":"qr","kind":"text","text":"a","bytes_base64":"YQ=="}"#
        var lines = [good, good.replacingOccurrences(of: "00:00:00", with: "00:00:01"), line, good][...]
        var reader = InboxImportReader(nextLine: { lines.popFirst() })
        do {
            _ = try inbox.importRecords { () throws(InboxError) -> InboxRecord? in try reader.next() }
            Issue.record("the import should have failed")
        } catch {
            guard case .badImport(3, let message) = error else { Issue.record("\(error)"); return }
            #expect(message.contains(reason), "\(message)")
        }
        #expect(try inbox.count(InboxQuery()) == 0)
    }

    private func export(_ inbox: Inbox, _ format: InboxFormat) throws -> String {
        var lines = format == .csv ? [InboxFormat.csvHeader] : []
        try inbox.forEach { item in
            var copy = item
            copy.id = nil  // ids are the inbox's own
            lines.append(format.encode(copy))
        }
        return lines.joined(separator: "\n")
    }
}
