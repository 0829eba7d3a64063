import Foundation
import Testing
import TestSupport
@testable import QRSealKit

/// Exports read back: what comes in is exactly what went out, and a hostile file is refused
/// whole, naming its line.
@Suite("Inbox import")
struct InboxImportTests {
    let dir = try! TempDir()

    func fresh(_ name: String = "inbox.sqlite") throws -> Inbox { try Inbox(path: dir.path(name)) }

    func textItem(_ text: String, at time: Int64 = 1_000) -> InboxItem {
        InboxItem(receivedAt: time, sourceKind: .file, source: "/a.png", symbology: "qr",
                  bytes: Array(text.utf8), text: text,
                  kind: ContentClassifier.classify(bytes: Array(text.utf8), text: text, symbology: "qr").kind)
    }

    /// An export as its writer makes it: records separated by CR LF for CSV, LF for JSON.
    func export(_ inbox: Inbox, _ format: InboxFormat) throws -> String {
        var text = format == .csv ? InboxFormat.csvHeader + "\r\n" : ""
        try inbox.forEach { text += format.encode($0) + (format == .csv ? "\r\n" : "\n") }
        return text
    }

    /// Imports `text` split into lines at LF, as the command line reads a file.
    @discardableResult
    func importText(_ text: String, into inbox: Inbox) throws(InboxError) -> Int {
        // Bytes, not characters: a CR LF pair is one Swift character.
        var lines = Array(text.utf8).split(separator: 0x0A, omittingEmptySubsequences: false)
            .map { String(decoding: $0, as: UTF8.self) }[...]
        if lines.last == "" { lines.removeLast() }
        var reader = InboxImportReader(nextLine: { lines.popFirst() })
        return try inbox.importRecords { () throws(InboxError) -> InboxRecord? in try reader.next() }.items
    }

    /// The reason of an import that must fail on `line`.
    func failure(_ text: String, into inbox: Inbox, line: Int) -> String? {
        do {
            try importText(text, into: inbox)
        } catch {
            guard case .badImport(let at, let reason) = error else { Issue.record("\(error)"); return nil }
            #expect(at == line, "\(reason)")
            return reason
        }
        Issue.record("the import should have failed")
        return nil
    }

    static let vCard = "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Ann Example\r\nTEL:+1 555 0100\r\nEND:VCARD\r\n"

    @Test("CSV: a vCard's CR LF lines, quotes, commas, a lone CR and a lone LF survive export and import",
          arguments: [vCard, "say \"hi\", then leave", "carriage\ronly", "line\nfeed only", "ends with CR\r",
                      "\r\n", "\"", ",", "tab\there", "\"\u{0308}", "a \"\u{0308}b\" c",
                      "=1+2", "+1 555 0100", "-2", "@SUM(A1)", "\t=1", "\r=1", "'", "'=1", "''", "'plain"])
    func csvRoundTrip(text: String) throws {
        let source = try fresh("source.sqlite")
        try source.add([textItem(text)], dedupe: .never)
        let exported = try export(source, .csv)
        let target = try fresh("target.sqlite")
        #expect(try importText(exported, into: target) == 1)
        let back = try target.list(InboxQuery())
        #expect(back.map(\.text) == [text])
        #expect(back.map(\.bytes) == [Array(text.utf8)])
        #expect(try export(target, .csv) == exported)
    }

    @Test("CSV: a cell a spreadsheet would run as a formula is exported behind an apostrophe",
          arguments: ["=HYPERLINK(\"http://x\")", "+1", "-1", "@A1", "\t=1", "'=1"])
    func csvFormulaDefused(text: String) throws {
        let source = try fresh()
        try source.add([textItem(text)], dedupe: .never)
        let record = try export(source, .csv).split(separator: "\r\n")[1]
        let cells = try #require(InboxImportReader.csvCells(String(record)))
        #expect(cells[6] == "'" + text)
        let formulaStarts: Set<Unicode.Scalar> = ["=", "+", "-", "@", "\t", "\r"]
        #expect(!cells.contains { $0.unicodeScalars.first.map(formulaStarts.contains) ?? false })
    }

    @Test("CSV: an apostrophe before anything but a formula character is content, as older exports wrote it")
    func csvApostropheKept() throws {
        let inbox = try fresh()
        let csv = InboxFormat.csvHeaderVersion1 + "\r\n1,2026-01-01T00:00:00Z,file,a.png,qr,text,'hello,J2hlbGxv,,,0\r\n"
        try importText(csv, into: inbox)
        #expect(try inbox.list(InboxQuery()).map(\.text) == ["'hello"])
    }

    @Test("CSV: a record is quoted whenever it holds CR or LF, so that each record is one CSV row")
    func csvQuotesLineBreaks() {
        #expect(InboxFormat.csvQuote(Self.vCard).hasPrefix("\"BEGIN:VCARD\r\n"))
        #expect(InboxFormat.csvQuote("a\rb") == "\"a\rb\"")
        #expect(InboxFormat.csvQuote("plain") == "plain")
    }

    @Test("a NUL in text is kept, not cut there")
    func nulKept() throws {
        let inbox = try fresh()
        let line = #"{"received_at":"2026-01-01T00:00:00Z","source_kind":"file","source":"a","symbology":"qr","kind":"text","text":"before\u0000after","bytes_base64":"YmVmb3JlAGFmdGVy"}"#
        try importText(line, into: inbox)
        #expect(try inbox.list(InboxQuery()).map(\.text) == ["before\u{0}after"])
    }

    @Test("a line that is not UTF-8 is refused with its number, not turned into U+FFFD")
    func invalidUTF8() throws {
        let inbox = try fresh()
        let good = #"{"received_at":"2026-01-01T00:00:00Z","source_kind":"file","source":"a","symbology":"qr","kind":"text","text":"ok","bytes_base64":"b2s="}"#
        // The bytes 0xFF 0xFE arrive as RawBytes scalars, as the command line reads them.
        let bad = good.replacingOccurrences(of: #""ok""#, with: "\"o" + RawBytes.string([0xFF, 0xFE]) + "k\"")
        #expect(failure([good, bad].joined(separator: "\n"), into: inbox, line: 2) == "not valid UTF-8")
        #expect(try inbox.count(InboxQuery()) == 0)
    }

    @Test("a line longer than 16 MiB is refused with its number, and so is a CSV record that long")
    func longLines() throws {
        let inbox = try fresh()
        let long = "{\"text\":\"" + String(repeating: "a", count: InboxImportReader.maxLineBytes) + "\"}"
        #expect(failure(long, into: inbox, line: 1) == "longer than 16 MiB")
        let header = InboxFormat.csvHeader
        let half = String(repeating: "b", count: InboxImportReader.maxLineBytes / 2 + 1)
        let record = "0,2026-01-01T00:00:00Z,file,a,qr,text,\"\(half)\n\(half)\",YQ==,,,0"
        #expect(failure(header + "\n" + record, into: inbox, line: 2) == "record longer than 16 MiB")
        #expect(try inbox.count(InboxQuery()) == 0)
    }

    @Test("empty text beside a payload, an empty label and an empty file name are none in JSON as in CSV, so an item imports the same from both (found by make fuzz)")
    func emptyTextBesidePayload() throws {
        let json = #"{"received_at":"2026-01-01T00:00:00Z","source_kind":"file","source":"a","symbology":"qr","kind":"text","text":"","bytes_base64":"EQACAAMA","label":"","file_name":""}"#
        var lines = [json][...]
        var reader = InboxImportReader(nextLine: { lines.popFirst() })
        guard case .item(let item)? = try reader.next() else { Issue.record("not an item"); return }
        #expect(item.text == nil && item.kind == .binary && item.bytes == [0x11, 0, 2, 0, 3, 0])
        #expect(item.label == nil && item.fileName == nil)
        for format in InboxFormat.allCases {
            var again = [format.header, format.encode(item)][...]
            var back = InboxImportReader(nextLine: { again.popFirst() })
            #expect(try back.next() == .item(item), "\(format)")
        }
        // Empty text with no payload is an empty text, in both formats too.
        let empty = InboxItem(receivedAt: 1_000, sourceKind: .file, source: "a", symbology: "qr", bytes: [], text: "",
                              kind: ContentClassifier.classify(bytes: [], text: "", symbology: "qr").kind)
        for format in InboxFormat.allCases {
            var again = [format.header, format.encode(empty)][...]
            var back = InboxImportReader(nextLine: { again.popFirst() })
            #expect(try back.next() == .item(empty), "\(format)")
        }
    }

    @Test("the kind comes from the content: sealed bytes imported as text stay sealed and unsearchable")
    func kindRecomputed() throws {
        let inbox = try fresh()
        let sealed = "QRSEAL1:" + String(repeating: "0123456789", count: 6)
        #expect(ContentClassifier.classify(bytes: Array(sealed.utf8), text: sealed, symbology: "qr").kind == .sealed)
        let line = #"{"received_at":"2026-01-01T00:00:00Z","source_kind":"file","source":"a","symbology":"qr","kind":"text","text":"\#(sealed)","bytes_base64":"\#(Data(sealed.utf8).base64EncodedString())"}"#
        let url = #"{"received_at":"2026-01-02T00:00:00Z","source_kind":"file","source":"a","symbology":"qr","kind":"sealed","text":"https://example.org","bytes_base64":"aHR0cHM6Ly9leGFtcGxlLm9yZw=="}"#
        try importText(line + "\n" + url, into: inbox)
        #expect(try inbox.list(InboxQuery()).map(\.kind) == [.url, .sealed])
        #expect(try inbox.count(InboxQuery(search: "0123456789")) == 0)
        #expect(try inbox.count(InboxQuery(search: "example")) == 1)
    }

    @Test("corners that are not finite numbers are refused, naming the line", arguments: [
        "csv-nan", "csv-inf", "csv-huge",
    ])
    func nonFiniteCorners(corner: String) throws {
        let inbox = try fresh()
        let value = ["csv-nan": "nan", "csv-inf": "inf", "csv-huge": "1e999"][corner]!
        let text = InboxFormat.csvHeader + "\r\n"
            + "0,2026-01-01T00:00:00Z,file,a,qr,text,ok,b2s=,\"[[0,0],[\(value),1],[2,2],[3,3]]\",,0,,,,,\r\n"
        #expect(failure(text, into: inbox, line: 2) == "corners must be finite numbers")
    }

    @Test("times with microseconds are read, to the millisecond")
    func microseconds() throws {
        let inbox = try fresh()
        let line = #"{"received_at":"2026-01-01T00:00:00.123456Z","source_kind":"file","source":"a","symbology":"qr","kind":"text","text":"ok","bytes_base64":"b2s="}"#
        try importText(line, into: inbox)
        #expect(try inbox.list(InboxQuery()).map(\.receivedAt) == [Timestamp.parse("2026-01-01T00:00:00.123Z")!])
        let bad = line.replacingOccurrences(of: ".123456Z", with: ".12x4Z")
        #expect(failure(bad, into: inbox, line: 1) == "received_at must be an ISO 8601 time, not '2026-01-01T00:00:00.12x4Z'")
    }

    @Test("repeated payloads: each line is one lookup in an index, and repeats of one line are kept once")
    func repeatsIndexed() throws {
        let inbox = try fresh()
        let plan = try inbox.db.rows("EXPLAIN QUERY PLAN " + Inbox.importLookup,
                                     [.blob([0]), .integer(0), .text("a")])
        let detail = plan.compactMap { row -> String? in if case .text(let t) = row.last { return t } else { return nil } }
        #expect(detail.contains { $0.contains("USING COVERING INDEX items_by_content") }, "\(detail)")
        let lines = (0..<500).map { i in
            #"{"received_at":"2026-01-01T00:00:\#(String(format: "%02d", i % 60)).\#(String(format: "%03d", i))Z","source_kind":"file","source":"a","symbology":"qr","kind":"text","text":"same","bytes_base64":"c2FtZQ=="}"#
        }
        #expect(try importText((lines + lines).joined(separator: "\n"), into: inbox) == 500)
    }
}

/// `Inbox.export` and `importLines`, which the CLI and the desktop app share.
@Suite("Inbox export and import of a whole inbox")
struct InboxWholeExportTests {
    let dir = try! TempDir()

    @Test("an export imported into a fresh inbox adds every item; imported again it adds none and counts them as there already",
          arguments: InboxFormat.allCases)
    func roundTrip(format: InboxFormat) throws {
        let source = try Inbox(path: dir.path("source.sqlite"))
        let texts = ["https://example.org", "WIFI:S:home;P:pw;;", "line one\r\nline two"]
        let items = texts.enumerated().map { n, text in
            InboxItem(receivedAt: 1_000 + Int64(n), sourceKind: .file, source: "/a.png", symbology: "qr",
                      bytes: Array(text.utf8), text: text,
                      kind: ContentClassifier.classify(bytes: Array(text.utf8), text: text, symbology: "qr").kind,
                      label: n == 1 ? "Home" : nil, pinned: n == 2)
        }
        try source.add(items, dedupe: .never)
        let exported = try source.export(format)
        #expect(exported.hasSuffix(format == .csv ? "\r\n" : "\n"))

        let fresh = try Inbox(path: dir.path("fresh.sqlite"))
        func importExport() throws(InboxError) -> Inbox.Imported {
            // Bytes, not characters: a CR LF pair is one Swift character.
            var lines = Array(exported.utf8).split(separator: 0x0A, omittingEmptySubsequences: false)
                .map { String(decoding: $0, as: UTF8.self) }[...]
            if lines.last == "" { lines.removeLast() }
            return try fresh.importLines { lines.popFirst() }
        }
        let first = try importExport()
        #expect((first.items, first.alreadyThere) == (3, 0))
        let again = try importExport()
        #expect((again.items, again.alreadyThere) == (0, 3))
        #expect(try fresh.export(format) == exported)
    }
}
