import Foundation
import Testing
import TestSupport
@testable import QRSealKit

/// The intake: what comes back for each thing received, as a front end sees it.
@Suite("Intake")
struct IntakeTests {
    let dir = try! TempDir()
    let corners = [Point(x: 0, y: 0), Point(x: 10, y: 0), Point(x: 10, y: 10), Point(x: 0, y: 10)]
    let source = IntakeSource.file("/scans/a.png")

    func symbol(_ bytes: [UInt8]) -> Detection { Detection(symbology: .qr, bytes: bytes, corners: corners) }
    func symbol(_ text: String) -> Detection { symbol(Array(text.utf8)) }

    func keeping(_ name: String = "inbox.sqlite", dedupe: DedupePolicy = .always) -> Intake.Keeping {
        let path = dir.path(name)
        return .inbox(open: { () throws(InboxError) in try Inbox(path: path) }, dedupe: dedupe)
    }

    /// The part symbols of `text`, unsealed, `k` of `n` rebuild it.
    func parts(_ text: String, k: Int = 2, n: Int = 3) throws -> [Detection] {
        let whole = try InnerPlaintext.encode(.text(text), compress: false)
        return try MessageParts.split(whole, dataParts: k, totalParts: n).map { symbol(Armor.magic + $0.frame) }
    }

    @Test("a plain code is kept and handed back as plain, with its inbox id; the same code again is a repeat of it")
    func plainKept() throws {
        let intake = Intake(reader: Reader(), keeping: keeping())
        let first = intake.take([symbol("hello")], from: source)[0]
        guard case .message(.plain) = first.event else { Issue.record("\(first.event)"); return }
        let id = try #require(first.kept?.id)
        #expect(first.kept?.isRepeat == false)
        let again = intake.take([symbol("hello")], from: source)[0]
        #expect(again.kept == Inbox.Kept(id: id, isRepeat: true))
        #expect(try Inbox(path: dir.path("inbox.sqlite")).item(id).text == "hello")
    }

    @Test("with nothing kept there is no inbox id and no inbox file")
    func nothingKept() {
        let intake = Intake(reader: Reader(), keeping: .nothing)
        let outcome = intake.take([symbol("hello")], from: source)[0]
        #expect(outcome.kept == nil && outcome.inboxFailure == nil)
        #expect(!FileManager.default.fileExists(atPath: dir.path("inbox.sqlite")))
    }

    @Test("a passphrase message is locked for a passphrase, kept sealed; given the key, reopen opens it")
    func lockedThenReopened() throws {
        let sealed = try Sealer(scrypt: ScryptParameters(log2N: 10, r: 8, p: 1)).seal(.text("meet at noon"), with: .passphrase("pw"))
        let intake = Intake(reader: Reader(), keeping: keeping())
        let outcome = intake.take([symbol(Armor.magic + sealed)], from: source)[0]
        #expect(outcome.isLocked(.passphrase))
        #expect(outcome.classification.isSealed)
        let stored = try Inbox(path: dir.path("inbox.sqlite")).item(try #require(outcome.kept?.id))
        #expect(stored.kind == .sealed && stored.bytes == Armor.magic + sealed)
        #expect(!intake.hasPassphrase)
        intake.add(.passphrase("pw"))
        #expect(intake.reopen(outcome).content == .opened(.text("meet at noon")))
    }

    @Test("a mistyped passphrase given to reopen fails and is not kept: the message stays locked for the next try, which opens it")
    func reopenWithAWrongThenRightPassphrase() throws {
        let sealed = try Sealer(scrypt: ScryptParameters(log2N: 10, r: 8, p: 1)).seal(.text("meet at noon"), with: .passphrase("pw"))
        let intake = Intake(reader: Reader(), keeping: .nothing, oncePerSession: true)
        let outcome = intake.take([symbol(Armor.magic + sealed)], from: source)[0]
        #expect(intake.reopen(outcome, with: .passphrase("pq")).content == .failed(.authenticationFailed))
        #expect(!intake.hasPassphrase)
        // Seen again in the same session, it is still locked, not failed.
        #expect(intake.take([symbol(Armor.magic + sealed)], from: source)[0].isLocked(.passphrase))
        #expect(intake.reopen(outcome, with: .passphrase("pw")).content == .opened(.text("meet at noon")))
        #expect(intake.hasPassphrase)
        #expect(intake.take([symbol(Armor.magic + sealed)], from: source)[0].content == .opened(.text("meet at noon")))
    }

    @Test("a wrong key fails authentication, never yields content")
    func wrongKey() throws {
        let sealed = try Sealer(scrypt: ScryptParameters(log2N: 10, r: 8, p: 1)).seal(.text("x"), with: .passphrase("pw"))
        let intake = Intake(reader: Reader(keys: [.passphrase("other")]), keeping: .nothing)
        #expect(intake.take([symbol(Armor.magic + sealed)], from: source)[0].content == .failed(.authenticationFailed))
    }

    @Test("parts report their progress, the last completes the message as opened text, and a later part is a repeat with the same content")
    func partsComplete() throws {
        let pieces = try parts("a message long enough to be split into several parts")
        let intake = Intake(reader: Reader(), keeping: keeping())
        let first = intake.take([pieces[0]], from: source)[0]
        guard case .piece(let p) = first.event, case .waiting(isNew: true) = p.state else { Issue.record("\(first.event)"); return }
        #expect(p.progress.have == 1 && p.progress.needed == 1 && p.index == 0)
        #expect(first.kept == nil)
        let second = intake.take([pieces[2]], from: source)[0]
        let message = try #require({ if case .piece(let p) = second.event { return p.completed } else { return nil } }())
        #expect(!message.isRepeat && !message.isSealed)
        #expect(message.content == .opened(.text("a message long enough to be split into several parts")))
        #expect(second.kept?.id == message.item.id)
        let third = intake.take([pieces[1]], from: source)[0]
        let again = try #require({ if case .piece(let p) = third.event { return p.completed } else { return nil } }())
        #expect(again.isRepeat && again.content == message.content && third.kept?.id == message.item.id)
    }

    @Test("a file in unsealed parts comes back as that file, now and from the inbox later")
    func fileFromParts() throws {
        let bytes = (0..<600).map { UInt8($0 % 251) }
        let whole = try InnerPlaintext.encode(.file(name: "data.bin", bytes: bytes), compress: false)
        let pieces = try MessageParts.split(whole, dataParts: 2, totalParts: 3).map { symbol(Armor.magic + $0.frame) }
        let intake = Intake(reader: Reader(), keeping: keeping())
        _ = intake.take([pieces[0]], from: source)
        let done = intake.take([pieces[1]], from: source)[0]
        #expect(done.content == .opened(.file(name: "data.bin", bytes: bytes)))
        let item = try Inbox(path: dir.path("inbox.sqlite")).item(try #require(done.kept?.id))
        #expect(item.fileName == "data.bin" && item.bytes == bytes)
        #expect(Intake(reader: Reader(), keeping: .nothing).content(of: item) == .opened(.file(name: "data.bin", bytes: bytes)))
    }

    @Test("a damaged part header is a damaged piece, filed nowhere")
    func damagedPiece() throws {
        var bytes = try parts("some text to split in parts")[0].bytes
        bytes[Armor.magic.count + 14] ^= 0xFF
        let outcome = Intake(reader: Reader(), keeping: .nothing).take([symbol(bytes)], from: source)[0]
        guard case .damagedPiece = outcome.event else { Issue.record("\(outcome.event)"); return }
        #expect(outcome.classification.isPiece)
    }

    @Test("once a session, the same code is opened and kept once, then handed back as seen before")
    func oncePerSession() throws {
        let intake = Intake(reader: Reader(), keeping: keeping(dedupe: .never), oncePerSession: true)
        let first = intake.take([symbol("hello")], from: source)[0]
        let again = intake.take([symbol("hello")], from: source)[0]
        #expect(!first.isSeenBefore && again.isSeenBefore && again.kept == first.kept)
        #expect(try Inbox(path: dir.path("inbox.sqlite")).count(InboxQuery()) == 1)
    }

    @Test("an inbox that cannot be opened is said once; codes are still read and a message in parts still completes in memory")
    func inboxFails() throws {
        let intake = Intake(reader: Reader(), keeping: .inbox(open: { () throws(InboxError) in
            throw .cannotOpen(path: "/nowhere/inbox.sqlite", reason: "no such folder")
        }, dedupe: .always))
        let first = intake.take([symbol("hello")], from: source)[0]
        #expect(first.inboxFailure != nil && first.kept == nil)
        #expect(first.content == .plain)
        let pieces = try parts("a message that still completes without an inbox")
        let outcomes = intake.take([pieces[0], pieces[1]], from: source)
        #expect(outcomes.allSatisfy { $0.inboxFailure == nil })
        #expect(outcomes[1].content == .opened(.text("a message that still completes without an inbox")))
    }

    @Test("pasted digits armor is kept as its canonical text and opened; other text fails as not sealed")
    func pasted() throws {
        let key = SealKey.keyFile(try SecretKey.generate())
        let armor = Armor.text(for: try Sealer().seal(.text("hi"), with: key))
        let intake = Intake(reader: Reader(keys: [key]), keeping: keeping())
        let spaced = String(armor.prefix(20)) + "\n " + String(armor.dropFirst(20))
        let outcome = intake.take(pasted: spaced, from: IntakeSource(name: "-", recorded: "pasted text", kind: .text))
        #expect(outcome.content == .opened(.text("hi")))
        #expect(try Inbox(path: dir.path("inbox.sqlite")).item(try #require(outcome.kept?.id)).text == armor)
        guard case .damagedSealed = intake.take(pasted: "hello", from: source).classification else {
            Issue.record("plain text is no sealed message"); return
        }
    }
}
