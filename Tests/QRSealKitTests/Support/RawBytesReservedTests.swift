import Testing
@testable import QRSealKit

/// A name that holds, as valid UTF-8, one of the private-use scalars `RawBytes` uses for raw
/// bytes must still come back as its own bytes (found by `Fuzz/Targets/display.swift`: the
/// file `a\u{10FF80}.png` was carried as the name `a\x80.png`).
@Suite("Support: raw bytes in reserved scalars")
struct RawBytesReservedTests {
    @Test("the UTF-8 of U+10FF80…U+10FFFF comes back as the same bytes, alone or beside invalid bytes")
    func reservedScalarsRoundTrip() {
        let reserved: [[UInt8]] = [[0xF4, 0x8F, 0xBE, 0x80], [0xF4, 0x8F, 0xBF, 0xBF]]
        for scalar in reserved {
            for name in [Array("a".utf8) + scalar + Array(".png".utf8), [0xFF] + scalar] {
                let text = RawBytes.string(name)
                #expect(RawBytes.bytes(text) == name)
                #expect(RawBytes.withCString(text) { String(cString: $0) } == String(decoding: name, as: UTF8.self))
            }
        }
    }

    @Test("its neighbours stay ordinary text")
    func neighboursAreText() {
        let below: [UInt8] = [0xF4, 0x8F, 0xBD, 0xBF]  // U+10FF7F
        #expect(RawBytes.string(below) == "\u{10FF7F}")
        #expect(!RawBytes.hasRawBytes(RawBytes.string(below)))
    }
}
