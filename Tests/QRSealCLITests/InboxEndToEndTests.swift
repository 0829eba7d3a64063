import Foundation
import Testing
import TestSupport

/// The inbox as a user meets it, through the real binary: scan a folder of mixed codes, find
/// them again, open the sealed one with the keyring, and move everything to another inbox.
@Suite("inbox end to end")
struct InboxEndToEndTests {
    let dir = try! TempDir()

    /// A home of its own: the default inbox and keyring live in `data`.
    var env: [String: String] {
        Tools.environment(["XDG_DATA_HOME": dir.path("data"), "XDG_CONFIG_HOME": dir.path("config")])
    }

    @discardableResult
    func qrsealTool(_ arguments: [String], input: Data? = nil) throws -> ToolResult {
        try Tools.run(Tools.qrseal, arguments, input: input, environment: env, currentDirectory: dir.url.path)
    }

    func lines(_ text: String) -> [String] { text.split(separator: "\n").map(String.init) }

    func mode(_ path: String) throws -> Int? {
        try FileManager.default.attributesOfItem(atPath: dir.path(path))[.posixPermissions] as? Int
    }

    /// JSON lines with the `id` field left out: ids are the inbox's, not the items'.
    func withoutIDs(_ export: String) -> [String] {
        lines(export).map { $0.replacing(/^\{"id":[0-9]+,/, with: "{") }
    }

    /// CSV records (CRLF-terminated; line breaks inside cells are bare LF here) without the id cell.
    func csvWithoutIDs(_ export: String) -> [String] {
        export.components(separatedBy: "\r\n").filter { !$0.isEmpty }.dropFirst().map { record in
            String(record.drop { $0 != "," })
        }
    }

    /// 200 bytes that are not text, the same on every run.
    static let binaryPayload: [UInt8] = {
        var state: UInt32 = 0x2545_F491
        return (0..<200).map { i in
            state ^= state << 13; state ^= state >> 17; state ^= state << 5
            return i == 0 ? 0xFF : (i == 1 ? 0x00 : UInt8(truncatingIfNeeded: state))
        }
    }()

    @Test("a folder of mixed codes: scan, list, search, open with the keyring, export and import elsewhere")
    func session() throws {
        try FileManager.default.createDirectory(atPath: dir.path("codes"), withIntermediateDirectories: true)
        #expect(try qrsealTool(["encode", "-o", "codes/menu.png", "https://example.org/menu"]).status == 0)
        #expect(try qrsealTool(["encode", "-o", "codes/wifi.png", #"WIFI:S:CafeNet;T:WPA;P:pa\;ss;;"#]).status == 0)
        #expect(try qrsealTool(["keygen", "-o", "friend.key"]).status == 0)
        #expect(try qrsealTool(["encode", "--key-file", "friend.key", "-o", "codes/note.png", "meet at dawn"]).status == 0)
        try dir.write("codes/tin.pgm", try #require(Barcodes.ean13PGM("4006381333931")))

        let images = try FileManager.default.contentsOfDirectory(atPath: dir.path("codes")).sorted().map { "codes/" + $0 }
        let scan = try qrsealTool(["scan"] + images)
        #expect(scan.status == 0, "\(scan.stderr)")
        #expect(lines(scan.stdoutText) == [
            "codes/menu.png: QR-Code: https://example.org/menu",
            "codes/note.png: QR-Code [sealed]: <not opened: 43 bytes, for a key file>",
            "codes/tin.pgm: EAN-13: 4006381333931",
            #"codes/wifi.png: QR-Code: WIFI:S:CafeNet;T:WPA;P:pa\;ss;;"#,
        ])

        let list = try qrsealTool(["inbox", "list"])
        #expect(list.status == 0)
        let rows = lines(list.stdoutText)
        #expect(rows.count == 5)
        for (kind, content) in [("url", "https://example.org/menu"), ("wifi", "CafeNet"),
                                ("sealed", "sealed message, 43 bytes"), ("product", "4006381333931")] {
            #expect(rows.contains { $0.contains(" \(kind) ") && $0.contains(content) }, "\(kind) in \(rows)")
        }
        let found = lines(try qrsealTool(["inbox", "list", "--search", "cafenet"]).stdoutText)
        #expect(found.count == 2 && found[1].contains(" wifi ") && found[1].contains("wifi.png"))

        // The sealed note: locked without a key, opened once the key is in the keyring.
        let sealed = try qrsealTool(["inbox", "list", "--json", "--kind", "sealed"])
        let object = try JSONSerialization.jsonObject(with: sealed.stdout) as? [String: Any]
        let id = String(try #require(object?["id"] as? Int))
        #expect(try qrsealTool(["inbox", "open", id]).status == 3)
        #expect(try qrsealTool(["keys", "add", "friend.key"]).status == 0)
        let opened = try qrsealTool(["inbox", "open", id])
        #expect(opened.status == 0, "\(opened.stderr)")
        #expect(opened.stdoutText == "meet at dawn")

        // Everything moves to a fresh inbox and comes back out the same.
        #expect(try qrsealTool(["inbox", "export", "-o", "all.jsonl"]).status == 0)
        let exported = try String(contentsOfFile: dir.path("all.jsonl"), encoding: .utf8)
        #expect(lines(exported).count == 5 && lines(exported).first == #"{"qrseal_inbox_export":2}"#)
        let imported = try qrsealTool(["inbox", "import", "all.jsonl", "--inbox", "fresh.sqlite"])
        #expect(imported.status == 0)
        #expect(imported.stderr == "qrseal: imported 4 items from all.jsonl\n")
        let again = try qrsealTool(["inbox", "export", "--inbox", "fresh.sqlite"])
        #expect(withoutIDs(again.stdoutText) == withoutIDs(exported))
        // Importing the same export twice adds nothing.
        let twice = try qrsealTool(["inbox", "import", "all.jsonl", "--inbox", "fresh.sqlite"])
        #expect(twice.stderr == "qrseal: imported 0 items from all.jsonl\n")

        // Private files: the inbox 0600 in folders it made 0700.
        #expect(try mode("data/qrseal/inbox.sqlite") == 0o600)
        #expect(try mode("data/qrseal") == 0o700)
        #expect(try mode("data") == 0o700)
        #expect(try mode("fresh.sqlite") == 0o600)
    }

    @Test("a new inbox in a new folder: the folders are made 0700 and the file 0600")
    func newFolder() throws {
        // Reading commands never create an inbox; a storing one does.
        #expect(try qrsealTool(["inbox", "count", "--inbox", "private/inboxes/mine.sqlite"]).status == 1)
        #expect(!FileManager.default.fileExists(atPath: dir.path("private")))
        try dir.write("empty.jsonl", Data())
        #expect(try qrsealTool(["inbox", "import", "empty.jsonl", "--inbox", "private/inboxes/mine.sqlite"]).status == 0)
        #expect(try mode("private") == 0o700)
        #expect(try mode("private/inboxes") == 0o700)
        #expect(try mode("private/inboxes/mine.sqlite") == 0o600)
    }

    @Test("CSV export and import keep binary payloads and text with commas, quotes and line breaks")
    func csvRoundTrip() throws {
        let text = "name,\"quoted\" value\nsecond line, with comma\n\"third\""
        try dir.write("note.txt", Data(text.utf8))
        try dir.write("random.bin", Data(Self.binaryPayload))
        #expect(try qrsealTool(["encode", "-i", "note.txt", "-o", "note.png"]).status == 0)
        #expect(try qrsealTool(["encode", "-i", "random.bin", "-o", "random.png"]).status == 0)
        #expect(try qrsealTool(["scan", "note.png", "random.png"]).status == 0)
        #expect(try qrsealTool(["inbox", "label", "1", "a, \"label\""]).status == 0)

        #expect(try qrsealTool(["inbox", "export", "--format", "csv", "-o", "all.csv"]).status == 0)
        let exported = try String(contentsOfFile: dir.path("all.csv"), encoding: .utf8)
        #expect(exported.hasPrefix("id,received_at,source_kind,source,symbology,kind,text,bytes_base64,corners,label,pinned,"
                                   + "waiting,sequence_index,sequence_count,sequence_parity,file_name\r\n"))
        let imported = try qrsealTool(["inbox", "import", "all.csv", "--inbox", "fresh.sqlite"])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stderr == "qrseal: imported 2 items from all.csv\n")
        let again = try qrsealTool(["inbox", "export", "--format", "csv", "--inbox", "fresh.sqlite"])
        #expect(csvWithoutIDs(again.stdoutText) == csvWithoutIDs(exported))
        #expect(csvWithoutIDs(exported).count == 2)

        // What came through is exactly what was scanned.
        let items = lines(try qrsealTool(["inbox", "export", "--inbox", "fresh.sqlite"]).stdoutText)
            .compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        let binary = items.first { $0["kind"] as? String == "binary" }
        let payload = (binary?["bytes_base64"] as? String).flatMap { Data(base64Encoded: $0) }
        #expect(payload.map([UInt8].init) == Self.binaryPayload)
        #expect(binary?["text"] == nil)
        let note = items.first { $0["kind"] as? String == "text" }
        #expect(note?["text"] as? String == text)
        #expect(note?["label"] as? String == "a, \"label\"")
    }

    @Test("text with Windows line breaks (CRLF) survives export and import")
    func crlfRoundTrip() throws {
        let text = "first line\r\nsecond, line\r\nend"
        try dir.write("crlf.txt", Data(text.utf8))
        #expect(try qrsealTool(["encode", "-i", "crlf.txt", "-o", "crlf.png"]).status == 0)
        #expect(try qrsealTool(["scan", "crlf.png"]).status == 0)
        func reimported(_ format: String) throws -> String? {
            let file = "all." + format, inbox = format + ".sqlite"
            #expect(try qrsealTool(["inbox", "export", "--format", format, "-o", file]).status == 0)
            #expect(try qrsealTool(["inbox", "import", file, "--inbox", inbox]).status == 0)
            // The version line, then the item.
            let out = lines(try qrsealTool(["inbox", "export", "--inbox", inbox]).stdoutText)
            return out.last.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }?["text"] as? String
        }
        #expect(try reimported("json") == text)
        let viaCSV = try reimported("csv")
        #expect(viaCSV == text)
    }
}
