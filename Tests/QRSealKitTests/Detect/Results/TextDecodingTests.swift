import Foundation
import Testing
@testable import QRSealKit

@Suite("Text decoding")
struct TextDecodingTests {
    @Test("valid UTF-8 is read as UTF-8")
    func utf8() {
        #expect(TextDecoding.text(from: Array("naïve café ☕".utf8)) == "naïve café ☕")
    }

    @Test("Shift_JIS text (as older Japanese encoders wrote it) is read as Shift_JIS")
    func shiftJIS() {
        // "QRコード" in Shift_JIS.
        let bytes: [UInt8] = [0x51, 0x52, 0x83, 0x52, 0x81, 0x5B, 0x83, 0x68]
        #expect(TextDecoding.text(from: bytes) == "QRコード")
    }

    @Test("ISO-8859-1 text that is not UTF-8 is read as Latin-1")
    func latin1() {
        let bytes: [UInt8] = [0x63, 0x61, 0x66, 0xE9, 0x20, 0x64, 0xE9, 0x6A, 0xE0]  // "café déjà"
        #expect(TextDecoding.text(from: bytes) == "café déjà")
    }

    @Test("bytes with NUL or other control characters are binary, not text")
    func binary() {
        #expect(TextDecoding.text(from: [0x41, 0x00, 0x42]) == nil)
        #expect(TextDecoding.text(from: [0xFF, 0x01, 0x80, 0x02]) == nil)
        #expect(TextDecoding.text(from: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) == nil)
    }

    @Test("text with line breaks and tabs stays text")
    func whitespace() {
        #expect(TextDecoding.text(from: Array("a\tb\r\nc".utf8)) == "a\tb\r\nc")
    }
}
