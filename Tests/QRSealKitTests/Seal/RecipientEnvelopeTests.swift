import Testing
@testable import QRSealKit

@Suite("Seal: recipients envelope (key type 0x02)")
struct RecipientEnvelopeTests {
    static func seal(_ text: String, to recipients: [AgeRecipient], compress: Bool = true) throws -> [UInt8] {
        try Sealer(compress: compress).seal(.text(text), with: .recipients(recipients))
    }

    @Test("one recipient keeps at least 2,780 content bytes in a 40-L symbol with digits armor")
    func capacity() throws {
        let me = try AgeIdentity.generate()
        var encoder = Encoder(armor: .digits, sealer: Sealer(compress: false))
        encoder.symbol.level = .low
        let most = Armor.digits.maxEnvelopeBytes(version: 40, level: .low) - Envelope.overhead(.recipients, recipients: 1) - 1
        #expect(most >= 2780)
        let (_, envelope) = try encoder.encodeSealed(.text(String(repeating: "x", count: most)), with: .recipients([me.recipient]))
        #expect(try Opener().open(envelope, keys: [.identity(me)]) == .text(String(repeating: "x", count: most)))
        #expect(throws: Encoder.SealedError.self) {
            try encoder.encodeSealed(.text(String(repeating: "x", count: most + 1)), with: .recipients([me.recipient]))
        }
    }

    @Test("each recipient opens it; another identity gets 'no identity matches', not a damaged message")
    func recipients() throws {
        let people = try (0..<4).map { _ in try AgeIdentity.generate() }
        let envelope = try Self.seal("for four", to: people.map(\.recipient))
        #expect(envelope.count == Envelope.overhead(.recipients, recipients: 4) + 1 + 8)
        for person in people { #expect(try Opener().open(envelope, keys: [.identity(person)]) == .text("for four")) }
        #expect(throws: SealError.noIdentityMatches) { try Opener().open(envelope, keys: [.identity(try AgeIdentity.generate())]) }
        #expect(throws: SealError.noKey(kind: .publicKey)) { try Opener().open(envelope, keys: [.passphrase("p")]) }
    }

    @Test("nothing in the clear names a recipient: two messages to the same person share no header bytes")
    func privacy() throws {
        let me = try AgeIdentity.generate()
        let a = try Self.seal("same", to: [me.recipient]), b = try Self.seal("same", to: [me.recipient])
        #expect(!a.contains(subsequence: me.recipient.publicKey))
        // Lead, key type and count are the same; the share, slot and nonce are all new.
        #expect(zip(a[2..<34], b[2..<34]).filter { $0 == $1 }.count < 8)
        #expect(zip(a[35..<67], b[35..<67]).filter { $0 == $1 }.count < 8)
    }

    @Test("truncated and hostile recipients envelopes are refused as damaged")
    func hostile() throws {
        let me = try AgeIdentity.generate()
        let envelope = try Self.seal("cut", to: [me.recipient])
        for length in 0..<envelope.count {
            #expect(throws: SealError.self) { try Opener().open(Array(envelope.prefix(length)), keys: [.identity(me)]) }
        }
        var zeroCount = envelope
        zeroCount[34] = 0
        #expect(throws: SealError.malformed("no recipient slots")) { try Opener().open(zeroCount, keys: [.identity(me)]) }
        var huge = envelope
        huge[34] = 255
        #expect(throws: SealError.truncated) { try Opener().open(huge, keys: [.identity(me)]) }
        var lowOrder = envelope
        lowOrder.replaceSubrange(2..<34, with: [UInt8](repeating: 0, count: 32))
        #expect(throws: SealError.malformed("the ephemeral key gives the all-zero X25519 secret (a low-order point)")) {
            try Opener().open(lowOrder, keys: [.identity(me)])
        }
        // Digits armor knows key type 0x02 now.
        #expect(try Armor.envelope(fromText: Armor.text(for: envelope)) == envelope)
    }
}

extension Array where Element == UInt8 {
    func contains(subsequence: [UInt8]) -> Bool {
        guard subsequence.count <= count else { return false }
        return (0...(count - subsequence.count)).contains { Array(self[$0..<$0 + subsequence.count]) == subsequence }
    }
}
