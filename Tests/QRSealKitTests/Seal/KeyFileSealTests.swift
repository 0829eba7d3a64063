import Testing
@testable import QRSealKit

/// Sealing to a key file and opening: round trips, wrong keys, and every kind of damage.
@Suite("Seal: key file messages")
struct KeyFileSealTests {
    private func open(_ bytes: [UInt8], keys: [SealKey], opener: Opener = Opener()) -> Result<Payload, SealError> {
        Result { () throws(SealError) -> Payload in try opener.open(bytes, keys: keys) }
    }

    private func randomBytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }

    @Test("text comes back exactly", arguments: [
        "", "a", "Meet at the north gate, 19:30.", "Grüße — 東京 🙂\n\tline two\r\n", "\u{0}nul inside",
        String(repeating: "repetitive ", count: 200),
    ])
    func text(text: String) throws {
        let key = try SecretKey.generate()
        let envelope = try Sealer().seal(.text(text), with: .keyFile(key))
        #expect(try Opener().open(envelope, keys: [.keyFile(key)]) == .text(text))
    }

    @Test("files come back exactly, with their names")
    func file() throws {
        let key = try SecretKey.generate()
        for (name, bytes) in [("report.pdf", randomBytes(700)), ("", []), ("empty.bin", []),
                              ("Übersicht 2026 (final).txt", Array("x".utf8)), ("zeros", [UInt8](repeating: 0, count: 5000)),
                              (String(repeating: "n", count: 255), randomBytes(3))] {
            let envelope = try Sealer().seal(.file(name: name, bytes: bytes), with: .keyFile(key))
            #expect(try Opener().open(envelope, keys: [.keyFile(key)]) == .file(name: name, bytes: bytes), "\(name)")
        }
    }

    @Test("a text and a file with the same bytes stay a text and a file")
    func kindIsKept() throws {
        let key = try SecretKey.generate()
        let asText = try Sealer().seal(.text("hello"), with: .keyFile(key))
        let asFile = try Sealer().seal(.file(name: "", bytes: Array("hello".utf8)), with: .keyFile(key))
        #expect(try Opener().open(asText, keys: [.keyFile(key)]) == .text("hello"))
        #expect(try Opener().open(asFile, keys: [.keyFile(key)]) == .file(name: "", bytes: Array("hello".utf8)))
    }

    @Test("the same message sealed twice looks different (fresh nonce)")
    func freshNonce() throws {
        let key = try SecretKey.generate()
        let a = try Sealer().seal(.text("same"), with: .keyFile(key))
        let b = try Sealer().seal(.text("same"), with: .keyFile(key))
        #expect(a.count == b.count)
        #expect(a[2..<14] != b[2..<14])
        #expect(a != b)
    }

    @Test("the header is the lead byte 0x10, key type 0x00 and the nonce; overhead is 30 bytes")
    func layout() throws {
        let key = try SecretKey.generate()
        let envelope = try Sealer(compress: false).seal(.text("abc"), with: .keyFile(key))
        #expect(envelope.count == 30 + 1 + 3)
        #expect(envelope[0] == 0x10)
        #expect(envelope[1] == 0x00)
        #expect(try Opener.describe(envelope) == (.keyFile, 34))
    }

    @Test("another key file is an authentication failure")
    func wrongKey() throws {
        let envelope = try Sealer().seal(.text("secret"), with: .keyFile(try SecretKey.generate()))
        #expect(throws: SealError.authenticationFailed) {
            try Opener().open(envelope, keys: [.keyFile(try SecretKey.generate())])
        }
    }

    @Test("no key of the message's kind is .noKey, and passphrases are not tried on it")
    func noKey() throws {
        let envelope = try Sealer().seal(.text("secret"), with: .keyFile(try SecretKey.generate()))
        #expect(throws: SealError.noKey(kind: .keyFile)) { try Opener().open(envelope, keys: []) }
        #expect(throws: SealError.noKey(kind: .keyFile)) {
            try Opener().open(envelope, keys: [.passphrase("secret"), .passphrase("")])
        }
    }

    @Test("the right key among wrong ones opens, wherever it is in the list", arguments: [0, 1, 4])
    func severalKeys(position: Int) throws {
        let right = try SecretKey.generate()
        var keys: [SealKey] = try (0..<4).map { _ in .keyFile(try SecretKey.generate()) }
        keys.insert(.keyFile(right), at: position)
        keys.append(.passphrase("not this one"))
        let envelope = try Sealer().seal(.text("found"), with: .keyFile(right))
        #expect(try Opener().open(envelope, keys: keys) == .text("found"))
        keys.remove(at: position)
        #expect(throws: SealError.authenticationFailed) { try Opener().open(envelope, keys: keys) }
    }

    @Test("a flipped bit in the lead byte is another version or frame type, never a decryption")
    func leadByte() throws {
        let key = try SecretKey.generate()
        let envelope = try Sealer().seal(.text("lead"), with: .keyFile(key))
        for bit in 0..<8 {
            var damaged = envelope
            damaged[0] ^= 1 << bit
            let result = open(damaged, keys: [.keyFile(key)])
            if bit >= 4 {
                #expect(result == .failure(.unsupportedVersion(Int(damaged[0] >> 4))), "bit \(bit)")
            } else {
                #expect(result == .failure(.unsupported("frame type \(1 << bit) (part of a message spread over several symbols)")),
                        "bit \(bit)")
            }
        }
    }

    @Test("a key type other than 0x00, 0x01 and 0x02 is unsupported, not a wrong key")
    func keyTypeByte() throws {
        let key = try SecretKey.generate()
        let envelope = try Sealer().seal(.text("key type"), with: .keyFile(key))
        // Bit 1 makes it a recipients message (0x02), checked with the recipients tests.
        for bit in 2..<8 {
            var damaged = envelope
            damaged[1] ^= 1 << bit
            #expect(open(damaged, keys: [.keyFile(key)]) == .failure(.unsupported("key type \(1 << bit)")), "bit \(bit)")
        }
        // Bit 0 turns it into a passphrase message: there is no passphrase to try.
        var damaged = envelope
        damaged[1] ^= 1
        #expect(throws: SealError.self) { try Opener().open(damaged, keys: [.keyFile(key)]) }
    }

    @Test("a flipped bit in the nonce, ciphertext or tag is an authentication failure")
    func bodyBits() throws {
        let key = try SecretKey.generate()
        let envelope = try Sealer().seal(.file(name: "f", bytes: randomBytes(24)), with: .keyFile(key))
        for index in 2..<envelope.count {
            for bit in 0..<8 {
                var damaged = envelope
                damaged[index] ^= 1 << bit
                #expect(open(damaged, keys: [.keyFile(key)]) == .failure(.authenticationFailed), "byte \(index) bit \(bit)")
            }
        }
    }

    @Test("every truncation is .truncated or an authentication failure, never a payload")
    func truncations() throws {
        let key = try SecretKey.generate()
        let envelope = try Sealer().seal(.text("truncate me, please"), with: .keyFile(key))
        for length in 0..<envelope.count {
            let result = open(Array(envelope.prefix(length)), keys: [.keyFile(key)])
            let expected: SealError = length < 30 ? .truncated : .authenticationFailed
            #expect(result == .failure(expected), "length \(length)")
        }
    }

    @Test("bytes appended to a message are an authentication failure")
    func appended() throws {
        let key = try SecretKey.generate()
        let envelope = try Sealer().seal(.text("short"), with: .keyFile(key))
        for tail in [[0], [0, 0, 0, 0], randomBytes(16)] as [[UInt8]] {
            #expect(open(envelope + tail, keys: [.keyFile(key)]) == .failure(.authenticationFailed))
        }
    }
}
