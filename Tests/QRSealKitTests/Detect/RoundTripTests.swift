import Testing
@testable import QRSealKit

/// Encode with libqrencode, render, read back with zbar: the bytes must come back exactly.
@Suite("Encode and read back")
struct RoundTripTests {
    func readBack(_ content: QREncoder.Content, level: ErrorCorrection = .medium,
                  scale: Int = 4) throws -> [Detection] {
        let matrix = try QREncoder(level: level).encode(content)
        return Detector().detect(in: matrix.image(scale: scale, margin: 4))
    }

    @Test("every error-correction level", arguments: ErrorCorrection.allCases)
    func levels(level: ErrorCorrection) throws {
        let found = try readBack(.text("Meet at the north gate, 19:30."), level: level)
        #expect(found.map(\.text) == ["Meet at the north gate, 19:30."])
        #expect(found.first?.symbology == .qr)
    }

    @Test("each segment mode and their mix", arguments: [
        "31415926535897932384626433832795",       // numeric
        "HTTPS://EXAMPLE.ORG/A-B/C",              // alphanumeric
        "lower case only, with punctuation!?",   // byte
        "Invoice 2026-0042: 1234567890123 EUR",   // mixed
    ])
    func modes(text: String) throws {
        #expect(try readBack(.text(text)).map(\.text) == [text])
    }

    @Test("UTF-8 text with multi-byte characters")
    func utf8() throws {
        let text = "Grüße aus Köln — 東京で会いましょう 🙂 Ελλάδα"
        let found = try readBack(.text(text))
        #expect(found.map(\.bytes) == [Array(text.utf8)])
        #expect(found.map(\.text) == [text])
    }

    @Test("binary with NUL bytes comes back exactly and is not called text")
    func binary() throws {
        var bytes: [UInt8] = [0, 0, 1, 2, 0xFF, 0xFE, 0, 0x80]
        var generator = SystemRandomNumberGenerator()
        bytes += (0..<300).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let found = try readBack(.binary(bytes))
        #expect(found.map(\.bytes) == [bytes])
        #expect(found.first?.text == nil)
    }

    @Test("the largest binary symbol at level L is read back")
    func fullSymbol() throws {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<2953).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let found = try readBack(.binary(bytes), level: .low, scale: 3)
        #expect(found.map(\.bytes) == [bytes])
    }
}
