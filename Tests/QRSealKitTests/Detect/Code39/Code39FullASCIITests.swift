import Testing
@testable import QRSealKit

/// Code 39 Full ASCII: the pairs decoded as zxing-cpp 3.1 decodes them, plain Code 39 left
/// as it is, and the characters as they stand when the user asks for them.
@Suite("Code 39 Full ASCII")
struct Code39FullASCIITests {
    /// The standard's table, written out: what each of the 128 ASCII characters is drawn as.
    static let table: [String] = {
        var t = [String](repeating: "", count: 128)
        t[0] = "%U"
        for c in 1...26 { t[c] = "$" + String(UnicodeScalar(UInt8(64 + c))) }
        for (i, l) in "ABCDE".enumerated() { t[27 + i] = "%\(l)" }
        t[32] = " "
        for (i, l) in "ABCDEFGHIJKL".enumerated() { t[33 + i] = "/\(l)" }   // ! … ,
        t[45] = "-"; t[46] = "."; t[47] = "/O"
        for d in 48...57 { t[d] = String(UnicodeScalar(UInt8(d))) }
        t[58] = "/Z"
        for (i, l) in "FGHIJ".enumerated() { t[59 + i] = "%\(l)" }         // ; < = > ?
        t[64] = "%V"
        for c in 65...90 { t[c] = String(UnicodeScalar(UInt8(c))) }
        for (i, l) in "KLMNO".enumerated() { t[91 + i] = "%\(l)" }         // [ \ ] ^ _
        t[96] = "%W"
        for c in 97...122 { t[c] = "+" + String(UnicodeScalar(UInt8(c - 32))) }
        for (i, l) in "PQRST".enumerated() { t[123 + i] = "%\(l)" }        // { | } ~ DEL
        return t
    }()

    func decoded(_ raw: String) -> String? {
        Code39FullASCII.decoded(Array(raw.utf8)).map { String(decoding: $0, as: UTF8.self) }
    }

    @Test("the issue's examples read as zxing-cpp and VisionKit read them")
    func examples() {
        #expect(decoded("E+X+T+E+N+D+E+D /A%J") == "Extended !?")
        #expect(decoded("E+X+T+E+N+D+E+D /A%J/J/C") == "Extended !?*#")
        #expect(decoded("12+A+B") == "12ab")
    }

    @Test("every one of the 128 ASCII characters, alone and all in one text")
    func everyCharacter() {
        for c in 0..<128 {
            #expect(Code39FullASCII.decoded(Array(Self.table[c].utf8)) == [UInt8(c)], "\(c): \(Self.table[c])")
        }
        #expect(Code39FullASCII.decoded(Array(Self.table.joined().utf8)) == (0..<128).map { UInt8($0) })
        // %X, %Y and %Z are DEL too.
        #expect(decoded("%X%Y%Z") == "\u{7F}\u{7F}\u{7F}")
    }

    @Test("plain Code 39 whose shift characters start no valid pair is left as it is",
          arguments: ["AB%", "$", "+", "/", "ABC123$", "/P", "/1", "$1", "+-", "%.", "A$ B", "12+ab"])
    func notFullASCII(raw: String) {
        #expect(decoded(raw) == nil)
        let normalized = SymbolCheck.normalized(.code39, Array(raw.utf8), wanted: [.code39])
        #expect(normalized.map { String(decoding: $0.1, as: UTF8.self) } == raw)
    }

    @Test("text without shift characters is the same either way")
    func noShifts() {
        #expect(decoded("CODE39 42") == "CODE39 42")
        #expect(decoded("") == "")
    }

    @Test("asked for the characters as they stand, a Full ASCII Code 39 is not decoded")
    func rawOnRequest() {
        let raw = Array("12+A+B".utf8)
        #expect(SymbolCheck.normalized(.code39, raw, wanted: [.code39])?.1 == Array("12ab".utf8))
        #expect(SymbolCheck.normalized(.code39, raw, wanted: [.code39],
                                       reading: ReadingOptions(code39FullASCII: false))?.1 == raw)
        // Code 93 has Full ASCII of its own, which its engines decode; ours leaves it alone.
        #expect(SymbolCheck.normalized(.code93, raw, wanted: [.code93])?.1 == raw)
    }

    @Test("a Code 32 is still found among its base-32 characters, which hold no shift character")
    func code32First() {
        // 123456788 in base 32, as the Code 32 image of Tests/Images/symbologies draws it.
        var value = 123_456_788, raw: [UInt8] = []
        for _ in 0..<6 { raw.insert(Code32.alphabet[value % 32], at: 0); value /= 32 }
        let read = SymbolCheck.normalized(.code39, raw, wanted: [.code39, .code32])
        #expect(read?.0 == .code32 && read?.1 == Array("A123456788".utf8))
    }

    @Test("any bytes at all: a result no longer than the input, every pair one character, nothing else changed")
    func hostile() {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("$%/+ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 -.".utf8) + [0, 0x80, 0xFF, 0x2A]
        for _ in 0..<5000 {
            let raw = (0..<Int.random(in: 0...24, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }
            guard let out = Code39FullASCII.decoded(raw) else { continue }
            let shifts = raw.filter(Code39FullASCII.isShift).count
            #expect(out.count == raw.count - shifts)
            #expect(out.allSatisfy { $0 < 128 || raw.contains($0) })
        }
    }
}
