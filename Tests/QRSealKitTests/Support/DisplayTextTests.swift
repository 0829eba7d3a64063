import Testing
@testable import QRSealKit

/// Text from outside made safe for a terminal, and bytes that are not UTF-8 carried through.
@Suite("Support: display text and raw bytes")
struct DisplayTextTests {
    @Test("controls, C1, bidi and invisible characters are escaped visibly; ordinary text is kept",
          arguments: [
              ("plain text, ünïcode ✓", "plain text, ünïcode ✓"),
              ("a\nb\r\tc", "a\\nb\\r\\tc"),
              ("\u{1B}[31mred\u{7}", "\\x1b[31mred\\x07"),
              ("del\u{7F} csi\u{9B}", "del\\x7f csi\\u{009b}"),
              ("\u{202E}evil\u{2066}x\u{200B}", "\\u{202e}evil\\u{2066}x\\u{200b}"),
              ("\u{2028}sep", "\\u{2028}sep"),
              ("pass\u{AD}word", "pass\\u{00ad}word"),
              ("\u{2800}\u{3164}\u{115F}", "\\u{2800}\\u{3164}\\u{115f}"),
              ("flag\u{E0067}\u{E0062}\u{E007F}", "flag\\u{e0067}\\u{e0062}\\u{e007f}"),
              ("a\u{FE01}b\u{E0100}", "a\\u{fe01}b\\u{e0100}"),
              ("x\u{FE0F} \u{2764}\u{FE0F}\u{FE0F}", "x\\u{fe0f} \u{2764}\u{FE0F}\\u{fe0f}"),
              ("I \u{2764}\u{FE0F} 1\u{FE0F}\u{20E3}", "I \u{2764}\u{FE0F} 1\u{FE0F}\u{20E3}"),
          ])
    func escapes(input: String, shown: String) {
        #expect(DisplayText.escape(input) == shown)
        #expect(DisplayText.isSafe(input) == (input == shown))
        #expect(JSON.quote(input).unicodeScalars.allSatisfy { $0.isASCII || DisplayText.isSafe(String($0)) })
    }

    @Test("a message of several lines keeps its line feeds, tabs and CRLFs on a terminal, not a lone CR")
    func keepingLines() {
        #expect(DisplayText.escapeKeepingLines("one\r\ntwo\tx\n\u{1B}]0;t\u{7}\rover") == "one\r\ntwo\tx\n\\x1b]0;t\\x07\\rover")
        #expect(DisplayText.escapeKeepingLines("end\r") == "end\\r")
    }

    @Test("bytes that are not UTF-8 survive a trip through a string and are shown as \\xHH")
    func rawBytes() {
        let bytes: [UInt8] = [0xFF, 0xFE, 0x2E, 0x70, 0xC3, 0xA9, 0xE9, 0xED, 0xA0, 0x80]
        let text = RawBytes.string(bytes)
        #expect(RawBytes.bytes(text) == bytes)
        #expect(RawBytes.hasRawBytes(text))
        #expect(DisplayText.escape(text) == "\\xff\\xfe.pé\\xe9\\xed\\xa0\\x80")
        #expect(RawBytes.string(Array("valid ✓".utf8)) == "valid ✓")
        #expect(!RawBytes.hasRawBytes("valid ✓"))
    }
}
