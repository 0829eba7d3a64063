import Foundation
import Testing
import TestSupport
import QRSealKit
@testable import QRSealCLI

/// Messages still waiting for parts, as the inbox commands show, count, export and import
/// them, and the exit statuses of the inbox commands, plain and with --json, alike.
@Suite("Inbox: messages waiting for parts")
struct InboxWaitingTests {
    let dir = try! TempDir()

    static let message = String(repeating: "a message sent in parts ", count: 12)

    /// The parts of `message`, 2 data parts of 3.
    static let parts: [Part] = {
        let whole = try! Encoder(symbol: QREncoder(level: .low)).plainWhole(.text(message))
        return try! MessageParts.split(whole, dataParts: 2, totalParts: 3)
    }()

    /// Receives `part` into the inbox at `path` as a scan of /scans/a.png would.
    @discardableResult
    func receive(_ part: Part, into path: String) throws -> Inbox.PieceReceipt {
        let inbox = try Inbox(path: path)
        let time: Int64 = 1_764_590_000_000
        return try inbox.receive(Inbox.Piece(part), symbology: "qr", receivedAt: time, sourceKind: .file, source: "/scans/a.png").receipt
    }

    /// An inbox holding `items` texts and, when `waiting`, the first part of `message`.
    func inbox(_ name: String, items: [String] = [], waiting: Bool = false) throws -> String {
        let path = dir.path(name)
        let inbox = try Inbox(path: path)
        try inbox.add(items.enumerated().map { n, text in
            InboxItem(receivedAt: 1_764_500_000_000 + Int64(n), sourceKind: .file, source: "/scans/b.png", symbology: "qr",
                      bytes: Array(text.utf8), text: text, kind: .text)
        }, dedupe: .never)
        if waiting { try receive(Self.parts[0], into: path) }
        return path
    }

    @Test("inbox export and import carry messages waiting for parts, and their rest completes them", arguments: ["json", "csv"])
    func exportImport(format: String) throws {
        let source = try inbox("source.sqlite", items: ["kept"], waiting: true)
        let file = dir.path("export.\(format)")
        let exported = qrseal(["inbox", "export", "--inbox", source, "--format", format, "-o", file])
        #expect(exported.status == 0, "\(exported.stderr)")
        let target = dir.path("target-\(format).sqlite")
        let imported = qrseal(["inbox", "import", "--inbox", target, file])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stderr == "qrseal: imported 1 item and 1 waiting part from \(file)\n")
        let list = qrseal(["inbox", "list", "--inbox", target])
        #expect(list.out.contains("waiting for parts:\n  \(Self.parts[0].idText)  1 of 3 parts, 1 more needed  (first from /scans/a.png)"),
                "\(list.out)")
        guard case .completed(let item, _, _) = try receive(Self.parts[2], into: target) else {
            Issue.record("the imported part and the rest did not complete the message"); return
        }
        #expect(item.text == Self.message)
    }

    @Test("a part in an import completes the message waiting in the target; the import says so")
    func importCompletes() throws {
        let source = try inbox("source.sqlite", waiting: true)
        let target = try inbox("target.sqlite")
        try receive(Self.parts[1], into: target)
        let file = dir.path("export.jsonl")
        #expect(qrseal(["inbox", "export", "--inbox", source, "-o", file]).status == 0)
        let imported = qrseal(["inbox", "import", "--inbox", target, file])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stderr == "qrseal: imported 0 items from \(file)\n"
                + "qrseal: a part from \(file) completed a message, now item 1\n", "\(imported.stderr)")
        let list = qrseal(["inbox", "list", "--json", "--inbox", target])
        #expect(list.out.contains(#""text":"\#(Self.message)""#), "\(list.out)")
        #expect(qrseal(["inbox", "list", "--waiting", "--inbox", target]).status == 1)
    }

    @Test("a damaged waiting part in an import file fails it, naming the line; nothing is added")
    func damagedPart() throws {
        var frame = Self.parts[0].frame
        frame[frame.count - 1] ^= 1
        let lines = [#"{"qrseal_inbox_export":2}"#,
                     #"{"waiting":"parts","received_at":"2026-01-01T00:00:00Z","source_kind":"file","source":"a.png","#
                        + #""symbology":"qr","bytes_base64":"\#(Data(frame).base64EncodedString())"}"#]
        let target = try inbox("target.sqlite", items: ["there before"])
        let r = qrseal(["inbox", "import", "--inbox", target, "-"], stdin: Data(lines.joined(separator: "\n").utf8))
        #expect(r.status == 2)
        #expect(r.stderr.hasPrefix("qrseal: error: -: line 2: damaged part: its check does not match"), "\(r.stderr)")
        #expect(try Inbox(path: target).waitingMessages().isEmpty)
        let newer = qrseal(["inbox", "import", "--inbox", target, "-"], stdin: Data(#"{"qrseal_inbox_export":3}"#.utf8))
        #expect(newer.status == 2 && newer.stderr.contains("line 1: an export of version 3, newer than this qrseal reads"),
                "\(newer.stderr)")
    }

    @Test("inbox count tells of messages waiting for parts, apart from the items")
    func count() throws {
        let path = try inbox("inbox.sqlite", items: ["one", "two"], waiting: true)
        let human = qrseal(["inbox", "count", "--inbox", path])
        #expect(human.status == 0)
        #expect(human.out == "2 items\n  text     2\n1 message waiting for parts (see 'qrseal inbox list --waiting')\n", "\(human.out)")
        let json = qrseal(["inbox", "count", "--json", "--inbox", path])
        #expect(json.out == #"{"total":2,"waiting":1,"text":2}"# + "\n", "\(json.out)")
        // The filters choose items; the waiting message is still told of.
        let none = qrseal(["inbox", "count", "--json", "--kind", "url", "--inbox", path])
        #expect(none.status == 1 && none.out == #"{"total":0,"waiting":1}"# + "\n", "\(none.out)")
    }

    @Test("inbox list --waiting lists the waiting messages, as lines or JSON; plain list --json hints at them")
    func listWaiting() throws {
        let path = try inbox("inbox.sqlite", items: ["one"], waiting: true)
        let id = Self.parts[0].idText
        let human = qrseal(["inbox", "list", "--waiting", "--inbox", path])
        #expect(human.status == 0)
        #expect(human.out == "  \(id)  1 of 3 parts, 1 more needed  (first from /scans/a.png)\n", "\(human.out)")
        let json = qrseal(["inbox", "list", "--waiting", "--json", "--inbox", path])
        let object = try #require(try JSONSerialization.jsonObject(with: json.stdout) as? [String: Any])
        #expect(object["id"] as? String == id && object["kind"] as? String == "parts")
        #expect(object["have"] as? Int == 1 && object["needed"] as? Int == 1 && object["total_parts"] as? Int == 3)
        #expect(object["data_parts"] as? Int == 2 && object["source"] as? String == "/scans/a.png")
        #expect(object["first_seen"] as? String == "2025-12-01T11:53:20.000Z")
        let items = qrseal(["inbox", "list", "--json", "--inbox", path])
        #expect(items.out.split(separator: "\n").count == 1)
        #expect(items.stderr == #"{"hint":"1 message waiting for parts: 'qrseal inbox list --waiting --json' lists it"}"# + "\n",
                "\(items.stderr)")
        let filtered = qrseal(["inbox", "list", "--waiting", "--kind", "url", "--inbox", path])
        #expect(filtered.status == 64, "\(filtered.stderr)")
    }

    /// Every inbox command that takes --json, with the statuses it ends with on an empty
    /// inbox, one with items only and one with a waiting message only.
    static let statuses: [(arguments: [String], empty: Int32, items: Int32, waiting: Int32)] = [
        (["inbox", "list"], 1, 0, 1),
        (["inbox", "list", "--waiting"], 1, 1, 0),
        (["inbox", "count"], 1, 0, 1),
        (["inbox", "show", "1"], 2, 0, 2),
    ]

    @Test("each inbox command ends with the same status plain and with --json, on every kind of inbox")
    func sameStatuses() throws {
        let states = [("empty", try inbox("empty.sqlite")), ("items", try inbox("items.sqlite", items: ["one"])),
                      ("waiting", try inbox("waiting.sqlite", waiting: true))]
        for row in Self.statuses {
            for (state, path) in states {
                let expected = state == "empty" ? row.empty : state == "items" ? row.items : row.waiting
                let plain = qrseal(row.arguments + ["--inbox", path])
                let json = qrseal(row.arguments + ["--json", "--inbox", path])
                #expect(plain.status == expected, "\(row.arguments) on \(state): \(plain.stderr)")
                #expect(json.status == plain.status, "\(row.arguments) --json on \(state): \(json.stderr)")
            }
        }
        // No inbox command that takes --json is left out of the table.
        let covered = Set(Self.statuses.map { $0.arguments.prefix(2).joined(separator: " ") })
        for spec in InboxCommandSpecs.all where spec.name.hasPrefix("inbox ") && spec.options.contains(where: { $0.long == "json" }) {
            #expect(covered.contains(spec.name), "\(spec.name) takes --json but is not in the table")
        }
    }
}
