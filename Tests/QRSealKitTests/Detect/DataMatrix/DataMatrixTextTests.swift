import Testing
@testable import QRSealKit

/// The encodations of ECC 200 (ISO/IEC 16022, 5.2), on codewords worked out by hand from the
/// standard's tables.
@Suite("Data Matrix text")
struct DataMatrixTextTests {
    static func bytes(_ codewords: [Int]) -> [UInt8]? { DataMatrixText(codewords: codewords)?.bytes }

    /// The codeword Base 256 writes for `value` at (1-based) position `position`.
    static func randomised(_ value: Int, at position: Int) -> Int {
        (value + (149 * position) % 255 + 1) % 256
    }

    @Test("ASCII: characters, digit pairs, the upper shift, the pad")
    func ascii() {
        // "A", "12", "é" (0xE9 = 128 + 105), then a pad and what follows it.
        #expect(Self.bytes([66, 142, 235, 106, 129, 200, 17]) == [65, 49, 50, 0xE9])
        #expect(Self.bytes([130 + 7]) == Array("07".utf8))
    }

    @Test("C40, Text and X12: three values in two codewords, shifts, unlatch")
    func triples() {
        // A, B, C are 14, 15, 16: 1600·14 + 40·15 + 16 + 1 = 23017 = 89·256 + 233.
        #expect(Self.bytes([230, 89, 233, 254, 66]) == Array("ABCA".utf8))
        #expect(Self.bytes([239, 89, 233, 254, 66]) == Array("abcA".utf8))
        // C40 Shift 2 then "!" (0), Shift 3: 1600·1 + 0 + 2 + 1 = 1603; then "a" (1, 97 - 96)
        // across the pair, a space and a Shift 1 as padding: 1600·1 + 40·3 + 0 + 1 = 1721.
        #expect(Self.bytes([230, 1603 >> 8, 1603 & 255, 1721 >> 8, 1721 & 255]) == Array("!a ".utf8))
        // Text Shift 3: 1 is "A"; C40 Shift 2 value 27 is FNC1 (a group separator here).
        #expect(Self.bytes([239, 3241 >> 8, 3241 & 255]) == Array("A".utf8))
        let fnc1 = 1600 * 1 + 40 * 27 + 3 + 1  // Shift 2, FNC1, space
        #expect(Self.bytes([66, 230, fnc1 >> 8, fnc1 & 255]) == [65, 0x1D, 32])
        // X12: A, *, > are 14, 1, 2: 22400 + 40 + 2 + 1 = 22443 = 87·256 + 171; a lone last codeword is ASCII.
        #expect(Self.bytes([238, 87, 171, 66]) == Array("A*>A".utf8))
    }

    @Test("EDIFACT: four 6-bit values in three codewords, then ASCII after the unlatch")
    func edifact() {
        // A, B, C (1, 2, 3) and the unlatch 31: 000001 000010 000011 011111.
        #expect(Self.bytes([240, 0x04, 0x20, 0xDF, 66]) == Array("ABCA".utf8))
        // "1.2" (0x31, 0x2E, 0x32 keep their 6 bits) then unlatch: 110001 101110 110010 011111.
        #expect(Self.bytes([240, 0xC6, 0xEC, 0x9F]) == Array("1.2".utf8))
    }

    @Test("Base 256: the randomised length and bytes, one- and two-codeword lengths, to the end")
    func base256() {
        let payload: [Int] = [0, 255, 128, 7]
        var words = [231, Self.randomised(payload.count, at: 2)]
        for (k, b) in payload.enumerated() { words.append(Self.randomised(b, at: 3 + k)) }
        #expect(Self.bytes(words + [66]) == payload.map(UInt8.init) + [65])
        // Length 300: 250·(250 - 249) + 50.
        let long = (0..<300).map { $0 % 256 }
        var longWords = [231, Self.randomised(250, at: 2), Self.randomised(50, at: 3)]
        for (k, b) in long.enumerated() { longWords.append(Self.randomised(b, at: 4 + k)) }
        #expect(Self.bytes(longWords) == long.map(UInt8.init))
        // Length 0: to the end of the symbol.
        #expect(Self.bytes([231, Self.randomised(0, at: 2), Self.randomised(9, at: 3)]) == [9])
    }

    @Test("FNC1 first makes GS1; later, a group separator; a Macro's header and trailer")
    func fnc1AndMacros() throws {
        let gs1 = try #require(DataMatrixText(codewords: [232, 131, 66, 232, 67]))
        #expect(gs1.isGS1 && gs1.bytes == [48, 49, 65, 0x1D, 66])
        #expect(Self.bytes([237, 66]) == Array("[)>\u{1E}06\u{1D}A\u{1E}\u{04}".utf8))
    }

    @Test("ECI: the text follows the declared character set")
    func eci() throws {
        // ECI 26 (UTF-8) is written as 27; "ü" is C3 BC, each an upper shift.
        let text = try #require(DataMatrixText(codewords: [241, 27, 235, 0xC3 - 127, 235, 0xBC - 127]))
        #expect(text.declaresCharacterSet && text.text == "ü" && text.bytes == [0xC3, 0xBC])
    }

    @Test("Structured Append: position and count from the first codeword, then the file")
    func structuredAppend() throws {
        // Second of three: 1 << 4 | (17 - 3); file 1, 2.
        let part = try #require(DataMatrixText(codewords: [233, 0x1E, 1, 2, 66]))
        #expect(part.sequence?.index == 1 && part.sequence?.count == 3 && part.sequence?.file == 258 && part.bytes == [65])
    }

    @Test("codewords no encodation allows are refused", arguments: [
        [0], [242], [66, 255, 66], [66, 233, 0x1E, 1, 2], [233, 0x1E], [233, 0x00, 1, 2], [233, 0xFE, 1, 2], [233, 0x1E, 0, 2], [235, 235, 66], [235, 142],
        [231, 200], [241], [241, 250, 1, 1], [230, 0xFF, 0xFF],
        // C40 Shift 2 value 28 is unassigned: 1600·1 + 40·28 + 3 + 1.
        [230, (1600 + 1120 + 4) >> 8, (1600 + 1120 + 4) & 255],
    ])
    func refused(codewords: [Int]) {
        #expect(DataMatrixText(codewords: codewords) == nil, "\(codewords)")
    }
}
