import Foundation
import Testing
import TestSupport
@testable import QRSealKit

/// What a new user and a security audit found in the inbox and keyring commands (issue 9):
/// hostile text shown safely, ids as a script expects them, no half-done files left behind.
@Suite("inbox and keys: trust")
struct InboxTrustTests {
    let box = InboxSandbox()

    /// Controls that would move the cursor, recolour, retitle, reorder or start a line.
    static let hostile = "a\u{1B}[31mRED\u{07}b\u{7F}c\u{9B}2Jd\u{202E}e\nf\rg"
    static let escaped = #"a\x1b[31mRED\x07b\x7fc\u{009b}2Jd\u{202e}e"#

    @Test("inbox list and show escape every control in payloads, labels and sources")
    func controlsEscaped() throws {
        try box.importLines([InboxSandbox.line(Self.hostile, at: "2021-01-01T00:00:00Z",
                                               source: "/x/evil\u{1B}]0;t\u{07}.png", label: "l\u{9B}1")])
        let list = box.run(["inbox", "list"])
        #expect(list.status == 0)
        let row = try #require(list.out.split(separator: "\n").last)
        #expect(row.contains(#"[l\u{009b}1] a\x1b[31mRED\x07b\x7fc\u{009b}2J"#), "\(list.out)")
        #expect(row.contains(#"evil\x1b]0;t\x07.png"#))
        let show = box.run(["inbox", "show", String(box.ids()[0])])
        #expect(show.status == 0)
        #expect(show.out.contains("text      " + Self.escaped + "\n          " + #"f\rg"# + "\n"), "\(show.out)")
        #expect(show.out.contains(#"label     l\u{009b}1"#))
        for output in [list.out, show.out] {
            #expect(!output.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value) || $0 == "\u{202E}" })
        }
        // --json keeps the text exactly.
        #expect(box.texts() == [Self.hostile])
    }

    @Test("inbox show prints a vCard's CR LF lines as lines, without raw CRs")
    func showVCard() throws {
        let card = "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Ann Example\r\nEND:VCARD\r\n"
        box.scan(box.encode("card.png", card))
        let show = box.run(["inbox", "show", "1"])
        #expect(show.status == 0)
        #expect(!show.out.contains("\r"))
        #expect(show.out.contains("text      BEGIN:VCARD\n          VERSION:3.0\n          FN:Ann Example\n"), "\(show.out)")
        let list = box.run(["inbox", "list"])
        #expect(list.out.contains("BEGIN:VCARD⏎VERSION:3.0⏎FN:Ann Example"), "\(list.out)")
    }

    @Test("inbox rm with an id given twice removes it once and says how many were removed")
    func removeRepeatedID() {
        for name in ["a", "b"] { box.scan(box.encode("\(name).png", "item \(name)")) }
        let first = String(box.ids().last!)
        let r = box.run(["inbox", "rm", first, first])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr == "qrseal: removed 1 item\n")
        #expect(box.count() == 1)
    }

    @Test("keys add - names the key after its fingerprint (never '-') and says so; --name still names it")
    func keyFromStandardInput() throws {
        let key = try Data(contentsOf: URL(fileURLWithPath: box.keygen()))
        let added = box.run(["keys", "add", "-"], stdin: key)
        #expect(added.status == 0, "\(added.stderr)")
        let listed = box.run(["keys", "list"]).out.trimmingCharacters(in: .newlines)
        let name = String(listed.prefix { $0 != " " })
        let fingerprint = listed.dropFirst(name.count).trimmingCharacters(in: .whitespaces)
        #expect(name == "key-" + fingerprint.replacingOccurrences(of: " ", with: ""))
        #expect(added.stderr == "qrseal: added key '\(name)' to the keyring\n")
        #expect(!FileManager.default.fileExists(atPath: box.dir.path("data") + "/qrseal/keys/-.key"))
        let dash = box.run(["keys", "add", "--name", "-", "-"], stdin: key)
        #expect(dash.status == 2)
        #expect(dash.stderr.contains("'-' is not a usable key name"))
    }

    @Test("a failed import into a new inbox leaves no inbox behind")
    func failedImportLeavesNothing() throws {
        let target = box.dir.path("new.sqlite")
        let file = try box.dir.write("bad.jsonl", Data((InboxSandbox.line("ok", at: "2021-01-01T00:00:00Z") + "\n{broken\n").utf8))
        let r = box.run(["inbox", "import", file, "--inbox", target])
        #expect(r.status == 2)
        #expect(r.stderr.contains("line 2: malformed JSON; nothing was imported"))
        let left = try FileManager.default.contentsOfDirectory(atPath: box.dir.url.path).filter { $0.hasPrefix("new.sqlite") }
        #expect(left.isEmpty, "\(left)")
        // Nor the folders made for it.
        #expect(box.run(["inbox", "import", file, "--inbox", box.dir.path("made/for/it.sqlite")]).status == 2)
        #expect(!FileManager.default.fileExists(atPath: box.dir.path("made")))
        // An inbox that was there stays, as it was.
        box.scan(box.encode("a.png", "kept"))
        #expect(box.run(["inbox", "import", file, "--inbox", box.inbox]).status == 2)
        #expect(box.texts() == ["kept"])
    }

    @Test("import from standard input: a NUL is kept, bytes that are not UTF-8 are refused with the line")
    func importBytes() throws {
        let nul = InboxSandbox.line("before\u{0}after", at: "2021-01-01T00:00:00Z")
        let ok = box.run(["inbox", "import", "-"], stdin: Data((nul + "\n").utf8))
        #expect(ok.status == 0, "\(ok.stderr)")
        #expect(box.texts() == ["before\u{0}after"])
        var bad = Data((InboxSandbox.line("second", at: "2021-01-02T00:00:00Z") + "\n").utf8)
        bad += Data(#"{"text":"caf"#.utf8) + Data([0xE9]) + Data("\"}\n".utf8)
        let r = box.run(["inbox", "import", "-"], stdin: bad)
        #expect(r.status == 2)
        #expect(r.stderr == "qrseal: error: -: line 2: not valid UTF-8; nothing was imported\n")
        #expect(box.count() == 1)
    }

    @Test("times with more than three fractional digits are read, to the millisecond")
    func fractionalSeconds() throws {
        try box.importLines([InboxSandbox.line("early", at: "2026-01-01T00:00:00.1229999Z"),
                             InboxSandbox.line("late", at: "2026-01-01T00:00:00.123456Z")])
        #expect(box.texts(["--since", "2026-01-01T00:00:00.1234Z"]) == ["late"])
        #expect(box.items().first?["received_at"] as? String == "2026-01-01T00:00:00.123Z")
        let bad = box.run(["inbox", "list", "--since", "2026-01-01T00:00:00.12.34Z"])
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("not '2026-01-01T00:00:00.12.34Z'"))
    }

    @Test("scan --json gives each code's inbox id; a repeat gives the id it repeats; --no-store gives none")
    func scanJSONInboxID() throws {
        let png = box.encode("a.png", "numbered")
        func inboxID(_ options: [String]) throws -> Int? {
            let r = box.run(["scan", "--json"] + options + [png])
            #expect(r.status == 0, "\(r.stderr)")
            let object = try JSONSerialization.jsonObject(with: r.stdout) as? [String: Any]
            return object?["inbox_id"] as? Int
        }
        let first = try inboxID([])
        #expect(first == box.ids().first)
        #expect(try inboxID([]) == first)
        #expect(box.count() == 1)
        let another = try inboxID(["--dedupe", "never"])
        #expect(another != nil && another != first)
        #expect(try inboxID(["--no-store"]) == nil)
    }

    @Test("an empty file where the inbox goes is refused by every command and left as it was")
    func emptyFileRefused() throws {
        try box.dir.write("inbox.sqlite", Data())
        chmod(box.inbox, 0o644)
        let png = box.encode("a.png", "read anyway")
        let scan = box.run(["scan", png])
        #expect(scan.status == 2)
        #expect(scan.out == "\(png): QR-Code: read anyway\n")
        #expect(scan.stderr.contains("\(box.inbox): an empty file, not an inbox (left untouched)"), "\(scan.stderr)")
        let list = box.run(["inbox", "list"])
        #expect(list.status == 2)
        #expect(list.stderr.contains("an empty file, not an inbox"))
        let attributes = try FileManager.default.attributesOfItem(atPath: box.inbox)
        #expect(attributes[.size] as? Int == 0)
        #expect(attributes[.posixPermissions] as? Int == 0o644)
    }

    @Test("temporary files left by a creation that was killed are removed; a recent one is left alone")
    func staleTemporaries() throws {
        let stale = try box.dir.write("inbox.sqlite.new-Ab12Cd", Data("half made".utf8))
        let recent = try box.dir.write("inbox.sqlite.new-Ef34Gh", Data("being made".utf8))
        var old = [timeval(tv_sec: time(nil) - 86_400, tv_usec: 0), timeval(tv_sec: time(nil) - 86_400, tv_usec: 0)]
        #expect(utimes(stale, &old) == 0)
        box.scan(box.encode("a.png", "new inbox"))
        #expect(!FileManager.default.fileExists(atPath: stale))
        #expect(FileManager.default.fileExists(atPath: recent))
        #expect(box.count() == 1)
        // Also when another process made the inbox meanwhile: the next command that stores cleans up.
        #expect(utimes(recent, &old) == 0)
        box.scan(box.encode("b.png", "inbox already there"))
        #expect(!FileManager.default.fileExists(atPath: recent))
    }
}
