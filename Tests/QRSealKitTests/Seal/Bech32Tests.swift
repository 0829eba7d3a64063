import Testing
@testable import QRSealKit

@Suite("Bech32 (BIP-173) as age uses it")
struct Bech32Tests {
    @Test("BIP-173's valid Bech32 strings decode, in either case")
    func valid() throws {
        for text in ["A12UEL5L", "a12uel5l", "abcdef1qpzry9x8gf2tvdw0s3jn54khce6mua7lmqqqxw",
                     "split1checkupstagehandshakeupstreamerranterredcaperred2y9e3w"] {
            _ = try Bech32.decode(text)
        }
        let round = Bech32.encode(hrp: "age", data: Array(0..<32))
        #expect(try Bech32.decode(round).data == Array(0..<32))
        #expect(try Bech32.decode(round.uppercased()).hrp == "age")
    }

    @Test("invalid strings are refused, each with its reason")
    func invalid() {
        let good = Bech32.encode(hrp: "age", data: Array(0..<32))
        var flipped = Array(good)
        flipped[10] = flipped[10] == "q" ? "p" : "q"
        let cases: [(String, Bech32.Failure)] = [
            (String(flipped), .badChecksum),
            ("A12uEL5L", .mixedCase),
            ("pzry9x0s0muk", .noSeparator),
            ("1pzry9x0s0muk", .noSeparator),
            ("x1b4n0q5v", .badCharacter),
            ("li1dgmt3", .tooShort),
            ("age1 qqqq", .badCharacter),
            (String(repeating: "q", count: Bech32.maxLength + 1), .tooLong),
        ]
        for (text, failure) in cases {
            #expect(throws: failure, "\(text)") { try Bech32.decode(text) }
        }
    }
}
