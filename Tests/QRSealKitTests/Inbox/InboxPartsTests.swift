import Foundation
import Testing
import TestSupport
@testable import QRSealKit

/// Parts waiting in the inbox until their message is complete (docs/FORMAT.md, section 8.5).
@Suite("Inbox: waiting parts")
struct InboxPartsTests {
    let dir = try! TempDir()

    func fresh(_ name: String = "inbox.sqlite") throws -> Inbox { try Inbox(path: dir.path(name)) }

    /// The parts of a plain text message of `length` bytes, K data parts of N.
    func parts(_ text: String, k: Int, n: Int) throws -> [Part] {
        let whole = try InnerPlaintext.encode(.text(text), compress: false)
        return try MessageParts.split(whole, dataParts: k, totalParts: n)
    }

    func text(_ count: Int) -> String { String((0..<count).map { _ in "abcdefghijklmnopqrstuvwxyz".randomElement()! }) }

    @discardableResult
    func receive(_ inbox: Inbox, _ part: Part, at time: Int64 = 1_000) throws -> Inbox.PieceReceipt {
        try receive(inbox, Inbox.Piece(part), at: time)
    }

    func receive(_ inbox: Inbox, _ piece: Inbox.Piece, at time: Int64 = 1_000) throws -> Inbox.PieceReceipt {
        try inbox.receive(piece, symbology: "qr", receivedAt: time, sourceKind: .file, source: "/scan.png") { whole throws(PartsError) in
            piece.kind == .parts
                ? try RebuiltMessage.item(whole: whole, symbology: "qr", receivedAt: time, sourceKind: .file, source: "/scan.png")
                : RebuiltMessage.joinedItem(whole, symbology: "qr", receivedAt: time, sourceKind: .file, source: "/scan.png")
        }
    }

    func waitingParts(_ inbox: Inbox) throws -> Int { Int(try inbox.db.integer("SELECT count(*) FROM waiting_parts")) }

    @Test("parts in any order over several openings complete the message as one item; its parts are then gone")
    func anyOrderAcrossCalls() throws {
        let message = text(400)
        let all = try parts(message, k: 6, n: 9).shuffled()
        do {
            let inbox = try fresh()
            for part in all.prefix(3) { try receive(inbox, part) }
        }
        let inbox = try fresh()
        #expect(try inbox.waitingMessages().map(\.text) == ["3 of 9 parts, 3 more needed"])
        for part in all[3..<5] { try receive(inbox, part) }
        guard case .completed(let item, _, let progress) = try receive(inbox, all[5]) else {
            Issue.record("the sixth distinct part did not complete the message"); return
        }
        #expect(item.text == message && progress.needed == 0)
        #expect(try inbox.list(InboxQuery()).map(\.text) == [message])
        #expect(try inbox.waitingMessages().isEmpty)
        #expect(try waitingParts(inbox) == 0)
        // A later part of it is known, and stores nothing.
        guard case .alreadyComplete(let id, _) = try receive(inbox, all[8]) else { Issue.record("late part stored"); return }
        #expect(id == item.id)
        #expect(try inbox.count(InboxQuery()) == 1 && waitingParts(inbox) == 0)
    }

    @Test("a repeated part is not counted twice: progress never passes what is needed")
    func duplicates() throws {
        let inbox = try fresh()
        let all = try parts(text(300), k: 4, n: 6)
        try receive(inbox, all[0])
        guard case .waiting(let progress, let isNew) = try receive(inbox, all[0]) else { Issue.record("not waiting"); return }
        #expect(!isNew && progress.have == 1 && progress.needed == 3)
        #expect(progress.text == "1 of 6 parts, 3 more needed")
    }

    @Test("parts of two messages interleaved each complete their own")
    func interleaved() throws {
        let inbox = try fresh()
        let (a, b) = (text(200), text(250))
        let pa = try parts(a, k: 3, n: 5), pb = try parts(b, k: 4, n: 6)
        var texts: [String] = []
        for part in [pa[4], pb[5], pa[0], pb[1], pb[2], pa[2], pb[0]] {
            if case .completed(let item, _, _) = try receive(inbox, part) { texts.append(item.text ?? "") }
        }
        #expect(texts == [a, b])
    }

    @Test("a part with the same id but other counts is kept apart and reported, never mixed in")
    func foreign() throws {
        let inbox = try fresh()
        let message = text(300)
        let three = try parts(message, k: 3, n: 5), four = try parts(message, k: 4, n: 6)
        #expect(three[0].messageID == four[0].messageID)
        try receive(inbox, three[0])
        try receive(inbox, three[1])
        guard case .conflicting(_, let other) = try receive(inbox, four[0]) else { Issue.record("not reported"); return }
        #expect(other.have == 2 && other.dataParts == 3)
        #expect(try inbox.waitingMessages().count == 2)
        guard case .completed(let item, _, _) = try receive(inbox, three[4]) else { Issue.record("not completed"); return }
        #expect(item.text == message)
        #expect(try inbox.waitingMessages().map(\.text) == ["1 of 6 parts, 3 more needed"])
    }

    @Test("a tampered part whose check was forged makes a message that fails its hash: reported, nothing written")
    func hashFailure() throws {
        let inbox = try fresh()
        let all = try parts(text(300), k: 3, n: 5)
        var chunk = all[3].chunk
        chunk[5] ^= 0x20
        let forged = Part(messageID: all[3].messageID, dataParts: 3, totalParts: 5, index: 3, length: all[3].length, chunk: chunk)
        try receive(inbox, all[0])
        try receive(inbox, forged)
        guard case .damaged(.damagedMessage, let progress) = try receive(inbox, all[1]) else { Issue.record("not damaged"); return }
        #expect(progress.have == 3)
        #expect(try inbox.count(InboxQuery()) == 0)
        // The part that would have completed it was not stored: the two before it wait.
        #expect(try waitingParts(inbox) == 2)
    }

    @Test("a sealed message rebuilt from parts is stored sealed, as its binary armor")
    func sealedStaysSealed() throws {
        let inbox = try fresh()
        let key = try SecretKey.generate()
        let envelope = try Sealer().seal(.text(text(500)), with: .keyFile(key))
        let all = try MessageParts.split(envelope, dataParts: 3, totalParts: 4)
        for part in all.dropFirst(1).dropLast() { try receive(inbox, part) }
        guard case .completed(let item, let whole, _) = try receive(inbox, all[3]) else { Issue.record("not completed"); return }
        #expect(whole == envelope)
        #expect(item.kind == .sealed && item.bytes == Armor.magic + envelope && item.text == nil)
        #expect(Reader(keys: [.keyFile(key)]).open(symbolBytes: try inbox.item(item.id!).bytes) != .plain)
    }

    @Test("a Structured Append sequence is joined in order once all its symbols are there")
    func structuredAppend() throws {
        let inbox = try fresh()
        let pieces = ["Hello, ", "Structured ", "Append"].enumerated().map {
            Inbox.Piece(structuredAppend: $0.offset, of: 3, parity: 0x42, bytes: Array($0.element.utf8))
        }
        try receive(inbox, pieces[2])
        try receive(inbox, pieces[0])
        #expect(try inbox.waitingMessages().map(\.text) == ["2 of 3 parts, 1 more needed"])
        guard case .completed(let item, _, _) = try receive(inbox, pieces[1]) else { Issue.record("not joined"); return }
        #expect(item.text == "Hello, Structured Append")
    }

    @Test("an inbox of schema 3 gains the tables of waiting parts and keeps its items")
    func migration() throws {
        let path = dir.path("old.sqlite")
        do {
            let old = try Inbox(path: path, schemaVersion: 3)
            try old.add([InboxItem(receivedAt: 1, sourceKind: .file, source: "/a", symbology: "qr", bytes: [0x61],
                                   text: "a", kind: .text)], dedupe: .never)
        }
        #expect(try Inbox(path: path, access: .readOnly).waitingMessages().isEmpty)
        let inbox = try Inbox(path: path)
        #expect(try inbox.schemaVersion == 4 && inbox.count(InboxQuery()) == 1)
        try receive(inbox, try parts(text(100), k: 2, n: 3)[0])
        #expect(try inbox.waitingMessages().count == 1)
    }

    @Test("a waiting part altered in the file (cut short, or out of range) makes the message damaged, not a crash")
    func alteredRows() throws {
        let all = try parts(text(300), k: 3, n: 5)
        for edit in ["UPDATE waiting_parts SET chunk = substr(chunk, 1, 10)", "UPDATE waiting_parts SET part_index = 70000",
                     "UPDATE waiting_parts SET chunk = zeroblob(200000)"] {
            let inbox = try fresh("altered-\(edit.hashValue).sqlite")
            try receive(inbox, all[0])
            try receive(inbox, all[3])
            try inbox.db.execute(edit + " WHERE part_index = 3")
            let receipt = try receive(inbox, all[4])
            switch receipt {
            case .damaged, .waiting: break
            default: Issue.record("\(edit): \(receipt)")
            }
            #expect(try inbox.count(InboxQuery()) == 0, "\(edit)")
        }
    }

    @Test("waiting messages can be removed, by id or all")
    func removing() throws {
        let inbox = try fresh()
        let a = try parts(text(100), k: 2, n: 3), b = try parts(text(120), k: 2, n: 3)
        try receive(inbox, a[0])
        try receive(inbox, b[0])
        #expect(try inbox.removeWaiting([a[0].idText]) == 1)
        #expect(try inbox.waitingMessages().map(\.idText) == [b[0].idText])
        #expect(try inbox.removeWaiting() == 1 && waitingParts(inbox) == 0)
    }
}
