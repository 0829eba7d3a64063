import Foundation
import Testing
@testable import QRSealKit

@Suite("age v1 files: sealing, opening and hostile input")
struct AgeFileTests {
    static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    @Test("a file sealed to several recipients opens with each identity, and not with another")
    func severalRecipients() throws {
        let people = try (0..<3).map { _ in try AgeIdentity.generate() }
        let file = try AgeFile.seal(Array("for three".utf8), to: people.map(\.recipient))
        for person in people {
            #expect(try AgeFile.open(file, keys: [.identity(person)], opener: Opener()) == Array("for three".utf8))
        }
        #expect(throws: SealError.noIdentityMatches) {
            try AgeFile.open(file, keys: [.identity(try AgeIdentity.generate())], opener: Opener())
        }
        // No identity at all is "no key" (so the tool can say what to pass); a passphrase given
        // instead is a key the file is not for (CCTV's scrypt_uppercase: "no match").
        #expect(throws: SealError.noKey(kind: .publicKey)) { try AgeFile.open(file, keys: [], opener: Opener()) }
        #expect(throws: SealError.noIdentityMatches) {
            try AgeFile.open(file, keys: [.passphrase("x")], opener: Opener())
        }
    }

    @Test("identities × X25519 stanzas is bounded: 200 identities against 100 recipients are refused before any key agreement, 100 open")
    func manyIdentitiesManyStanzas() throws {
        let recipients = try (0..<99).map { _ in try AgeIdentity.generate().recipient }
        let me = try AgeIdentity.generate()
        let file = try AgeFile.seal(Array("for a crowd".utf8), to: recipients + [me.recipient])
        let strangers = try (0..<199).map { _ in SealKey.identity(try AgeIdentity.generate()) }
        #expect(throws: SealError.tooManyTrials(identities: 200, stanzas: 100, limit: AgeFile.maxX25519Trials)) {
            try AgeFile.open(file, keys: strangers + [.identity(me)], opener: Opener())
        }
        // The same identity given twice counts once.
        let fewer = Array(strangers.prefix(99)) + [.identity(me), .identity(me)]
        #expect(try AgeFile.open(file, keys: fewer, opener: Opener()) == Array("for a crowd".utf8))
    }

    @Test("payloads at the STREAM chunk boundaries round-trip, binary and armored", arguments: [0, 1, 65535, 65536, 65537, 3 * 65536])
    func chunkBoundaries(size: Int) throws {
        let me = try AgeIdentity.generate()
        let plaintext = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        let file = try AgeFile.seal(plaintext, to: [me.recipient])
        let header = try AgeHeader(parsing: file)
        let chunks = max(1, (size + 65535) / 65536)
        #expect(file.count == header.length + 16 + size + 16 * chunks)
        #expect(try AgeFile.open(file, keys: [.identity(me)], opener: Opener()) == plaintext)
        let armored = Array(AgeArmor.encode(file).utf8)
        #expect(try AgeArmor.decode(armored) == file)
        #expect(try AgeFile.open(armored, keys: [.identity(me)], opener: Opener()) == plaintext)
    }

    @Test("a passphrase file opens with the passphrase; its work factor is checked before any derivation")
    func passphrase() throws {
        let file = try AgeFile.seal(Array("pw".utf8), passphrase: "right", workFactor: 10)
        #expect(try AgeFile.open(file, keys: [.passphrase("right")], opener: Opener()) == Array("pw".utf8))
        #expect(throws: SealError.noIdentityMatches) { try AgeFile.open(file, keys: [.passphrase("wrong")], opener: Opener()) }
        let costly = try AgeFile.seal(Array("pw".utf8), passphrase: "right", workFactor: 12)
        let opener = Opener(maxScryptLog2N: 11)
        #expect(throws: SealError.kdfTooCostly(log2N: 12, r: 8, p: 1, limit: 11)) {
            try AgeFile.open(costly, keys: [.passphrase("right")], opener: opener)
        }
        #expect(opener.budget.derivations == 0)
    }

    @Test("a changed header byte is a MAC failure, a changed payload byte a payload failure")
    func tampering() throws {
        let me = try AgeIdentity.generate(), other = try AgeIdentity.generate()
        let file = try AgeFile.seal(Array("intact".utf8), to: [me.recipient, other.recipient])
        let header = try AgeHeader(parsing: file)
        // Swap the two stanzas: every line still parses and unwraps, but the MAC covers the order.
        let swapped = AgeHeader.intro + header.stanzas[1].encoded + header.stanzas[0].encoded
            + Array("---".utf8) + Array(file[header.macInput.count...])
        #expect(throws: SealError.headerMACFailed) { try AgeFile.open(swapped, keys: [.identity(me)], opener: Opener()) }
        var payload = file
        payload[payload.count - 1] ^= 1
        #expect(throws: SealError.agePayload("chunk 1 does not authenticate (altered or cut off)")) {
            try AgeFile.open(payload, keys: [.identity(me)], opener: Opener())
        }
    }

    @Test("a file cut off anywhere is refused, never opened and never a crash")
    func truncatedAnywhere() throws {
        let me = try AgeIdentity.generate()
        let file = try AgeFile.seal(Array("cut me".utf8), to: [me.recipient])
        for length in 0..<file.count {
            #expect(throws: SealError.self) { try AgeFile.open(Array(file.prefix(length)), keys: [.identity(me)], opener: Opener()) }
        }
    }

    @Test("hostile headers: huge stanza counts, oversized lines, bad base64, other versions")
    func hostileHeaders() throws {
        let me = try AgeIdentity.generate()
        func open(_ text: String) throws { _ = try AgeFile.open(Array(text.utf8), keys: [.identity(me)], opener: Opener()) }
        let many = "age-encryption.org/v1\n" + String(repeating: "-> x\n\n", count: AgeHeader.maxStanzas + 1) + "--- x\n"
        #expect(throws: SealError.ageHeader("more than \(AgeHeader.maxStanzas) recipient stanzas")) { try open(many) }
        let long = "age-encryption.org/v1\n-> " + String(repeating: "a", count: AgeHeader.maxLength) + "\n"
        #expect(throws: SealError.ageHeader("longer than \(AgeHeader.maxLength) bytes")) { try open(long) }
        #expect(throws: SealError.ageHeader("a stanza body line is longer than 64 columns")) {
            try open("age-encryption.org/v1\n-> x\n" + String(repeating: "A", count: 65) + "\n--- x\n")
        }
        #expect(throws: SealError.ageHeader("a stanza body is not canonical base64 without padding")) {
            try open("age-encryption.org/v1\n-> x\nAB==\n--- x\n")
        }
        #expect(throws: SealError.ageHeader("a stanza body is not canonical base64 without padding")) {
            try open("age-encryption.org/v1\n-> x\nAB\n--- x\n")  // "AB" has non-zero unused bits
        }
        #expect(throws: SealError.ageHeader("unsupported version 'v2' (this reader knows v1)")) { try open("age-encryption.org/v2\n") }
        #expect(throws: SealError.ageHeader("no recipient stanza")) {
            try open("age-encryption.org/v1\n--- " + Base64.encode([UInt8](repeating: 0, count: 32), padded: false) + "\n")
        }
    }

    @Test("wrong STREAM chunk sizes: an empty last chunk after a full one, and bytes after the last chunk")
    func chunkSizes() throws {
        let me = try AgeIdentity.generate()
        let full = [UInt8](repeating: 7, count: 65536)
        let file = try AgeFile.seal(full, to: [me.recipient])
        let header = try AgeHeader(parsing: file)
        let fileKey = try AgeFile.fileKey(header, keys: [.identity(me)], maxScryptLog2N: 18, budget: OpeningBudget())
        let nonce = Array(file[header.length..<header.length + 16])
        let key = AgeStream.payloadKey(fileKey: fileKey, nonce: nonce)
        let notLast = try Crypto.chachaSeal(key: key, nonce: AgeStream.chunkNonce(0, last: false), plaintext: full)
        let emptyLast = try Crypto.chachaSeal(key: key, nonce: AgeStream.chunkNonce(1, last: true), plaintext: [])
        #expect(throws: SealError.agePayload("the last chunk is empty, which only an empty payload may have")) {
            try AgeFile.open(Array(file[..<(header.length + 16)]) + notLast + emptyLast, keys: [.identity(me)], opener: Opener())
        }
        #expect(throws: SealError.self) { try AgeFile.open(file + [0], keys: [.identity(me)], opener: Opener()) }
        #expect(throws: SealError.agePayload("cut off: chunk 1 is not marked as the last")) {
            try AgeFile.open(Array(file[..<(header.length + 16)]) + notLast, keys: [.identity(me)], opener: Opener())
        }
    }

    @Test("post-quantum and plugin recipients are refused with an error that names them")
    func unsupportedRecipients() throws {
        let pq = Bech32.encode(hrp: "age1pq", data: [UInt8](repeating: 1, count: 40))
        #expect(throws: SealError.unsupportedRecipient("age1pq (post-quantum ML-KEM-768 + X25519)")) { try AgeRecipient(text: pq) }
        let plugin = Bech32.encode(hrp: "age1yubikey", data: [UInt8](repeating: 1, count: 33))
        #expect(throws: SealError.unsupportedRecipient("age1yubikey (the age plugin age-plugin-yubikey)")) { try AgeRecipient(text: plugin) }
    }

    @Test("an identity's text form round-trips and gives the recipient; a file of age-keygen's form parses")
    func identityText() throws {
        let me = try AgeIdentity.generate()
        #expect(try AgeIdentity(text: me.text) == me)
        #expect(me.text.hasPrefix("AGE-SECRET-KEY-1") && me.recipient.text.hasPrefix("age1"))
        #expect(try AgeRecipient(text: me.recipient.qrText) == me.recipient)
        #expect(try AgeIdentity.parseFile(me.fileText(created: "2026-01-01T00:00:00Z")) == [me])
        #expect(throws: SealError.badKey("no AGE-SECRET-KEY-1 line in the file")) { try AgeIdentity.parseFile("# only a comment\n") }
        #expect(me.recipient.fingerprint.count == 19)
    }

    @Test("armor cut off or changed anywhere is refused as armor or header damage, never opened")
    func hostileArmor() throws {
        let me = try AgeIdentity.generate()
        let armored = Array(AgeArmor.encode(try AgeFile.seal(Array("armored".utf8), to: [me.recipient])).utf8)
        // Only the final line break may go: the end line needs none (CCTV's armor_no_eol).
        for length in 0..<(armored.count - 1) {
            #expect(throws: SealError.self) { try AgeFile.open(Array(armored.prefix(length)), keys: [.identity(me)], opener: Opener()) }
        }
        #expect(try AgeFile.open(Array(armored.dropLast()), keys: [.identity(me)], opener: Opener()) == Array("armored".utf8))
        for (offset, byte) in [(40, UInt8(ascii: " ")), (armored.count - 40, UInt8(ascii: "*")), (armored.count - 2, UInt8(ascii: "x"))] {
            var changed = armored
            changed[offset] = byte
            #expect(throws: SealError.self) { try AgeFile.open(changed, keys: [.identity(me)], opener: Opener()) }
        }
        #expect(throws: SealError.ageArmor("there is text after the end line")) {
            try AgeArmor.decode(armored + Array("garbage".utf8))
        }
    }

    @Test("identity and recipient texts that are not X25519 keys are refused with the reason")
    func hostileKeyTexts() {
        let short = Bech32.encode(hrp: "age-secret-key-", data: [UInt8](repeating: 1, count: 31)).uppercased()
        #expect(throws: SealError.badKey("an age identity holds 32 bytes, not 31")) { try AgeIdentity(text: short) }
        let other = Bech32.encode(hrp: "bc", data: [UInt8](repeating: 1, count: 32))
        #expect(throws: SealError.badKey("an age recipient starts with age1")) { try AgeRecipient(text: other) }
        #expect(throws: SealError.badKey("line 2: not an age identity: it holds a character Bech32 does not use")) {
            try AgeIdentity.parseFile("# comment\nAGE-SECRET-KEY-1 not a key\n")
        }
        #expect(throws: SealError.badKey("not an age recipient: longer than \(Bech32.maxLength) characters")) {
            try AgeRecipient(text: "age1" + String(repeating: "q", count: Bech32.maxLength))
        }
    }
}
