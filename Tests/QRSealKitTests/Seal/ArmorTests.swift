import Testing
@testable import QRSealKit

/// How an envelope sits in a symbol, and how pasted text is read back (docs/FORMAT.md, section 4).
@Suite("Seal: armor")
struct ArmorTests {
    let envelope: [UInt8]

    init() throws {
        envelope = try Sealer().seal(.text("armored"), with: .keyFile(try SecretKey.generate()))
    }

    private func textError(_ text: String) -> SealError? {
        do {
            _ = try Armor.envelope(fromText: text)
            return nil
        } catch {
            return error
        }
    }

    /// `text` with `separator` inserted after every `every` characters.
    private func spaced(_ text: String, every: Int, separator: String) -> String {
        var out = ""
        for (i, c) in text.enumerated() {
            if i > 0 && i % every == 0 { out += separator }
            out.append(c)
        }
        return out
    }

    @Test("digits armor text is the prefix and the envelope's digits")
    func digitsText() throws {
        let text = Armor.text(for: envelope)
        #expect(text.hasPrefix("QRSEAL1:"))
        let digits = text.dropFirst("QRSEAL1:".count)
        #expect(digits.count == Digits.count(forBytes: envelope.count))
        #expect(digits.allSatisfy { $0.isASCII && $0.isNumber })
        #expect(try Armor.envelope(fromText: text) == envelope)
    }

    @Test("digits armor content is an alphanumeric prefix segment and a numeric segment")
    func digitsContent() throws {
        guard case .segments(let segments) = Armor.digits.content(for: envelope) else {
            Issue.record("digits armor is not given as segments")
            return
        }
        #expect(segments == [Segment(mode: .alphanumeric, bytes: Array("QRSEAL1:".utf8)),
                             Segment(mode: .numeric, bytes: Digits.encode(envelope))])
    }

    @Test("binary armor content is the magic bytes and the envelope")
    func binaryContent() throws {
        guard case .binary(let bytes) = Armor.binary.content(for: envelope) else {
            Issue.record("binary armor is not given as bytes")
            return
        }
        #expect(bytes == [0x00, 0x51, 0x52, 0x53] + envelope)
    }

    @Test("white space anywhere and a lower-case prefix are accepted", arguments: [
        (1, " "), (3, "\n"), (4, "\t"), (5, "\r\n"), (7, "  \t\n"), (2, "\u{A0}"),
    ])
    func whiteSpace(every: Int, separator: String) throws {
        let text = Armor.text(for: envelope)
        #expect(try Armor.envelope(fromText: spaced(text, every: every, separator: separator)) == envelope)
        let lower = "qrseal1:" + text.dropFirst(8)
        #expect(try Armor.envelope(fromText: "\n  " + spaced(lower, every: every, separator: separator) + "\n") == envelope)
        #expect(try Armor.envelope(fromText: "QrSeAl1:" + text.dropFirst(8)) == envelope)
    }

    @Test("words a scanner app puts before the text are passed over", arguments: [
        "Scanned text: ", "Text\n", "QR code: ", "qrseal: ", "QRSEAL10 ",
    ])
    func wordsBefore(words: String) throws {
        let text = Armor.text(for: envelope)
        #expect(try Armor.envelope(fromText: words + text) == envelope)
        #expect(try Armor.envelope(fromText: words + spaced(text, every: 5, separator: " ")) == envelope)
        // The words change nothing of what follows: digits cut short are still damage.
        #expect(textError(words + String(text.dropLast(3))) != nil)
    }

    @Test("another format version is refused as such", arguments: [
        ("QRSEAL2:123", 2), ("qrseal2:00000", 2), ("QRSEAL0:123", 0), ("QRSEAL10:123", 10), ("QRSEAL2:", 2),
        ("QRSEAL10000:123", 10000), ("QRSEAL99999999999999999999:1", Int(Int32.max)),
    ])
    func otherVersion(text: String, version: Int) {
        #expect(textError(text) == .unsupportedVersion(version))
        #expect(throws: SealError.unsupportedVersion(version)) { try Armor.envelope(fromSymbol: Array(text.utf8)) }
        #expect(Armor.isSealed(Array(text.utf8)))
    }

    @Test("text that is not digits armor is bad armor", arguments: [
        "hello", "", "QRSEAL", "QRSEAL:123", "QRSEALED 123", "QRSEAL1", "QRSEAL-KEY-1-AAAA", "1:123", "https://example.org",
    ])
    func notArmor(text: String) {
        guard case .badArmor = textError(text) else {
            Issue.record("\(text.debugDescription): \(String(describing: textError(text)))")
            return
        }
    }

    @Test("characters other than digits after the prefix are bad armor", arguments: [
        "QRSEAL1:12a", "QRSEAL1:-123", "QRSEAL1:0x12", "QRSEAL1:１２３", "QRSEAL1:QRSEAL1:123",
    ])
    func foreignCharacters(text: String) {
        guard case .badArmor = textError(text) else {
            Issue.record("\(text.debugDescription): \(String(describing: textError(text)))")
            return
        }
    }

    @Test("digits of the wrong length or value are refused as non-canonical")
    func nonCanonical() {
        #expect(textError("QRSEAL1:1234") == .nonCanonicalDigits)
        #expect(textError("QRSEAL1:256") == .nonCanonicalDigits)
        let full = Armor.text(for: envelope)
        #expect(textError(full + "0") != nil)
        #expect(textError(String(full.dropLast())) != nil)
    }

    @Test("a paste cut short anywhere is damaged or incomplete, never another version, frame or key type")
    func cutOff() throws {
        let passphrase = try Sealer(scrypt: ScryptParameters(log2N: 10, r: 8, p: 1))
            .seal(.text("a longer message, so that there is much to cut"), with: .passphrase("p"))
        for sealed in [envelope, passphrase] {
            let full = Armor.text(for: sealed)
            for cut in 1..<full.count - Armor.digitsPrefix.count {
                let error = textError(String(full.dropLast(cut)))
                switch error {
                case .truncated?, .badArmor?, .nonCanonicalDigits?: break
                default: Issue.record("\(cut) digits cut off: \(String(describing: error))")
                }
            }
        }
    }

    @Test("ordinary QR payloads are not sealed messages", arguments: [
        "https://example.org", "QRSEALED is a word", "QRSEAL", "QRSEAL:1", "qrseal 1: note", "", "WIFI:S:home;;",
        "\u{0}QR", "QRSEAL1", "QRSEALX1:123",
    ])
    func ordinaryPayloads(text: String) throws {
        let bytes = Array(text.utf8)
        #expect(try Armor.envelope(fromSymbol: bytes) == nil)
        #expect(!Armor.isSealed(bytes))
    }

    @Test("a symbol in either armor gives the envelope")
    func fromSymbol() throws {
        let digits = Array(Armor.text(for: envelope).utf8)
        #expect(try Armor.envelope(fromSymbol: digits) == envelope)
        #expect(Armor.isSealed(digits))
        let binary: [UInt8] = [0x00, 0x51, 0x52, 0x53] + envelope
        #expect(try Armor.envelope(fromSymbol: binary) == envelope)
        #expect(Armor.isSealed(binary))
        #expect(Armor.isSealed(Array("qrseal1:123".utf8)))
    }

    @Test("a damaged digits symbol is an error, not an ordinary payload")
    func damagedSymbol() {
        #expect(throws: SealError.self) { try Armor.envelope(fromSymbol: Array("QRSEAL1:12x45".utf8)) }
        #expect(throws: SealError.nonCanonicalDigits) { try Armor.envelope(fromSymbol: Array("QRSEAL1:1234".utf8)) }
    }

    @Test("an envelope read from armor opens")
    func endToEnd() throws {
        let key = try SecretKey.generate()
        let sealed = try Sealer().seal(.text("through the armor"), with: .keyFile(key))
        for armor in Armor.allCases {
            let symbol: [UInt8]
            switch armor.content(for: sealed) {
            case .segments(let segments): symbol = segments.flatMap(\.bytes)
            case .binary(let bytes): symbol = bytes
            case .text(let text): symbol = Array(text.utf8)
            }
            let found = try #require(try Armor.envelope(fromSymbol: symbol))
            #expect(try Opener().open(found, keys: [.keyFile(key)]) == .text("through the armor"), "\(armor)")
        }
    }
}
