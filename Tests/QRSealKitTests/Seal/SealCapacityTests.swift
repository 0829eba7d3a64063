import Foundation
import Testing
@testable import QRSealKit

/// The capacity promised in docs/FORMAT.md, section 6, checked by sealing, encoding a real
/// version 40 symbol at level L, reading it back with zbar and opening it.
@Suite("Seal: capacity of one symbol")
struct SealCapacityTests {
    static let sealer = Sealer(scrypt: ScryptParameters(log2N: 10, r: 8, p: 1))

    private func randomBytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }

    /// Encodes `envelope` in `armor` at level L, reads the image back and returns the symbol's
    /// version and the envelope found in it.
    private func throughSymbol(_ envelope: [UInt8], armor: Armor) throws -> (version: Int, envelope: [UInt8]?) {
        let matrix = try QREncoder(level: .low).encode(armor.content(for: envelope))
        let found = Detector().detect(in: matrix.image(scale: 3, margin: 4))
        let symbol = try #require(found.first, "nothing read back from a version \(matrix.version) symbol")
        #expect(found.count == 1)
        return (matrix.version, try Armor.envelope(fromSymbol: symbol.bytes))
    }

    @Test("the largest envelopes are those of the format's table")
    func table() {
        #expect(Armor.digits.maxEnvelopeBytes(version: 40, level: .low) == 2935)
        #expect(Armor.binary.maxEnvelopeBytes(version: 40, level: .low) == 2949)
        #expect(Digits.count(forBytes: 2935) == 7069)
        // The bars: 2,840 bytes of sealed text with digits armor, 2,880 with binary armor.
        #expect(Armor.digits.maxEnvelopeBytes(version: 40, level: .low) - 50 >= 2840)
        #expect(Armor.binary.maxEnvelopeBytes(version: 40, level: .low) - 50 >= 2880)
    }

    @Test("the largest envelope of each armor fits version 40-L, and one byte more does not",
          arguments: Armor.allCases)
    func largestEnvelopeFits(armor: Armor) throws {
        let largest = armor.maxEnvelopeBytes(version: 40, level: .low)
        let fits = try QREncoder(level: .low).encode(armor.content(for: randomBytes(largest)))
        #expect(fits.version == 40)
        #expect(throws: SymbolError.self) {
            try QREncoder(level: .low).encode(armor.content(for: randomBytes(largest + 1)))
        }
    }

    @Test("the largest envelope of each armor at every version and level fits that version",
          arguments: Armor.allCases)
    func everyVersion(armor: Armor) throws {
        for level in ErrorCorrection.allCases {
            for version in stride(from: 1, through: 40, by: 3) {
                let largest = armor.maxEnvelopeBytes(version: version, level: level)
                guard largest > 0 else { continue }
                let matrix = try QREncoder(level: level).encode(armor.content(for: randomBytes(largest)))
                #expect(matrix.version <= version, "\(armor) \(level) version \(version): \(largest) bytes")
            }
        }
    }

    @Test("a passphrase file filling a version 40-L symbol is read back and opens",
          arguments: [(Armor.digits, 2840), (Armor.binary, 2880)])
    func fullSymbol(armor: Armor, bar: Int) throws {
        // A file with no name costs 49 + 1 + 1 bytes: random bytes are no text.
        let size = armor.maxEnvelopeBytes(version: 40, level: .low) - 51
        #expect(size >= bar)
        let plaintext = randomBytes(size)
        let envelope = try Self.sealer.seal(.file(name: "", bytes: plaintext), with: .passphrase("full"))
        #expect(envelope.count == size + 51)
        let (version, found) = try throughSymbol(envelope, armor: armor)
        #expect(version == 40)
        let read = try #require(found)
        #expect(read == envelope)
        #expect(try Opener().open(read, keys: [.passphrase("full")]) == .file(name: "", bytes: plaintext))
    }

    @Test("the bar itself: 2,840 (digits) and 2,880 (binary) bytes of sealed text fit one symbol",
          arguments: [(Armor.digits, 2840), (Armor.binary, 2880)])
    func barText(armor: Armor, bar: Int) throws {
        // Printable ASCII that Brotli cannot shrink much: random letters still compress, so seal without it.
        var generator = SystemRandomNumberGenerator()
        let text = String((0..<bar).map { _ in Character(Unicode.Scalar(UInt8.random(in: 0x21...0x7E, using: &generator))) })
        let sealer = Sealer(scrypt: ScryptParameters(log2N: 10, r: 8, p: 1), compress: false)
        let envelope = try sealer.seal(.text(text), with: .passphrase("bar"))
        #expect(envelope.count == bar + 50)
        let (version, found) = try throughSymbol(envelope, armor: armor)
        #expect(version == 40)
        #expect(try Opener().open(try #require(found), keys: [.passphrase("bar")]) == .text(text))
    }

    @Test("the first 9,000 characters of the GPL, compressed, fit one version 40-L digits symbol")
    func license() throws {
        let data = try #require(FileManager.default.contents(atPath: "/usr/share/common-licenses/GPL-3"))
        let text = String(try #require(String(data: data, encoding: .utf8)).prefix(9000))
        let envelope = try Self.sealer.seal(.text(text), with: .passphrase("gpl"))
        #expect(envelope.count <= Armor.digits.maxEnvelopeBytes(version: 40, level: .low))
        let (version, found) = try throughSymbol(envelope, armor: .digits)
        #expect(version <= 40)
        #expect(try Opener().open(try #require(found), keys: [.passphrase("gpl")]) == .text(text))
    }
}
