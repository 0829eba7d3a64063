import Testing
@testable import QRSealKit

/// The kinds found in recognised text, and a printed sealed message told from text.
@Suite("Recognize: kinds in text")
struct TextContentTests {
    /// A block of `lines`, words split at spaces; boxes and confidences do not matter here.
    func block(_ lines: [String]) -> TextBlock {
        let box = Region(x: 0, y: 0, width: 10, height: 10)
        return TextBlock(lines: lines.map { line in
            TextLine(words: line.split(separator: " ").map { TextWord(text: String($0), confidence: 90, box: box) },
                     confidence: 90, box: box)
        }, confidence: 90, box: box)
    }

    @Test("links, e-mail addresses and phone numbers, with the punctuation of prose taken off")
    func kinds() {
        let b = block(["See (https://example.org/a?b=1), or www.example.com.",
                       "Mail <bob@example.net>; call +1 (555) 010-0199, or 020 7946 0958."])
        #expect(b.contents.map(\.kind) == [.url, .url, .email, .phone, .phone])
        #expect(b.contents.map { $0.fields.first?.value ?? "" }
                == ["https://example.org/a?b=1", "www.example.com", "bob@example.net", "+1 (555) 010-0199", "020 7946 0958"])
        #expect(b.kind == .url)
        #expect(b.lines[1].contents.map(\.kind) == [.email, .phone, .phone])
    }

    @Test("text that only resembles a kind stays text", arguments: [
        "version 1.2.3 of 2024", "room 12 at 10:30", "a@b", "call 55-0199", "page 10-12 of 30", "http:// nothing",
        "123456789012345678 digits",
    ])
    func plain(_ line: String) {
        #expect(block([line]).contents.isEmpty, "\(block([line]).contents)")
        #expect(block([line]).kind == .text)
    }

    @Test("printed sealed digits: the spaces and line breaks Tesseract puts in are taken out")
    func sealedArmor() throws {
        let b = block(["QRSEAL1:", "02239 98479 34129", "83600 8901"])
        #expect(b.sealedArmor == Array("QRSEAL1:022399847934129836008901".utf8))
        #expect(b.kind == .sealed)
    }

    @Test("anything but digits after the prefix, or nothing, is not a sealed message", arguments: [
        ["QRSEAL1: 0223 O998"], ["QRSEAL1: 0223", "and a note"], ["see QRSEAL1: 0223"], ["qrseal1:0223"],
    ])
    func notSealed(_ lines: [String]) {
        #expect(block(lines).sealedArmor == nil)
        #expect(block(lines).kind != .sealed)
    }

    @Test("a prefix read as a block of its own is joined with the digit blocks under it, and nothing else")
    func joining() throws {
        let joined = TextBlock.joiningSealed([block(["QRSEAL1:"]), block(["02239 98479", "34129"]), block(["836"]),
                                              block(["Dear Bob"]), block(["12345"])])
        #expect(joined.map(\.text) == ["QRSEAL1:\n02239 98479\n34129\n836", "Dear Bob", "12345"])
        #expect(joined[0].sealedArmor == Array("QRSEAL1:022399847934129836".utf8))
        #expect(TextBlock.joiningSealed([block(["12345"]), block(["QRSEAL1:"])]).count == 2)
    }

    @Test("a reader opens printed digits only with the right key; a misread digit fails authentication")
    func opening() throws {
        let key = SealKey.keyFile(try SecretKey.generate())
        let armor = Armor.text(for: try Sealer().seal(.text("meet at noon"), with: key))
        let digits = String(armor.dropFirst(8))
        let printed = block(["QRSEAL1:", String(digits.prefix(40)), String(digits.dropFirst(40))])
        #expect(Reader(keys: [key]).open(Classification(printed)) == .opened(.text("meet at noon")))
        #expect(Reader().open(Classification(printed)).isSealedWithoutKey)
        var wrong = Array(digits)
        wrong[20] = wrong[20] == "1" ? "2" : "1"
        let misread = block(["QRSEAL1:", String(wrong)])
        guard case .failed = Reader(keys: [key]).open(Classification(misread)) else {
            Issue.record("a misread digit must fail, not open"); return
        }
        #expect(Reader(keys: [key]).open(Classification(block(["some text"]))) == .plain)
    }
}

extension Reader.Content {
    var isSealedWithoutKey: Bool { if case .locked = self { return true } else { return false } }
}
