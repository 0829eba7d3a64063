import Foundation
import Testing
import TestSupport

/// The inbox and keyring commands, in-process, each test with its own inbox, keyring and config.
@Suite("inbox and keys commands")
struct InboxCommandTests {
    let box = InboxSandbox()

    @Test("scan keeps each symbol with its absolute file path and the kind of its content")
    func scanStoresKinds() throws {
        box.encode("url.png", "https://example.org/menu?day=1")
        box.encode("wifi.png", #"WIFI:S:CafeNet;T:WPA;P:pa\;ss;;"#)
        let key = box.keygen()
        box.encode("note.png", "meet at dawn", ["--key-file", key])
        try box.dir.write("ean.pgm", try #require(Barcodes.ean13PGM("400638133393")))
        // Relative names, from the real binary in the folder: the inbox keeps absolute paths.
        let names = ["url.png", "wifi.png", "note.png", "ean.pgm"]
        let scan = try Tools.run(Tools.qrseal, ["scan"] + names, environment: box.processEnv,
                                 currentDirectory: box.dir.url.path)
        #expect(scan.status == 0, "\(scan.stderr)")
        let items = box.items()
        #expect(items.count == 4)
        let folder = box.dir.url.resolvingSymlinksInPath().path
        func item(_ name: String) -> [String: Any]? {
            items.first { ($0["source"] as? String).map { URL(fileURLWithPath: $0).resolvingSymlinksInPath().path }
                == folder + "/" + name }
        }
        #expect(items.allSatisfy { ($0["source"] as? String)?.hasPrefix("/") == true })
        #expect(item("url.png")?["kind"] as? String == "url")
        #expect(item("wifi.png")?["kind"] as? String == "wifi")
        #expect(item("note.png")?["kind"] as? String == "sealed")
        #expect(item("ean.pgm")?["kind"] as? String == "product")
        #expect(item("ean.pgm")?["symbology"] as? String == "ean13")
        #expect(item("ean.pgm")?["text"] as? String == "4006381333931")
    }

    @Test("--no-store reads the code but keeps nothing")
    func noStore() {
        let png = box.encode("a.png", "not kept")
        #expect(box.run(["scan", "--no-store", png]).out == "\(png): QR-Code: not kept\n")
        let count = box.run(["inbox", "count"])
        #expect(count.status == 1)
        #expect(count.out.isEmpty)
        #expect(count.stderr.contains("no inbox yet"))
    }

    @Test("repeats: the same image twice is kept once; never keeps both; always skips content from another file")
    func dedupe() throws {
        let a = box.encode("a.png", "same content")
        #expect(box.run(["scan", a]).status == 0)
        #expect(box.run(["scan", a]).status == 0)
        #expect(box.count() == 1)
        #expect(box.run(["scan", "--dedupe", "never", a]).status == 0)
        #expect(box.count() == 2)
        let b = box.dir.path("b.png")
        try FileManager.default.copyItem(atPath: a, toPath: b)
        let always = box.run(["scan", "--dedupe", "always", b])
        #expect(always.out == "\(b): QR-Code: same content\n")  // still read and shown
        #expect(box.count() == 2)
        #expect(box.run(["scan", b]).status == 0)  // by default another file is another source
        #expect(box.count() == 3)
        let bad = box.run(["scan", "--dedupe", "sometimes", a])
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("--dedupe must be consecutive, always or never, not 'sometimes'"))
    }

    @Test("the config file's dedupe sets the default; a bad value is a clear error and nothing is kept")
    func dedupeConfig() throws {
        let a = box.encode("a.png", "configured")
        try box.writeConfig("# mine\ndedupe = never\n")
        #expect(box.run(["scan", a]).status == 0)
        #expect(box.run(["scan", a]).status == 0)
        #expect(box.count() == 2)
        try box.writeConfig("dedupe = sometimes\n")
        let bad = box.run(["scan", a])
        #expect(bad.status == 2)
        #expect(bad.stderr == "qrseal: error: \(box.dir.path("config"))/qrseal/config: dedupe must be consecutive, always or never, not 'sometimes'\n")
        #expect(box.count() == 2)
        // A mistyped key is named, not passed over with the setting left at its default.
        try box.writeConfig("# mine\ndedup = never\n")
        let slip = box.run(["scan", a])
        #expect(slip.status == 2)
        #expect(slip.stderr == "qrseal: error: \(box.dir.path("config"))/qrseal/config: line 2: unknown key 'dedup' (the keys are: dedupe)\n")
        #expect(box.count() == 2)
    }

    @Test("inbox list keeps its columns when a pinned item's id, with its mark, is wider than the others")
    func pinnedColumns() throws {
        try box.importLines((1...10).map { n in
            InboxSandbox.line("note \(n)", at: String(format: "2020-01-%02dT10:00:00Z", n), pinned: n == 10)
        })
        let rows = box.run(["inbox", "list"]).out.split(separator: "\n").map(String.init)
        #expect(rows.count == 11)
        // Every row's date starts where the header's WHEN does: "*10 2020-…" beside "  9 2020-…".
        let when = try #require(rows.first?.range(of: "WHEN")).lowerBound.utf16Offset(in: rows[0])
        for row in rows.dropFirst() {
            let date = try #require(row.range(of: "2020-"), "\(row)").lowerBound.utf16Offset(in: row)
            #expect(date == when, "\(rows)")
        }
        #expect(rows[1].hasPrefix("*10 "), "\(rows)")
    }

    @Test("inbox list: a table newest first, with --kind, --search, --pinned, --limit, --since and --until")
    func listFilters() throws {
        let coffee = "Old notes about Coffee", menu = "https://example.org/menu", wifi = "WIFI:S:Home;T:WPA;P:secret;;"
        let fresh = "fresh from the printer"
        try box.importLines([
            InboxSandbox.line(coffee, at: "2020-01-01T10:00:00Z"),
            InboxSandbox.line(menu, at: "2020-06-01T10:00:00Z", kind: "url", pinned: true),
            InboxSandbox.line(wifi, at: "2021-06-01T10:00:00Z", kind: "wifi", label: "Kitchen"),
        ])
        box.scan(box.encode("fresh.png", fresh))
        let table = box.run(["inbox", "list"])
        #expect(table.status == 0)
        #expect(table.out.hasPrefix("ID WHEN             KIND    FROM"))
        let rows = table.out.split(separator: "\n").dropFirst()
        let order = [fresh, "[Kitchen] " + wifi, menu, coffee]
        #expect(rows.count == 4)
        #expect(zip(rows, order).allSatisfy { $0.hasSuffix($1) }, "\(table.out)")
        #expect(rows.dropFirst().first?.contains(" wifi ") == true)
        #expect(box.texts(["--kind", "url"]) == [menu])
        #expect(box.texts(["--search", "COFFEE"]) == [coffee])
        #expect(box.texts(["--search", "kitch"]) == [wifi])  // the label
        #expect(box.texts(["--pinned"]) == [menu])
        #expect(box.texts(["--limit", "2"]) == [fresh, wifi])
        #expect(box.texts(["--since", "2020-03-01", "--until", "2021-01-01"]) == [menu])
        #expect(box.texts(["--since", "1h"]) == [fresh])
        #expect(box.texts(["--until", "2d"]) == [wifi, menu, coffee])
        #expect(box.texts(["--since", "2021-06-01T09:00Z", "--until", "2021-06-01T11:00Z"]) == [wifi])
        let none = box.run(["inbox", "list", "--search", "no such words"])
        #expect(none.status == 1)
        #expect(none.out.isEmpty)
        #expect(box.run(["inbox", "list", "--kind", "hologram"]).status == 64)
        let badDate = box.run(["inbox", "list", "--since", "yesterday"])
        #expect(badDate.status == 64)
        #expect(badDate.stderr.contains("not 'yesterday'"))
    }

    @Test("inbox list --json: one parseable object per item, newest first")
    func listJSON() throws {
        try box.importLines([InboxSandbox.line("first", at: "2021-01-01T00:00:00Z"),
                             InboxSandbox.line("second, \"quoted\"\nline", at: "2021-01-02T00:00:00Z", label: "x")])
        let r = box.run(["inbox", "list", "--json"])
        #expect(r.status == 0)
        let lines = r.out.split(separator: "\n")
        #expect(lines.count == 2)
        let objects = lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(objects.map { $0["text"] as? String } == ["second, \"quoted\"\nline", "first"])
        #expect(objects.first?["received_at"] as? String == "2021-01-02T00:00:00.000Z")
        #expect(objects.first?["label"] as? String == "x")
        #expect(objects.allSatisfy { $0["id"] is Int && $0["bytes_base64"] is String && $0["pinned"] is Bool })
    }

    @Test("inbox show gives a Wi-Fi code's network, security and unescaped password")
    func showWiFi() throws {
        box.scan(box.encode("wifi.png", #"WIFI:S:CafeNet;T:WPA;P:pa\;ss;;"#))
        let id = try #require(box.ids().first)
        let r = box.run(["inbox", "show", String(id)])
        #expect(r.status == 0)
        let fields = Dictionary(r.out.split(separator: "\n").compactMap { line -> (String, String)? in
            let parts = line.split(separator: " ", maxSplits: 1)
            return parts.count == 2 ? (String(parts[0]), parts[1].trimmingCharacters(in: .whitespaces)) : nil
        }, uniquingKeysWith: { a, _ in a })
        #expect(fields["kind"] == "wifi")
        #expect(fields["ssid"] == "CafeNet")
        #expect(fields["security"] == "WPA")
        #expect(fields["password"] == "pa;ss")
        #expect(fields["from"] == "file \(box.dir.path("wifi.png"))")
        let missing = box.run(["inbox", "show", "999"])
        #expect(missing.status == 2)
        #expect(missing.stderr == "qrseal: error: no item 999 in the inbox\n")
        #expect(box.run(["inbox", "show", "first"]).status == 64)
    }

    @Test("inbox open uses the keyring's keys; without a key it exits 3 with a hint; a plain item is refused")
    func openWithKeyring() throws {
        let key = box.keygen()
        box.scan(box.encode("note.png", "meet at dawn", ["--key-file", key]))
        box.scan(box.encode("url.png", "https://example.org"))
        let ids = box.ids()  // newest first: the URL, then the note
        let note = String(ids[1]), url = String(ids[0])
        let locked = box.run(["inbox", "open", note])
        #expect(locked.status == 3)
        #expect(locked.stderr.contains("sealed with a key file and none was given"))
        #expect(locked.stderr.contains("qrseal: hint: pass the key with --key-file FILE"))
        #expect(locked.out.isEmpty)
        #expect(box.run(["keys", "add", key]).status == 0)
        let opened = box.run(["inbox", "open", note])
        #expect(opened.status == 0)
        #expect(opened.out == "meet at dawn")
        let plain = box.run(["inbox", "open", url])
        #expect(plain.status == 2)
        #expect(plain.stderr.contains("item \(url) is not a sealed message or a file (it is url)"))
        #expect(plain.stderr.contains("qrseal: hint: see it with 'qrseal inbox show \(url)'"))
    }

    @Test("inbox show prints an imported label's line breaks as escapes, so it cannot pass for other fields")
    func labelLinesEscaped() throws {
        let line = #"{"received_at":"2026-01-01T00:00:00Z","source_kind":"file","source":"a.png\nkind      url","symbology":"qr","kind":"text","text":"hi","bytes_base64":"aGk=","label":"mine\nnote      verified by your bank\r\nx"}"#
        let file = try box.dir.write("one.jsonl", Data((line + "\n").utf8))
        #expect(box.run(["inbox", "import", file]).status == 0)
        let shown = box.run(["inbox", "show", String(try #require(box.ids().first))]).out
        #expect(shown.contains(#"label     mine\nnote      verified by your bank\r\nx"#), "\(shown)")
        #expect(shown.contains(#"from      file a.png\nkind      url"#), "\(shown)")
        #expect(!shown.split(separator: "\n").contains { $0.hasPrefix(" ") || $0.hasPrefix("note") || $0.hasPrefix("x") })
    }

    @Test("label, pin and unpin change what list shows and finds")
    func labelAndPin() throws {
        box.scan(box.encode("a.png", "shopping list"))
        let id = String(try #require(box.ids().first))
        #expect(box.run(["inbox", "label", id, "Groceries"]).status == 0)
        #expect(box.run(["inbox", "list"]).out.contains("[Groceries] shopping list"))
        #expect(box.ids(["--search", "grocer"]) == [Int(id)!])
        #expect(box.run(["inbox", "label", id, ""]).status == 0)
        #expect(box.run(["inbox", "list", "--search", "grocer"]).status == 1)
        #expect(box.run(["inbox", "list", "--pinned"]).status == 1)
        #expect(box.run(["inbox", "pin", id]).status == 0)
        #expect(box.ids(["--pinned"]) == [Int(id)!])
        #expect(box.run(["inbox", "list"]).out.contains("*\(id) "))
        #expect(box.run(["inbox", "unpin", id]).status == 0)
        #expect(box.run(["inbox", "list", "--pinned"]).status == 1)
        let missing = box.run(["inbox", "label", "999", "x"])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("no item 999 in the inbox"))
    }

    @Test("inbox rm removes the ids given, or none of them when one is missing")
    func removeByID() throws {
        for name in ["a", "b", "c"] { box.scan(box.encode("\(name).png", "item \(name)")) }
        let ids = box.ids().map(String.init)
        let partly = box.run(["inbox", "rm", ids[0], "999"])
        #expect(partly.status == 2)
        #expect(partly.stderr.contains("no item 999 in the inbox"))
        #expect(box.count() == 3)
        #expect(box.run(["inbox", "rm", ids[0], ids[2]]).status == 0)
        #expect(box.ids() == [Int(ids[1])!])
        #expect(box.run(["inbox", "rm", "one"]).status == 64)
        #expect(box.run(["inbox", "rm"]).status == 64)
    }

    @Test("inbox rm --older-than removes old items but keeps pinned ones and new ones; --dry-run shows them first and removes none")
    func removeOlderThan() throws {
        try box.importLines([
            InboxSandbox.line("old and forgotten", at: "2020-01-01T10:00:00Z"),
            InboxSandbox.line("old but pinned", at: "2020-02-01T10:00:00Z", pinned: true),
            InboxSandbox.line("old too", at: "2021-03-01T10:00:00Z", kind: "url"),
        ])
        box.scan(box.encode("new.png", "brand new"))
        // First seen, nothing removed.
        let dry = box.run(["inbox", "rm", "--older-than", "30d", "--dry-run"])
        #expect(dry.status == 0)
        #expect(dry.stderr == "qrseal: would remove 2 items; none removed (--dry-run)\n")
        let shown = dry.out.split(separator: "\n").dropFirst()
        #expect(shown.count == 2 && shown[shown.startIndex].hasSuffix("old too") && shown.last?.hasSuffix("old and forgotten") == true,
                "\(dry.out)")
        #expect(box.texts().count == 4)
        let byID = box.run(["inbox", "rm", "--dry-run", String(box.ids().last!)])
        #expect(byID.stderr == "qrseal: would remove 1 item; none removed (--dry-run)\n" && box.texts().count == 4)
        // On a terminal it asks first; anything but yes removes nothing.
        for answer in ["", "n", "no thanks"] {
            let no = box.run(["inbox", "rm", "--older-than", "30d"], answers: [answer])
            #expect(no.status == 0 && no.stderr == "qrseal: nothing removed\n", "\(no.stderr)")
            #expect(box.texts().count == 4)
        }
        // Without a terminal to answer on (standard input is one, /dev/tty is not), it refuses.
        let noTerminal = box.run(["inbox", "rm", "--older-than", "30d"])
        #expect(noTerminal.status == 2 && noTerminal.stderr.contains("no terminal") && noTerminal.stderr.contains("--yes"),
                "\(noTerminal.stderr)")
        #expect(box.texts().count == 4)
        let r = box.run(["inbox", "rm", "--older-than", "30d"], answers: ["y"])
        #expect(r.status == 0)
        #expect(r.stderr == "qrseal: removed 2 items\n")
        #expect(box.texts() == ["brand new", "old but pinned"])
        #expect(box.run(["inbox", "rm", "--older-than", "a while"]).status == 64)
    }

    @Test("inbox rm --older-than asks first on a terminal, not with --yes or in a script")
    func removeOlderThanAsks() throws {
        try box.importLines([
            InboxSandbox.line("old one", at: "2020-01-01T10:00:00Z"),
            InboxSandbox.line("old two", at: "2020-01-02T10:00:00Z"),
            InboxSandbox.line("old three", at: "2020-01-03T10:00:00Z"),
        ])
        // A script (standard input not a terminal) is not asked.
        let piped = box.run(["inbox", "rm", "--older-than", "10000d"], stdin: Data())
        #expect(piped.status == 0 && piped.stderr == "qrseal: removed 0 items\n" && box.texts().count == 3)
        let script = box.run(["inbox", "rm", "--older-than", "30d"], stdin: Data())
        #expect(script.stderr == "qrseal: removed 3 items\n" && box.texts().isEmpty)
        try box.importLines([InboxSandbox.line("old again", at: "2020-01-01T10:00:00Z")])
        let yes = box.run(["inbox", "rm", "--older-than", "30d", "--yes"])
        #expect(yes.stderr == "qrseal: removed 1 item\n" && box.texts().isEmpty)
    }

    @Test("inbox count gives the total and each kind, also as JSON")
    func count() throws {
        try box.importLines([
            InboxSandbox.line("a", at: "2021-01-01T00:00:00Z"),
            InboxSandbox.line("b", at: "2021-01-02T00:00:00Z"),
            InboxSandbox.line("https://example.org", at: "2021-01-03T00:00:00Z", kind: "url"),
        ])
        let text = box.run(["inbox", "count"])
        #expect(text.status == 0)
        let lines = text.out.split(separator: "\n").map(String.init)
        #expect(lines.first == "3 items")
        #expect(Set(lines.dropFirst()) == ["  text     2", "  url      1"])
        let json = box.run(["inbox", "count", "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: json.stdout) as? [String: Int])
        #expect(object == ["total": 3, "waiting": 0, "text": 2, "url": 1])
        #expect(box.run(["inbox", "count", "--kind", "url"]).out == "1 item\n  url      1\n")
    }

    @Test("keys add, list and rm: named keys, mode 0600, no duplicate names, bad key files refused")
    func keys() throws {
        let key = box.keygen("home.key")
        #expect(box.run(["keys", "list"]).status == 1)
        let added = box.run(["keys", "add", key])
        #expect(added.status == 0)
        #expect(added.stderr == "qrseal: added key 'home' to the keyring\n")
        let again = box.run(["keys", "add", key])
        #expect(again.status == 2)
        #expect(again.stderr.contains("a key named 'home' is already in the keyring"))
        #expect(box.run(["keys", "add", "--name", "work", box.keygen("w.key")]).status == 0)
        let list = box.run(["keys", "list"]).out.split(separator: "\n").map(String.init)
        #expect(list.map { String($0.prefix { $0 != " " }) } == ["home", "work"])
        // In columns, the fingerprint in the form of a public key's: four groups of four digits.
        #expect(list.allSatisfy { $0.wholeMatch(of: /[a-z]+  \d{4} \d{4} \d{4} \d{4}/) != nil }, "\(list)")
        let ring = box.dir.path("data") + "/qrseal/keys"
        let file = try FileManager.default.attributesOfItem(atPath: ring + "/home.key")
        #expect((file[.posixPermissions] as? Int) == 0o600)
        let folder = try FileManager.default.attributesOfItem(atPath: ring)
        #expect((folder[.posixPermissions] as? Int) == 0o700)
        // A mistyped key is caught by its checksum and not added.
        var text = Array(try String(contentsOfFile: key, encoding: .utf8))
        text[20] = text[20] == "A" ? "B" : "A"
        let typo = try box.dir.write("typo.key", Data(String(text).utf8))
        let bad = box.run(["keys", "add", typo])
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("typo.key: not a valid key: checksum mismatch"))
        let escape = box.run(["keys", "add", "--name", "../evil", key])
        #expect(escape.status == 2)
        #expect(!FileManager.default.fileExists(atPath: box.dir.path("data") + "/qrseal/evil.key"))
        #expect(box.run(["keys", "rm", "home"]).status == 0)
        #expect(box.run(["keys", "list"]).out.hasPrefix("work "))
        let gone = box.run(["keys", "rm", "home"])
        #expect(gone.status == 2)
        #expect(gone.stderr.contains("no key named 'home' in the keyring"))
    }

    @Test("search text with quotes, %, _ and SQL is matched literally, and the inbox still works")
    func hostileSearch() throws {
        box.scan(box.encode("hostile.png", #"say "hi" 100% a_b '; DROP TABLE items; --"#))
        box.scan(box.encode("decoy.png", "100 abb hi plain"))
        let hostile = box.ids(["--search", "DROP TABLE"])
        #expect(hostile.count == 1)
        for search in [#""hi""#, "%", "_", "0%", "a_b", "'; DROP TABLE items; --", #"""#, "; "] {
            #expect(box.ids(["--search", search]) == hostile, "search \(search)")
        }
        #expect(box.run(["inbox", "list", "--search", "%%%"]).status == 1)
        #expect(box.count() == 2)
        box.scan(box.encode("after.png", "still working"))
        #expect(box.count() == 3)
    }

    @Test("searches of one or two letters ignore case beyond ASCII, as longer ones do")
    func shortSearchCase() throws {
        box.scan(box.encode("menu.png", "Crème brûlée"))
        #expect(box.ids(["--search", "BRÛ"]).count == 1)
        #expect(box.ids(["--search", "û"]).count == 1)
        #expect(box.ids(["--search", "Û"]).count == 1)
        #expect(box.ids(["--search", "ÈM"]).count == 1)
    }

    @Test("a sealed message is kept sealed: opened on scan with the keyring, but no plaintext is stored")
    func sealedStaysSealed() throws {
        let key = box.keygen()
        #expect(box.run(["keys", "add", key]).status == 0)
        // Words only: the sealed digits (and base64) could hold any short run of digits.
        let png = box.encode("v.png", "the vault code is swordfish", ["--key-file", key])
        #expect(box.run(["scan", png]).out == "\(png): QR-Code [sealed]: the vault code is swordfish\n")
        let export = box.run(["inbox", "export"])
        #expect(export.status == 0)
        #expect(!export.out.contains("vault") && !export.out.contains("swordfish"))
        #expect(export.out.contains(#""kind":"sealed""#))
        #expect(box.run(["inbox", "list", "--search", "vault"]).status == 1)
        let csv = box.run(["inbox", "export", "--format", "csv"])
        #expect(!csv.out.contains("vault") && csv.out.contains(",sealed,"))
    }

    @Test("a CSV export of hostile payloads imports whole, each payload byte for byte, no formula left to run")
    func csvHostileRoundTrip() throws {
        let texts = ["\"\u{0308}", "say \"\u{0308}hi\"", "=1+2", "+1 555 0100", "-1", "@SUM(A1)", "'=1"]
        for (i, text) in texts.enumerated() {
            let path = box.dir.path("\(i).png")
            #expect(box.run(["encode", "-o", path, "--", text]).status == 0)
            box.scan(path)
        }
        let csv = box.dir.path("all.csv"), other = box.dir.path("other.sqlite")
        #expect(box.run(["inbox", "export", "--format", "csv", "-o", csv]).status == 0)
        let written = try String(contentsOfFile: csv, encoding: .utf8)
        for formula in ["=1+2", "+1 555 0100", "-1", "@SUM(A1)"] { #expect(written.contains(",'\(formula),")) }
        let imported = box.run(["inbox", "import", "--inbox", other, csv])
        #expect(imported.status == 0, "\(imported.stderr)")
        let before = box.run(["inbox", "export"]).out, after = box.run(["inbox", "export", "--inbox", other]).out
        #expect(after == before)
        #expect(texts.allSatisfy { text in after.contains(Data(text.utf8).base64EncodedString()) })
    }
}

/// A private inbox, keyring and config folder for one test, so that tests running in
/// parallel never share state.
struct InboxSandbox {
    let dir = try! TempDir()
    var inbox: String { dir.path("inbox.sqlite") }
    /// The variables for in-process runs.
    var env: [String: String] {
        ["QRSEAL_INBOX": inbox, "XDG_DATA_HOME": dir.path("data"), "XDG_CONFIG_HOME": dir.path("config")]
    }
    /// The environment for the real binary.
    var processEnv: [String: String] { Tools.environment(env) }

    func run(_ arguments: [String], stdin: Data? = nil, answers: [String] = []) -> Captured {
        qrseal(arguments, stdin: stdin, environment: env, answers: answers)
    }

    /// A QR code of `text` written to `name`; its path.
    @discardableResult
    func encode(_ name: String, _ text: String, _ options: [String] = []) -> String {
        let path = dir.path(name)
        let r = run(["encode"] + options + ["-o", path, text])
        #expect(r.status == 0, "\(r.stderr)")
        return path
    }

    func keygen(_ name: String = "k.key") -> String {
        let path = dir.path(name)
        #expect(run(["keygen", "-o", path]).status == 0)
        return path
    }

    func scan(_ path: String) {
        let r = run(["scan", path])
        #expect(r.status == 0, "\(r.stderr)")
    }

    func writeConfig(_ text: String) throws {
        try FileManager.default.createDirectory(atPath: dir.path("config") + "/qrseal", withIntermediateDirectories: true)
        try dir.write("config/qrseal/config", Data(text.utf8))
    }

    func count() -> Int {
        let r = run(["inbox", "count", "--json"])
        return ((try? JSONSerialization.jsonObject(with: r.stdout)) as? [String: Int])?["total"] ?? -1
    }

    /// Every item, newest first, as `inbox list --json` gives it.
    func items(_ options: [String] = []) -> [[String: Any]] {
        let limit = options.contains("--limit") ? [] : ["--limit", "0"]
        return run(["inbox", "list", "--json"] + limit + options).out.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    func ids(_ options: [String] = []) -> [Int] { items(options).compactMap { $0["id"] as? Int } }

    /// The text of each item `inbox list --json` gives with `options`, newest first.
    func texts(_ options: [String] = []) -> [String] { items(options).map { $0["text"] as? String ?? "" } }

    func importLines(_ lines: [String]) throws {
        let r = run(["inbox", "import", "-"], stdin: Data((lines.joined(separator: "\n") + "\n").utf8))
        #expect(r.status == 0, "\(r.stderr)")
    }

    /// One line of an export, as `inbox import` reads it.
    static func line(_ text: String, at time: String, kind: String = "text", source: String = "/old/scan.png",
                     pinned: Bool = false, label: String? = nil) -> String {
        var object: [String: Any] = [
            "received_at": time, "source_kind": "file", "source": source, "symbology": "qr",
            "kind": kind, "text": text, "bytes_base64": Data(text.utf8).base64EncodedString(), "pinned": pinned,
        ]
        if let label { object["label"] = label }
        let data = try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        return String(decoding: data, as: UTF8.self)
    }
}
