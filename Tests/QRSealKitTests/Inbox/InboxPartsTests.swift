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

    @discardableResult
    func receive(_ inbox: Inbox, _ piece: Inbox.Piece, at time: Int64 = 1_000) throws -> Inbox.PieceReceipt {
        try received(inbox, piece, at: time).receipt
    }

    func received(_ inbox: Inbox, _ piece: Inbox.Piece, at time: Int64 = 1_000) throws -> Inbox.Received {
        try inbox.receive(piece, symbology: "qr", receivedAt: time, sourceKind: .file, source: "/scan.png")
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

    /// Part `index` of `part`'s message with one chunk byte changed, made as anyone can: its
    /// check needs no key, so the frame passes the part check.
    func forged(_ part: Part, flipping byte: Int = 5) throws -> Part {
        var chunk = part.chunk
        chunk[byte] ^= 0x20
        let made = Part(messageID: part.messageID, dataParts: part.dataParts, totalParts: part.totalParts, index: part.index,
                        length: part.length, chunk: chunk)
        return try Part(frame: made.frame)
    }

    @Test("a tampered part whose check was forged makes a message that fails its hash: reported, nothing written, all kept")
    func hashFailure() throws {
        let inbox = try fresh()
        let all = try parts(text(300), k: 3, n: 5)
        try receive(inbox, all[0])
        try receive(inbox, try forged(all[3]))
        guard case .damaged(.damagedMessage, let progress) = try receive(inbox, all[1]) else { Issue.record("not damaged"); return }
        #expect(progress.have == 3)
        #expect(try inbox.count(InboxQuery()) == 0)
        // Every part waits, the one that would have completed it too.
        #expect(try waitingParts(inbox) == 3 && inbox.waitingMessages().count == 1)
    }

    @Test("a forged part scanned first does not block its message: the sender's part scanned later completes it")
    func forgedFirst() throws {
        let inbox = try fresh()
        let message = text(300)
        let all = try parts(message, k: 3, n: 5)
        try receive(inbox, try forged(all[1]))
        try receive(inbox, all[0])
        guard case .damaged = try receive(inbox, all[2]) else { Issue.record("a forged set was not refused"); return }
        #expect(try inbox.waitingMessages().map(\.text) == ["3 of 5 parts, no set of them fits: a part is not the sender's"])
        guard case .completed(let item, _, let progress) = try receive(inbox, all[1]) else {
            Issue.record("the sender's part 2, scanned after a forged one, did not complete the message"); return
        }
        #expect(item.text == message && progress.needed == 0)
        #expect(try inbox.waitingMessages().isEmpty && waitingParts(inbox) == 0)
    }

    @Test("forged parts at several indexes are passed over: by other pieces at their index or by parts beyond them")
    func forgedAtSeveral() throws {
        let message = text(400)
        let all = try parts(message, k: 3, n: 6)
        // The sender's part at each forged index, scanned last.
        var inbox = try fresh("each.sqlite")
        for part in all.prefix(3) { try receive(inbox, try forged(part)) }
        for part in all.prefix(2) {
            guard case .damaged = try receive(inbox, part) else { Issue.record("joined with forged parts"); return }
        }
        guard case .completed(let first, _, _) = try receive(inbox, all[2]) else { Issue.record("not completed"); return }
        #expect(first.text == message)
        // Parts beyond the forged ones: a set that leaves those out.
        inbox = try fresh("beyond.sqlite")
        for part in all.prefix(2) { try receive(inbox, try forged(part)) }
        try receive(inbox, all[2])
        try receive(inbox, all[3])
        guard case .completed(let second, _, _) = try receive(inbox, all[4]) else { Issue.record("not completed"); return }
        #expect(second.text == message)
    }

    @Test("a flood of forged parts at one index keeps a bounded few, and the sender's part still completes the message")
    func forgedFlood() throws {
        let inbox = try fresh()
        let message = text(300)
        let all = try parts(message, k: 3, n: 5)
        for byte in 0..<40 { try receive(inbox, try forged(all[1], flipping: byte)) }
        let limit = inbox.waitingLimits.piecesPerIndex
        #expect(try waitingParts(inbox) == limit)
        try receive(inbox, all[0])
        try receive(inbox, all[2])
        #expect(try inbox.count(InboxQuery()) == 0)
        guard case .completed(let item, _, _) = try receive(inbox, all[1]) else { Issue.record("not completed"); return }
        #expect(item.text == message)
    }

    @Test("at most so many messages wait, and one that gains no part for 30 days expires: the oldest go, and are named")
    func limits() throws {
        let inbox = try fresh()
        inbox.waitingLimits.messages = 3
        let messages = try (0..<4).map { try parts(text(100 + $0), k: 3, n: 4) }
        let firsts = messages.map { $0[0] }
        for (n, part) in firsts.prefix(3).enumerated() { try receive(inbox, part, at: 1_000 + Int64(n)) }
        // The first gains a part later: the second is now the one added to least recently.
        try receive(inbox, messages[0][2], at: 2_000)
        let full = try received(inbox, Inbox.Piece(firsts[3]), at: 3_000)
        #expect(full.dropped.map(\.progress.idText) == [firsts[1].idText] && full.dropped.first?.reason == .tooManyMessages)
        #expect(try inbox.waitingMessages().count == 3)
        let later = try parts(text(90), k: 2, n: 3)[0]
        let month = try received(inbox, Inbox.Piece(later), at: 3_000 + inbox.waitingLimits.expiry + 1)
        #expect(month.dropped.count == 3 && month.dropped.allSatisfy { $0.reason == .expired })
        #expect(try inbox.waitingMessages().map(\.idText) == [later.idText])
        // Pieces in all: the other messages go, never the one a piece is added to.
        inbox.waitingLimits.pieces = 2
        let big = try parts(text(400), k: 4, n: 6)
        try receive(inbox, big[0], at: 5_000_000_000)
        let over = try received(inbox, Inbox.Piece(big[1]), at: 5_000_000_001)
        #expect(over.dropped.map(\.progress.idText) == [later.idText] && over.dropped.first?.reason == .tooManyPieces)
        #expect(try inbox.waitingMessages().map(\.text) == ["2 of 6 parts, 2 more needed"])
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

    /// The Structured Append pieces of `texts`, with the parity byte QR gives them: the XOR of
    /// every byte of the message, or `parity`.
    func sequence(_ texts: [String], parity: Int? = nil) -> [Inbox.Piece] {
        let xor = Int(texts.flatMap { Array($0.utf8) }.reduce(0, ^))
        return texts.enumerated().map {
            Inbox.Piece(structuredAppend: $0.offset, of: texts.count, parity: parity ?? xor, bytes: Array($0.element.utf8))
        }
    }

    @Test("a Structured Append sequence is joined in order once all its symbols are there")
    func structuredAppend() throws {
        let inbox = try fresh()
        let pieces = sequence(["Hello, ", "Structured ", "Append"])
        try receive(inbox, pieces[2])
        try receive(inbox, pieces[0])
        #expect(try inbox.waitingMessages().map(\.text) == ["2 of 3 parts, 1 more needed"])
        guard case .completed(let item, _, _) = try receive(inbox, pieces[1]) else { Issue.record("not joined"); return }
        #expect(item.text == "Hello, Structured Append")
    }

    @Test("two Structured Append sequences with the same count and parity are never joined; each is, from its own symbols")
    func structuredAppendCollision() throws {
        let inbox = try fresh()
        let a = sequence(["Meet at the north gate at 0900", ". Bring the red folder and the", " money."])
        let b = sequence(["Meet at the south gate at 0930", ". Bring the blue folder and th", "e keys."])
        try #require(a[0].messageID == b[0].messageID && a[0].bytes.reduce(0, ^) != b[0].bytes.reduce(0, ^))
        try receive(inbox, a[0])
        try receive(inbox, b[1])
        guard case .damaged(.parityMismatch, let progress) = try receive(inbox, b[2]) else {
            Issue.record("symbols of two sequences were joined"); return
        }
        #expect(progress.needed == 0)
        #expect(try inbox.count(InboxQuery()) == 0)
        guard case .completed(let second, _, _) = try receive(inbox, b[0]) else { Issue.record("B not joined"); return }
        #expect(second.text == "Meet at the south gate at 0930. Bring the blue folder and the keys.")
        // A's symbols are not taken for B's, received before.
        try receive(inbox, a[1])
        try receive(inbox, a[2])
        guard case .completed(let first, _, _) = try receive(inbox, a[0]) else { Issue.record("A not joined"); return }
        #expect(first.text == "Meet at the north gate at 0900. Bring the red folder and the money.")
        guard case .alreadyComplete = try receive(inbox, a[1]) else { Issue.record("A's symbol taken again"); return }
    }

    @Test("a Data Matrix sequence's file identification is no check of its data: it is joined as it comes")
    func dataMatrixSequence() throws {
        let inbox = try fresh()
        let pieces = sequence(["Data ", "Matrix"], parity: 0x0102)
        try receive(inbox, pieces[1])
        guard case .completed(let item, _, _) = try receive(inbox, pieces[0]) else { Issue.record("not joined"); return }
        #expect(item.text == "Data Matrix")
    }

    @Test("an inbox of schema 4 keeps its waiting parts, which still complete their message")
    func migrationFromFour() throws {
        let path = dir.path("four.sqlite")
        let message = text(200)
        let all = try parts(message, k: 2, n: 3)
        do {
            // What schema 4 held: one row per index, the first part received.
            let old = try Inbox(path: path, schemaVersion: 4)
            try old.db.prepare("""
                INSERT INTO part_messages (kind, message_id, data_parts, total_parts, length, symbology, source_kind, source,
                                           first_seen, last_seen) VALUES ('parts', ?, 2, 3, ?, 'qr', 'file', '/scan.png', 1, 1)
                """, [.integer(Int64(all[0].messageID)), .integer(Int64(all[0].length))]).run()
            try old.db.prepare("INSERT INTO waiting_parts (message, part_index, chunk, received_at) VALUES (?, 0, ?, 1)",
                               [.integer(old.db.lastInsertID), .blob(all[0].chunk)]).run()
        }
        let inbox = try Inbox(path: path)
        #expect(try inbox.schemaVersion == InboxSchema.currentVersion)
        #expect(try inbox.waitingMessages().map(\.text) == ["1 of 3 parts, 1 more needed"])
        guard case .completed(let item, _, _) = try receive(inbox, all[2]) else { Issue.record("not completed"); return }
        #expect(item.text == message)
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
        #expect(try inbox.schemaVersion == InboxSchema.currentVersion && inbox.count(InboxQuery()) == 1)
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
