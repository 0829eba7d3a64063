import Testing
@testable import QRSealKit

/// The character tables of Aztec Code, on bit strings written here code by code.
@Suite("Aztec text")
struct AztecTextTests {
    /// The bits of `codes`, each (value, width).
    static func bits(_ codes: [(Int, Int)]) -> [Bool] {
        codes.flatMap { value, width in (0..<width).map { value >> (width - 1 - $0) & 1 == 1 } }
    }

    static func decode(_ codes: [(Int, Int)]) -> AztecText? { AztecText(bits: bits(codes)) }

    @Test("latches and shifts between all five tables")
    func tables() {
        // "Ab1" then P/S "!", M/L "@", P/L "(", U/L "Z": A, L/L b, D/L 1, P/S !, U/L, M/L @, P/L (, U/L Z.
        let text = Self.decode([(2, 5), (28, 5), (3, 5), (30, 5), (3, 4), (0, 4), (6, 5), (14, 4), (29, 5),
                                (20, 5), (30, 5), (13, 5), (31, 5), (27, 5)])
        #expect(text?.bytes == Array("Ab1!@(Z".utf8))
        // U/S from lower, and the punctuation pairs.
        let pairs = Self.decode([(28, 5), (2, 5), (28, 5), (2, 5), (2, 5), (0, 5), (2, 5), (0, 5), (3, 5)])
        #expect(pairs?.bytes == Array("aAa\r\n. ".utf8))
    }

    @Test("binary shift: the 5-bit length, the 11-bit one (31 + n), and what follows in the same table")
    func binaryShift() {
        let short = Self.decode([(31, 5), (2, 5), (0xFF, 8), (0x00, 8), (2, 5)])
        #expect(short?.bytes == [0xFF, 0x00, UInt8(ascii: "A")])
        let long = Self.decode([(31, 5), (0, 5), (2, 11)] + [(0x41, 8)] + [(0x42, 8)] * 32 + [(3, 5)])
        #expect(long?.bytes == [0x41] + [UInt8](repeating: 0x42, count: 32) + [UInt8(ascii: "B")])
        // U/S B/S from the digit table leaves upper latched, as zxing-cpp reads it.
        let fromDigits = Self.decode([(30, 5), (5, 4), (15, 4), (31, 5), (1, 5), (0x68, 8), (10, 5)])
        #expect(fromDigits?.bytes == Array("3hI".utf8))
    }

    @Test("a binary shift cut short by the end of the data gives the bytes it has")
    func shortBinary() {
        let cut = Self.decode([(2, 5), (31, 5), (5, 5), (0x61, 8), (0x62, 8), (1, 3)])
        #expect(cut?.bytes == Array("Aab".utf8))
    }

    @Test("FNC1 first makes a GS1 string, later ones a group separator; ECIs declare the character set")
    func flags() {
        let gs1 = Self.decode([(0, 5), (0, 5), (0, 3), (30, 5), (2, 4), (3, 4), (0, 4), (0, 5), (0, 3), (4, 4)])
        #expect(gs1?.isGS1 == true)
        #expect(gs1?.bytes == [0x30, 0x31, GS1.groupSeparator, 0x32])
        // ECI 26 and two UTF-8 bytes; then ECI 7 (ISO-8859-5), which Foundation lacks: no text.
        let utf8 = Self.decode([(0, 5), (0, 5), (2, 3), (4, 4), (8, 4), (31, 5), (2, 5), (0xC3, 8), (0xA9, 8)])
        #expect(utf8?.declaresCharacterSet == true)
        #expect(utf8?.text == "é" && utf8?.bytes == [0xC3, 0xA9])
        let unknown = Self.decode([(0, 5), (0, 5), (1, 3), (9, 4), (2, 5)])
        #expect(unknown?.declaresCharacterSet == true && unknown?.text == nil && unknown?.bytes == [0x41])
    }

    @Test("a reserved FLG(7) and an ECI digit outside 0–9 are refused")
    func refused() {
        #expect(Self.decode([(0, 5), (0, 5), (7, 3), (2, 5)]) == nil)
        #expect(Self.decode([(0, 5), (0, 5), (1, 3), (13, 4), (2, 5)]) == nil)
    }

    @Test("a Structured Append header (M/L U/L, an ID between spaces, position and count) is not payload")
    func structuredAppend() {
        // M/L U/L " 7 " B D then "XY".
        let text = Self.decode([(29, 5), (29, 5), (1, 5), (30, 5), (9, 4), (1, 4), (14, 4), (3, 5), (5, 5), (25, 5), (26, 5)])
        #expect(text?.bytes == Array("XY".utf8))
    }

    @Test("padding: bits too few for a character at the end are ignored, whatever they are")
    func padding() {
        for tail in [[true], [true, true, true, true], [false, true, false]] {
            #expect(AztecText(bits: Self.bits([(2, 5)]) + tail)?.bytes == [UInt8(ascii: "A")])
        }
        #expect(AztecText(bits: [])?.bytes == [])
    }
}

private func * (lhs: [(Int, Int)], rhs: Int) -> [(Int, Int)] {
    (0..<rhs).flatMap { _ in lhs }
}
