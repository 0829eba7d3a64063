import Foundation
import Testing
@testable import QRSealKit

/// Brotli is used only when it makes the message smaller, and never when turned off.
@Suite("Seal: compression")
struct CompressionTests {
    let key: SecretKey

    init() throws { key = try SecretKey.generate() }

    private func randomBytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }

    /// The inner flags byte of a key-file envelope.
    private func flags(_ envelope: [UInt8]) throws -> UInt8 {
        let inner = try #require(try Crypto.open(key: key.messageKey, nonce: Array(envelope[2..<14]),
                                                 aad: Array(envelope[0..<14]), sealed: Array(envelope[14...])))
        return try #require(inner.first)
    }

    @Test("repetitive text is stored compressed and opens exactly")
    func repetitiveText() throws {
        let text = String(repeating: "All work and no play makes Jack a dull boy.\n", count: 100)
        let envelope = try Sealer().seal(.text(text), with: .keyFile(key))
        #expect(envelope.count < 30 + 1 + text.utf8.count / 10)
        #expect(try flags(envelope) == 0x02)
        #expect(try Opener().open(envelope, keys: [.keyFile(key)]) == .text(text))
    }

    @Test("a repetitive file is stored compressed and opens exactly")
    func repetitiveFile() throws {
        let bytes = [UInt8](repeating: 0, count: 100_000) + Array(0...255) + [UInt8](repeating: 0xAB, count: 50_000)
        let envelope = try Sealer().seal(.file(name: "sparse.img", bytes: bytes), with: .keyFile(key))
        #expect(envelope.count < 1000)
        #expect(try flags(envelope) == 0x03)
        #expect(try Opener().open(envelope, keys: [.keyFile(key)]) == .file(name: "sparse.img", bytes: bytes))
    }

    @Test("random bytes are stored as they are: content + 30 + 1 + name + 1 bytes",
          arguments: [0, 1, 10, 100, 1000, 2900])
    func randomFile(count: Int) throws {
        let bytes = randomBytes(count)
        let envelope = try Sealer().seal(.file(name: "noise.bin", bytes: bytes), with: .keyFile(key))
        #expect(envelope.count == count + 30 + 1 + 1 + "noise.bin".utf8.count)
        #expect(try flags(envelope) == 0x01)
        #expect(try Opener().open(envelope, keys: [.keyFile(key)]) == .file(name: "noise.bin", bytes: bytes))
    }

    @Test("compression gives up past its limit, and what it gives under the limit decompresses exactly")
    func limit() throws {
        let noise = randomBytes(3 << 20)
        #expect(Compression.compress(noise, text: false, limit: 3000) == nil)
        let text = Array(String(repeating: "meet at the north gate, 6pm. ", count: 200_000).utf8)
        let whole = try #require(Compression.compress(text, text: true))
        #expect(whole.count < 3000)
        #expect(Compression.compress(text, text: true, limit: whole.count) == whole)
        #expect(Compression.compress(text, text: true, limit: whole.count - 1) == nil)
        #expect(try Compression.decompress(whole, limit: text.count) == text)
    }

    @Test("a sealed message too large for any code is refused without compressing all of it; one that compresses to fit is sealed")
    func sealedLimit() throws {
        let encoder = Encoder()
        let noise = randomBytes(4 << 20)
        #expect(throws: Encoder.SealedError.self) {
            try encoder.encodeSealed(.file(name: "noise.bin", bytes: noise), with: .keyFile(key))
        }
        let text = String(repeating: "hello world\n", count: 1_000_000)
        let (_, envelope) = try encoder.encodeSealed(.text(text), with: .keyFile(key))
        #expect(try Opener().open(envelope, keys: [.keyFile(key)]) == .text(text))
    }

    @Test("short text that Brotli cannot shrink costs 30 + 1 bytes", arguments: ["", "a", "ok", "Hi there"])
    func shortText(text: String) throws {
        let envelope = try Sealer().seal(.text(text), with: .keyFile(key))
        #expect(envelope.count == 30 + 1 + text.utf8.count)
        #expect(try flags(envelope) == 0x00)
    }

    @Test("Sealer(compress: false) never compresses")
    func compressionOff() throws {
        let text = String(repeating: "z", count: 5000)
        let envelope = try Sealer(compress: false).seal(.text(text), with: .keyFile(key))
        #expect(envelope.count == 30 + 1 + 5000)
        #expect(try flags(envelope) == 0x00)
        #expect(try Opener().open(envelope, keys: [.keyFile(key)]) == .text(text))
        let file = try Sealer(compress: false).seal(.file(name: "z", bytes: Array(text.utf8)), with: .keyFile(key))
        #expect(file.count == 30 + 1 + 1 + 1 + 5000)
        #expect(try flags(file) == 0x01)
    }

    @Test("a passphrase message compresses the same way: 49 bytes of overhead")
    func passphrase() throws {
        let sealer = Sealer(scrypt: ScryptParameters(log2N: 10, r: 8, p: 1))
        let text = String(repeating: "la ", count: 1000)
        let envelope = try sealer.seal(.text(text), with: .passphrase("p"))
        #expect(envelope.count < 49 + 1 + 100)
        #expect(try Opener().open(envelope, keys: [.passphrase("p")]) == .text(text))
        let noise = randomBytes(500)
        #expect(try sealer.seal(.file(name: "", bytes: noise), with: .passphrase("p")).count == 49 + 1 + 1 + 500)
    }

    @Test("a real document comes back byte for byte")
    func license() throws {
        let data = try #require(FileManager.default.contents(atPath: "/usr/share/common-licenses/GPL-3"))
        let text = try #require(String(data: data, encoding: .utf8))
        let envelope = try Sealer().seal(.text(text), with: .keyFile(key))
        #expect(envelope.count < text.utf8.count / 2)
        #expect(try Opener().open(envelope, keys: [.keyFile(key)]) == .text(text))
    }
}
