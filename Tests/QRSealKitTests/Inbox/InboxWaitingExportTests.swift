import Foundation
import Testing
import TestSupport
@testable import QRSealKit

/// Messages still waiting for parts, through an export and an import (docs/FORMAT.md,
/// section 10): version 2 of the export carries their pieces, import receives them again.
@Suite("Inbox: waiting parts in exports")
struct InboxWaitingExportTests {
    let dir = try! TempDir()

    func fresh(_ name: String) throws -> Inbox { try Inbox(path: dir.path(name)) }

    /// The parts of a plain text message, K data parts of N.
    func parts(_ text: String, k: Int, n: Int) throws -> [Part] {
        try MessageParts.split(try InnerPlaintext.encode(.text(text), compress: false), dataParts: k, totalParts: n)
    }

    @discardableResult
    func receive(_ inbox: Inbox, _ piece: Inbox.Piece, at time: Int64 = 1_764_590_000_000) throws -> Inbox.PieceReceipt {
        try inbox.receive(piece, symbology: "qr", receivedAt: time, sourceKind: .file, source: "/scans/a.png").receipt
    }

    /// An export as the command line writes it: the version line or header, the items, the pieces.
    func export(_ inbox: Inbox, _ format: InboxFormat) throws -> String {
        let end = format == .csv ? "\r\n" : "\n"
        var text = format.header + end
        try inbox.forEach { text += format.encode($0) + end }
        try inbox.forEachWaitingPiece { text += format.encode($0) + end }
        return text
    }

    func reader(_ text: String) -> InboxImportReader {
        var lines = Array(text.utf8).split(separator: 0x0A, omittingEmptySubsequences: false)
            .map { String(decoding: $0, as: UTF8.self) }[...]
        if lines.last == "" { lines.removeLast() }
        return InboxImportReader(nextLine: { lines.popFirst() })
    }

    @discardableResult
    func importText(_ text: String, into inbox: Inbox) throws(InboxError) -> Inbox.Imported {
        var reader = reader(text)
        return try inbox.importRecords { () throws(InboxError) -> InboxRecord? in try reader.next() }
    }

    /// An inbox with one item, two of five parts of a message (three needed) and two of three
    /// symbols of a Structured Append sequence.
    func source() throws -> (Inbox, [Part], [UInt8]) {
        let inbox = try fresh("source.sqlite")
        try inbox.add([InboxItem(receivedAt: 1_764_500_000_000, sourceKind: .file, source: "/scans/b.png", symbology: "qr",
                                 bytes: Array("hello".utf8), text: "hello", kind: .text)], dedupe: .never)
        let all = try parts(String(repeating: "waiting words ", count: 30), k: 3, n: 5)
        try receive(inbox, Inbox.Piece(all[4]), at: 1_764_590_000_000)
        try receive(inbox, Inbox.Piece(all[1]), at: 1_764_590_000_500)
        let joined = Array("Structured Append, three symbols".utf8)
        let thirds = [joined[0..<10], joined[10..<20], joined[20...]].map(Array.init)
        let parity = Int(joined.reduce(0, ^))
        for index in [2, 0] {
            try receive(inbox, Inbox.Piece(structuredAppend: index, of: 3, parity: parity, bytes: thirds[index]))
        }
        return (inbox, all, thirds[1])
    }

    @Test("waiting pieces export and import into an empty inbox, which then exports the same", arguments: InboxFormat.allCases)
    func roundTrip(format: InboxFormat) throws {
        let (source, _, _) = try source()
        let exported = try export(source, format)
        let target = try fresh("target-\(format).sqlite")
        let imported = try importText(exported, into: target)
        #expect(imported.items == 1 && imported.pieces == 4 && imported.completed.isEmpty && imported.dropped.isEmpty)
        #expect(try target.waitingMessages().map(\.text) == source.waitingMessages().map(\.text))
        #expect(try export(target, format) == exported)
    }

    @Test("the rest of a message completes it after the import, as after a scan", arguments: InboxFormat.allCases)
    func completesLater(format: InboxFormat) throws {
        let (source, all, middle) = try source()
        let target = try fresh("later-\(format).sqlite")
        try importText(try export(source, format), into: target)
        guard case .completed(let item, _, _) = try receive(target, Inbox.Piece(all[0])) else {
            Issue.record("the third part did not complete the imported message"); return
        }
        #expect(item.text == String(repeating: "waiting words ", count: 30))
        let saParity = Int(Array("Structured Append, three symbols".utf8).reduce(0, ^))
        guard case .completed(let joined, _, _) = try receive(target, Inbox.Piece(structuredAppend: 1, of: 3, parity: saParity,
                                                                                   bytes: middle)) else {
            Issue.record("the middle symbol did not complete the imported sequence"); return
        }
        #expect(joined.text == "Structured Append, three symbols")
    }

    @Test("a piece in an import completes a message waiting in the target: its item is the one a scan would store")
    func importCompletes() throws {
        let (source, all, _) = try source()
        let target = try fresh("completing.sqlite")
        try receive(target, Inbox.Piece(all[2]), at: 1_764_580_000_000)
        let imported = try importText(try export(source, .json), into: target)
        #expect(imported.completed.count == 1)
        let item = try #require(imported.completed.first)
        #expect(item.text == String(repeating: "waiting words ", count: 30) && item.kind == .text)
        // Received when the piece that completed it was, from where the message first came.
        #expect(item.receivedAt == 1_764_590_000_500 && item.source == "/scans/a.png" && item.symbology == "qr")
        #expect(try target.list(InboxQuery()).contains { $0.id == item.id && $0.text == item.text })
        // The completed message waits no more; the Structured Append sequence still does.
        #expect(try target.waitingMessages().map(\.idText) == [Inbox.Piece(structuredAppend: 0, of: 3, parity:
            Int(Array("Structured Append, three symbols".utf8).reduce(0, ^)), bytes: []).idText])
    }

    @Test("importing an export twice adds no piece the second time")
    func twice() throws {
        let (source, _, _) = try source()
        let exported = try export(source, .csv)
        let target = try fresh("twice.sqlite")
        try importText(exported, into: target)
        let again = try importText(exported, into: target)
        #expect(again.items == 0 && again.pieces == 0 && again.completed.isEmpty)
        #expect(try target.db.integer("SELECT count(*) FROM waiting_parts") == 4)
    }

    @Test("an import keeps the target within its waiting limits, and says which messages it dropped")
    func limits() throws {
        let (source, _, _) = try source()
        let target = try fresh("limited.sqlite")
        target.waitingLimits.messages = 1
        let imported = try importText(try export(source, .json), into: target)
        #expect(imported.dropped.map(\.reason) == [.tooManyMessages])
        #expect(try target.waitingMessages().count == 1)
    }

    @Test("exports of version 1 (JSON without a version line, CSV with 11 columns) still import")
    func versionOne() throws {
        let target = try fresh("old.sqlite")
        let json = #"{"id":1,"received_at":"2026-01-01T00:00:00Z","source_kind":"file","source":"a.png","symbology":"qr","#
            + #""kind":"text","text":"old","bytes_base64":"b2xk","corners":[],"pinned":false}"#
        let csv = InboxFormat.csvHeaderVersion1 + "\r\n2,2026-01-02T00:00:00Z,file,b.png,qr,text,older,b2xkZXI=,,,1\r\n"
        #expect(try importText(json + "\n", into: target).items == 1)
        #expect(try importText(csv, into: target).items == 1)
        #expect(try target.list(InboxQuery()).map(\.text) == ["older", "old"])
        // In version 1, a "waiting" field is one the reader does not know, not a piece.
        var old = reader(json.replacingOccurrences(of: "{\"id\":1", with: "{\"waiting\":\"parts\",\"id\":1"))
        #expect(try old.next()?.item?.text == "old")
    }

    @Test("the worked example of docs/FORMAT.md, section 10.4, is what an export writes, and imports again")
    func workedExample() throws {
        let inbox = try fresh("example.sqlite")
        try inbox.add([InboxItem(receivedAt: Timestamp.parse("2026-12-01T10:00:00Z")!, sourceKind: .file, source: "/scans/a.png",
                                 symbology: "qr", bytes: Array("hello".utf8), text: "hello", kind: .text)], dedupe: .never)
        let symbol = Inbox.Piece(structuredAppend: 0, of: 2, parity: 0x3F, bytes: Array("Meet at the north gate at 0900. ".utf8))
        let time = Timestamp.parse("2026-12-01T10:05:00Z")!
        _ = try inbox.receive(symbol, symbology: "qr", receivedAt: time, sourceKind: .file, source: "/scans/b.png")
        let page = try String(contentsOf: Tools.packageRoot.appendingPathComponent("docs/FORMAT.md"), encoding: .utf8)
        let section = String(try #require(page.range(of: "### 10.4 Worked example").map { page[$0.lowerBound...] }))
        let json = try export(inbox, .json)
        for line in json.split(separator: "\n") { #expect(section.contains("\n" + line + "\n"), "\(line)") }
        let csv = try export(inbox, .csv).split(separator: "\r\n").last.map(String.init) ?? ""
        #expect(section.contains("\n" + csv + "\n"), "\(csv)")
        let again = try fresh("again.sqlite")
        try importText(json, into: again)
        #expect(try export(again, .json) == json)
    }

    /// A version 2 JSON piece line with `fields` changed (nil removes one).
    static func pieceLine(_ fields: [String: Any?]) -> String {
        let part = try! MessageParts.split(try! InnerPlaintext.encode(.text("a message in two parts"), compress: false),
                                           dataParts: 2, totalParts: 2)[0]
        var object: [String: Any] = ["waiting": "parts", "received_at": "2026-01-01T00:00:00Z", "source_kind": "file",
                                     "source": "a.png", "symbology": "qr", "bytes_base64": Data(part.frame).base64EncodedString()]
        for (key, value) in fields { object[key] = value }
        return String(decoding: try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
    }

    static func base64(_ bytes: [UInt8]) -> String { Data(bytes).base64EncodedString() }

    static let goodPart = try! MessageParts.split(try! InnerPlaintext.encode(.text("a message in two parts"), compress: false),
                                                  dataParts: 2, totalParts: 2)[0].frame

    @Test("hostile, truncated and oversized waiting parts fail the import naming their line; nothing is stored", arguments: [
        (#"{"qrseal_inbox_export":3}"#, "newer than this qrseal reads (up to 2)"),
        (#"{"qrseal_inbox_export":"2"}"#, "whole number"),
        (#"{"qrseal_inbox_export":0}"#, "whole number"),
        (pieceLine(["waiting": "spaceship"]), "unknown waiting 'spaceship'"),
        (pieceLine(["waiting": 7]), "fields must be strings"),
        (pieceLine(["received_at": nil]), "received_at"),
        (pieceLine(["source_kind": "moon"]), "unknown source_kind"),
        (pieceLine(["bytes_base64": "!!"]), "bad base64"),
        (pieceLine(["bytes_base64": base64(Array(goodPart.prefix(12)))]), "part: too short"),
        (pieceLine(["bytes_base64": base64(Array(goodPart.dropLast()))]), "damaged part: "),
        (pieceLine(["bytes_base64": base64(goodPart.enumerated().map { $0 == 20 ? $1 ^ 1 : $1 })]), "its check does not match"),
        (pieceLine(["bytes_base64": base64([0x11, 0, 0] + Array(goodPart.dropFirst(3)))]), "damaged part: no data parts"),
        (pieceLine(["bytes_base64": base64([UInt8](repeating: 0x11, count: 5000))]), "more than one code holds"),
        (pieceLine(["waiting": "structured-append"]), "sequence_count 1 to 16"),
        (pieceLine(["waiting": "structured-append", "sequence_index": 0, "sequence_count": 17, "sequence_parity": 1]), "sequence_count"),
        (pieceLine(["waiting": "structured-append", "sequence_index": 3, "sequence_count": 3, "sequence_parity": 1]), "sequence_count"),
        (pieceLine(["waiting": "structured-append", "sequence_index": -1, "sequence_count": 3, "sequence_parity": 1]), "sequence_count"),
        (pieceLine(["waiting": "structured-append", "sequence_index": 0, "sequence_count": 3, "sequence_parity": 70000]), "sequence_count"),
        (pieceLine(["waiting": "structured-append", "sequence_index": 0.5, "sequence_count": 3, "sequence_parity": 1]), "whole numbers"),
        (pieceLine(["waiting": "structured-append", "sequence_index": "0", "sequence_count": 3, "sequence_parity": 1]), "whole numbers"),
    ])
    func hostileJSON(line: String, reason: String) throws {
        let target = try fresh("hostile.sqlite")
        // The version line, an item, a good piece, then the bad line.
        let item = #"{"received_at":"2026-01-01T00:00:00Z","source_kind":"file","source":"a","symbology":"qr","kind":"text","text":"a","bytes_base64":"YQ=="}"#
        let version = line.hasPrefix(#"{"qrseal_inbox_export""#)
        let text = (version ? [line, item] : [InboxFormat.json.header, item, Self.pieceLine([:]), line]).joined(separator: "\n")
        do {
            try importText(text, into: target)
            Issue.record("the import should have failed")
        } catch {
            guard case .badImport(let number, let message) = error else { Issue.record("\(error)"); return }
            #expect(number == (version ? 1 : 4))
            #expect(message.contains(reason), "\(message)")
        }
        #expect(try target.count(InboxQuery()) == 0)
        #expect(try target.waitingMessages().isEmpty)
    }

    @Test("hostile waiting parts in CSV fail the import naming their line", arguments: [
        ("2026-01-01T00:00:00Z,file,a.png,qr,,,\(base64(goodPart)),,,,parts,,,", "expected 16 fields"),
        (",2026-01-01T00:00:00Z,file,a.png,qr,,,\(base64(goodPart)),,,,parts,x,,,", "sequence_index must be a whole number"),
        (",2026-01-01T00:00:00Z,file,a.png,qr,,,\(base64(Array(goodPart.dropLast()))),,,,parts,,,,", "damaged part"),
        (",2026-01-01T00:00:00Z,file,a.png,qr,,,YWJj,,,,structured-append,0,0,1,", "sequence_count 1 to 16"),
        (",2026-01-01T00:00:00Z,file,a.png,,,,YWJj,,,,structured-append,0,1,1,", "source and symbology are required"),
    ])
    func hostileCSV(record: String, reason: String) throws {
        let target = try fresh("hostile.sqlite")
        let good = ",2026-01-01T00:00:00Z,file,a.png,qr,,,\(Self.base64(Self.goodPart)),,,,parts,,,,"
        do {
            try importText([InboxFormat.csvHeader, good, record].joined(separator: "\r\n"), into: target)
            Issue.record("the import should have failed")
        } catch {
            guard case .badImport(3, let message) = error else { Issue.record("\(error)"); return }
            #expect(message.contains(reason), "\(message)")
        }
        #expect(try target.waitingMessages().isEmpty)
    }
}
