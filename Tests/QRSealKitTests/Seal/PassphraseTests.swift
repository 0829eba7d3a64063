import Testing
@testable import QRSealKit

/// Passphrase messages: scrypt with the parameters in the header (docs/FORMAT.md, section 2.3).
@Suite("Seal: passphrase messages")
struct PassphraseTests {
    /// Cheap parameters (1 MiB, a few milliseconds) so that many tests can run scrypt.
    static let fast = ScryptParameters(log2N: 10, r: 8, p: 1)

    private func seal(_ payload: Payload = .text("the eagle lands at dawn"), passphrase: String = "correct horse",
                      scrypt: ScryptParameters = fast) throws -> [UInt8] {
        try Sealer(scrypt: scrypt).seal(payload, with: .passphrase(passphrase))
    }

    private func open(_ bytes: [UInt8], _ passphrase: String = "correct horse",
                      opener: Opener = Opener()) -> Result<Payload, SealError> {
        Result { () throws(SealError) -> Payload in try opener.open(bytes, keys: [.passphrase(passphrase)]) }
    }

    @Test("text and files come back with the right passphrase")
    func roundTrip() throws {
        for payload: Payload in [.text("the eagle lands at dawn"), .text(""), .file(name: "a.bin", bytes: [0, 1, 2, 255]),
                                 .file(name: "", bytes: [])] {
            #expect(open(try seal(payload)) == .success(payload))
        }
        #expect(open(try seal(passphrase: ""), "") == .success(.text("the eagle lands at dawn")))
        #expect(open(try seal(passphrase: "🔑 ключ 鍵"), "🔑 ключ 鍵") == .success(.text("the eagle lands at dawn")))
    }

    @Test("the standard parameters (N = 2^17, r = 8) are written and open with the default limit")
    func standardParameters() throws {
        let envelope = try Sealer().seal(.text("standard"), with: .passphrase("pass"))
        #expect(Array(envelope[0..<5]) == [0x10, 0x01, 17, 8, 1])
        #expect(envelope.count == 49 + 1 + "standard".utf8.count)
        #expect(try Opener().open(envelope, keys: [.passphrase("pass")]) == .text("standard"))
    }

    @Test("the header holds the parameters, a fresh salt and a fresh nonce")
    func header() throws {
        let a = try seal(), b = try seal()
        #expect(Array(a[0..<5]) == [0x10, 0x01, 10, 8, 1])
        #expect(a[5..<21] != b[5..<21])
        #expect(a[21..<33] != b[21..<33])
        #expect(try Opener.describe(a) == (.passphrase, a.count))
    }

    @Test("a wrong passphrase is an authentication failure", arguments: [
        "correct horse ", "Correct horse", "correct  horse", "correct horse\n", "", "correct hors",
    ])
    func wrongPassphrase(passphrase: String) throws {
        #expect(open(try seal(), passphrase) == .failure(.authenticationFailed))
    }

    @Test("a passphrase typed decomposed opens a message sealed composed, and back")
    func nfc() throws {
        let composed = "caf\u{E9} cr\u{E8}me"          // é and è as one scalar each
        let decomposed = "cafe\u{301} cre\u{300}me"     // e + combining accent
        #expect(Array(composed.utf8) != Array(decomposed.utf8))
        #expect(open(try seal(passphrase: composed), decomposed) == .success(.text("the eagle lands at dawn")))
        #expect(open(try seal(passphrase: decomposed), composed) == .success(.text("the eagle lands at dawn")))
        // Compatibility forms are different characters: NFC, not NFKC.
        #expect(open(try seal(passphrase: "ﬁle"), "file") == .failure(.authenticationFailed))
    }

    @Test("no passphrase among the keys is .noKey; key files are not tried on it")
    func noKey() throws {
        let envelope = try seal()
        #expect(throws: SealError.noKey(kind: .passphrase)) {
            try Opener().open(envelope, keys: [.keyFile(try SecretKey.generate())])
        }
    }

    @Test("the right passphrase among wrong ones opens")
    func severalPassphrases() throws {
        let envelope = try seal()
        let keys: [SealKey] = [.passphrase("one"), .keyFile(try SecretKey.generate()), .passphrase("correct horse"),
                               .passphrase("three")]
        #expect(try Opener().open(envelope, keys: keys) == .text("the eagle lands at dawn"))
    }

    @Test("a changed scrypt parameter is an authentication failure", arguments: [
        (2, UInt8(11)), (2, 9), (3, 9), (3, 7), (3, 4), (4, 2), (4, 3),
    ] as [(Int, UInt8)])
    func changedParameter(index: Int, value: UInt8) throws {
        var envelope = try seal()
        envelope[index] = value
        #expect(open(envelope) == .failure(.authenticationFailed))
    }

    @Test("every flipped salt bit is an authentication failure")
    func changedSalt() throws {
        let envelope = try seal()
        for index in 5..<21 {
            for bit in 0..<8 {
                var damaged = envelope
                damaged[index] ^= 1 << bit
                #expect(open(damaged) == .failure(.authenticationFailed), "byte \(index) bit \(bit)")
            }
        }
    }

    @Test("parameters outside the format's ranges are malformed", arguments: [
        (2, UInt8(0)), (2, 64), (2, 255), (3, 0), (4, 0),
    ] as [(Int, UInt8)])
    func invalidParameters(index: Int, value: UInt8) throws {
        var envelope = try seal()
        envelope[index] = value
        guard case .failure(.malformed) = open(envelope) else {
            Issue.record("byte \(index) = \(value): \(open(envelope))")
            return
        }
    }

    @Test("a message asking for N = 2^30 is refused before scrypt runs (it would need 128 GiB)")
    func tooCostly() throws {
        var envelope = try seal()
        envelope[2] = 30
        #expect(open(envelope) == .failure(.kdfTooCostly(log2N: 30, r: 8, p: 1, limit: 18)))
        envelope[2] = 63; envelope[3] = 255; envelope[4] = 255
        #expect(open(envelope) == .failure(.kdfTooCostly(log2N: 63, r: 255, p: 255, limit: 18)))
        envelope[2] = 19; envelope[3] = 8; envelope[4] = 1
        #expect(open(envelope) == .failure(.kdfTooCostly(log2N: 19, r: 8, p: 1, limit: 18)))
    }

    @Test("the limit is on work N·r·p and memory 128·N·r, at 2^L · 8 each", arguments: [
        (ScryptParameters(log2N: 17, r: 8, p: 1), 18, true), (ScryptParameters(log2N: 18, r: 8, p: 1), 18, true),
        (ScryptParameters(log2N: 19, r: 8, p: 1), 18, false), (ScryptParameters(log2N: 20, r: 2, p: 1), 18, true),
        (ScryptParameters(log2N: 21, r: 2, p: 1), 18, false), (ScryptParameters(log2N: 18, r: 8, p: 2), 18, false),
        (ScryptParameters(log2N: 17, r: 16, p: 1), 18, true), (ScryptParameters(log2N: 17, r: 16, p: 2), 18, false),
        (ScryptParameters(log2N: 17, r: 17, p: 1), 18, false), (ScryptParameters(log2N: 20, r: 8, p: 1), 20, true),
        (ScryptParameters(log2N: 63, r: 1, p: 1), 40, false), (ScryptParameters(log2N: 1, r: 1, p: 1), 0, true),
    ] as [(ScryptParameters, Int, Bool)])
    func limitRule(parameters: ScryptParameters, limit: Int, allowed: Bool) {
        #expect(parameters.isWithin(limit: limit) == allowed)
    }

    @Test("both sides of the limit, with a reader limit of 2^10 · 8", arguments: [
        (ScryptParameters(log2N: 10, r: 8, p: 1), true), (ScryptParameters(log2N: 13, r: 1, p: 1), true),
        (ScryptParameters(log2N: 9, r: 8, p: 2), true), (ScryptParameters(log2N: 11, r: 4, p: 1), true),
        (ScryptParameters(log2N: 9, r: 16, p: 1), true), (ScryptParameters(log2N: 11, r: 8, p: 1), false),
        (ScryptParameters(log2N: 14, r: 1, p: 1), false), (ScryptParameters(log2N: 10, r: 8, p: 2), false),
        (ScryptParameters(log2N: 10, r: 9, p: 1), false), (ScryptParameters(log2N: 9, r: 17, p: 1), false),
    ] as [(ScryptParameters, Bool)])
    func limitBoundary(parameters: ScryptParameters, allowed: Bool) throws {
        let envelope = try seal(scrypt: parameters)
        let strict = Opener(maxScryptLog2N: 10)
        let expected: Result<Payload, SealError> = allowed
            ? .success(.text("the eagle lands at dawn"))
            : .failure(.kdfTooCostly(log2N: parameters.log2N, r: parameters.r, p: parameters.p, limit: 10))
        #expect(open(envelope, opener: strict) == expected)
        // The default reader allows all of these.
        #expect(open(envelope) == .success(.text("the eagle lands at dawn")))
    }

    @Test("raising the limit opens a message the default would refuse")
    func raisedLimit() throws {
        let envelope = try seal(scrypt: ScryptParameters(log2N: 12, r: 8, p: 1))
        #expect(open(envelope, opener: Opener(maxScryptLog2N: 11))
            == .failure(.kdfTooCostly(log2N: 12, r: 8, p: 1, limit: 11)))
        #expect(open(envelope, opener: Opener(maxScryptLog2N: 12)) == .success(.text("the eagle lands at dawn")))
    }

    @Test("a too costly message is refused as such even with no passphrase to try")
    func tooCostlyWithoutPassphrase() throws {
        var envelope = try seal()
        envelope[2] = 40
        #expect(throws: SealError.kdfTooCostly(log2N: 40, r: 8, p: 1, limit: 18)) { try Opener().open(envelope, keys: []) }
    }


    @Test("a limit raised above 40 still opens ordinary messages")
    func veryHighLimit() throws {
        let envelope = try seal()
        #expect(open(envelope, opener: Opener(maxScryptLog2N: 40)) == .success(.text("the eagle lands at dawn")))
        #expect(open(envelope, opener: Opener(maxScryptLog2N: 41)) == .success(.text("the eagle lands at dawn")))
    }

    @Test("N ≥ 2^(16·r) (invalid for scrypt, RFC 7914) within the limit is malformed, not a crypto failure")
    func scryptRejectsParameters() throws {
        var envelope = try seal()
        envelope[2] = 16; envelope[3] = 1  // N = 2^16, r = 1: work and memory within the default limit
        // scrypt is undefined for N ≥ 2^(16·r) (RFC 7914): malformed, not a library failure.
        #expect(!ScryptParameters(log2N: 16, r: 1, p: 1).isValid)
        guard case .failure(.malformed) = open(envelope) else {
            Issue.record("\(open(envelope))")
            return
        }
    }

    @Test("every truncation is .truncated or an authentication failure, never a payload")
    func truncations() throws {
        let envelope = try seal()
        for length in 0..<envelope.count {
            let expected: SealError = length < 49 ? .truncated : .authenticationFailed
            #expect(open(Array(envelope.prefix(length))) == .failure(expected), "length \(length)")
        }
    }
}
