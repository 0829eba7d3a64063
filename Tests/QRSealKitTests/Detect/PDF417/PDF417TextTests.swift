import Testing
import TestSupport
@testable import QRSealKit

/// The payload of PDF417 data codewords (ISO/IEC 15438, 5.4).
@Suite("PDF417 text")
struct PDF417TextTests {
    static func bytes(_ codewords: [Int]) -> [UInt8]? { PDF417Text(codewords: codewords)?.bytes }

    @Test("text compaction: sub-modes, latches and shifts")
    func text() {
        // A B; then A, latch lower, b, padding (punctuation shift); then mixed 1 2, punctuation shift ;
        #expect(Self.bytes([0 * 30 + 1]) == Array("AB".utf8))
        #expect(Self.bytes([0 * 30 + 27, 1 * 30 + 29]) == Array("Ab".utf8))
        #expect(Self.bytes([28 * 30 + 1, 2 * 30 + 29, 0 * 30 + 29]) == Array("12;".utf8))
        // Lower, then a one-character shift to alpha: "aBc".
        #expect(Self.bytes([27 * 30 + 0, 27 * 30 + 1, 2 * 30 + 29]) == Array("aBc".utf8))
    }

    @Test("numeric compaction: base 900 to base 10, the leading 1 dropped")
    func numeric() {
        // ISO/IEC 15438's example: 000213298174000.
        #expect(Self.bytes([902, 1, 624, 434, 632, 282, 200]) == Array("000213298174000".utf8))
    }

    @Test("byte compaction: six bytes in five codewords, the rest one a codeword")
    func bytes() {
        let six: [UInt8] = [0x41, 0x42, 0xC3, 0xBC, 0x00, 0xFF]
        var value = six.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        var group = [Int](repeating: 0, count: 5)
        for i in (0..<5).reversed() {
            group[i] = Int(value % 900)
            value /= 900
        }
        #expect(Self.bytes([924] + group) == six)
        #expect(Self.bytes([901] + group + [7]) == six + [7])
        // 901 with five codewords alone: five bytes, not six.
        #expect(Self.bytes([901, 1, 2, 3, 4, 5]) == [1, 2, 3, 4, 5])
        // A byte shift inside text: "A", byte 0xE9, then "B" still in alpha.
        #expect(Self.bytes([0 * 30 + 29, 913, 0xE9, 1 * 30 + 29]) == [0x41, 0xE9, 0x42])
    }

    @Test("an ECI designator declares the character set of the bytes after it")
    func eci() throws {
        let text = try #require(PDF417Text(codewords: [927, 26, 901, 0xC3, 0xBC]))
        #expect(text.declaresCharacterSet && text.text == "ü" && text.bytes == [0xC3, 0xBC])
    }

    @Test("a Macro PDF417 control block ends the data; Code 128 emulation is passed over")
    func macroAndEmulation() {
        #expect(Self.bytes([1, 928, 111, 100]) == Array("AB".utf8))
        #expect(Self.bytes([910, 1]) == Array("AB".utf8))
    }

    @Test("broken rules read as nothing", arguments: [
        [913], [903, 1], [909 + 10, 1], [901, 256], [902, 0], [927], [1, 919],
    ])
    func broken(codewords: [Int]) {
        #expect(PDF417Text(codewords: codewords) == nil)
    }

    @Test("random codewords never crash")
    func random() {
        var random = SplitMix(seed: 15438)
        for _ in 0..<2000 {
            let words = (0..<Int(random.next() % 40)).map { _ in Int(random.next() % 929) }
            _ = PDF417Text(codewords: words)
        }
    }
}
