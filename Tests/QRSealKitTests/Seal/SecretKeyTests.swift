import Testing
@testable import QRSealKit

/// Key files: `QRSEAL-KEY-1-` and 58 base32 characters with a checksum (docs/FORMAT.md, section 5).
@Suite("Seal: key files")
struct SecretKeyTests {
    static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")

    private func isBadKey(_ text: String) -> Bool {
        do {
            _ = try SecretKey(text: text)
            return false
        } catch {
            if case .badKey = error { return true }
            return false
        }
    }

    @Test("a generated key survives text and back")
    func roundTrip() throws {
        for _ in 0..<50 {
            let key = try SecretKey.generate()
            #expect(try SecretKey(text: key.text) == key)
        }
    }

    @Test("generated keys are fresh")
    func fresh() throws {
        let keys = try (0..<20).map { _ in try SecretKey.generate().text }
        #expect(Set(keys).count == keys.count)
    }

    @Test("the text is the prefix and 58 upper-case base32 characters, on one line")
    func shape() throws {
        let text = try SecretKey.generate().text
        #expect(text.hasPrefix("QRSEAL-KEY-1-"))
        let body = Array(text.dropFirst("QRSEAL-KEY-1-".count))
        #expect(body.count == 58)
        #expect(body.allSatisfy { Self.alphabet.contains($0) })
        #expect(!text.contains("\n"))
    }

    @Test("known secrets give the text a reader following the spec computes")
    func knownText() throws {
        // base32(F ‖ SHA-256("qrseal key 1" ‖ F)[0..<4]), computed with Python's hashlib and base64.
        let zeros = SecretKey(bytes: [UInt8](repeating: 0, count: 32))
        #expect(zeros.text == "QRSEAL-KEY-1-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAOCQ3VOI")
        let counting = SecretKey(bytes: Array(0..<32))
        #expect(counting.text == "QRSEAL-KEY-1-AAAQEAYEAUDAOCAJBIFQYDIOB4IBCEQTCQKRMFYYDENBWHA5DYPQENYKIM")
        #expect(try SecretKey(text: counting.text) == counting)
    }

    @Test("lower case and white space around the line are accepted")
    func lenientReading() throws {
        let key = try SecretKey.generate()
        for text in [key.text.lowercased(), key.text + "\n", key.text + "\r\n", "  \t" + key.text + " \n",
                     "\n" + key.text.lowercased() + "\n\n"] {
            #expect(try SecretKey(text: text) == key, "\(text.debugDescription)")
        }
    }

    @Test("every single-character substitution at 10 random positions is caught")
    func substitutions() throws {
        let key = try SecretKey.generate()
        let text = Array(key.text)
        let bodyStart = "QRSEAL-KEY-1-".count
        var positions = Set([text.count - 1])  // the last character carries two padding bits
        while positions.count < 11 { positions.insert(Int.random(in: bodyStart..<text.count)) }
        for position in positions.sorted() {
            for replacement in Self.alphabet where replacement != text[position] {
                var typo = text
                typo[position] = replacement
                #expect(isBadKey(String(typo)), "position \(position): \(text[position]) → \(replacement)")
            }
        }
    }

    @Test("swapping two neighbouring characters is caught")
    func transpositions() throws {
        let key = try SecretKey.generate()
        let text = Array(key.text)
        for i in "QRSEAL-KEY-1-".count..<(text.count - 1) where text[i] != text[i + 1] {
            var typo = text
            typo.swapAt(i, i + 1)
            #expect(isBadKey(String(typo)), "swap at \(i)")
        }
    }

    @Test("a wrong prefix is refused")
    func wrongPrefix() throws {
        let body = String(try SecretKey.generate().text.dropFirst("QRSEAL-KEY-1-".count))
        for prefix in ["", "QRSEAL-KEY-2-", "QRSEAL-KEY-1", "QRSEAL-KEY-", "QRSEAL-KEY1-", "AGE-SECRET-KEY-1",
                       "QRSEAL1:", " QRSEAL-KEY-1- "] {
            #expect(isBadKey(prefix + body), "prefix \(prefix.debugDescription)")
        }
    }

    @Test("a wrong length or a foreign character is refused")
    func wrongLength() throws {
        let text = try SecretKey.generate().text
        let cases = ["", "QRSEAL-KEY-1-", String(text.dropLast()), text + "A", text + "AAAAAAAA",
                     String(text.dropLast(8)), text.replacingLast(with: "1"), text.replacingLast(with: "="),
                     text.replacingLast(with: "8"), text + "=", text + "==", text + " A",
                     String(text.prefix(30)) + " " + String(text.dropFirst(30))]
        for bad in cases {
            #expect(isBadKey(bad), "\(bad.debugDescription)")
        }
    }
}

private extension String {
    func replacingLast(with character: Character) -> String { String(dropLast()) + String(character) }
}
