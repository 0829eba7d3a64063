import Foundation
import Testing
@testable import QRSealKit

/// What the binaries do without Foundation's full framework (TextForms, Threads, JSON
/// reading), checked against what Foundation itself gives where it had the same call.
@Suite("without Foundation: string forms, threads, JSON lines")
struct FoundationFreeTests {
    @Test("trimming agrees with Foundation's whitespaces and whitespacesAndNewlines", arguments: [
        "", "  ", " a b ", "\ta\t", "\u{00A0}x\u{3000}", "\n x \r\n", "x", "\u{2028}y\u{2029}", " \u{85}z",
    ])
    func trimming(_ text: String) {
        #expect(text.trimmingSpaces() == text.trimmingCharacters(in: .whitespaces))
        #expect(text.trimmingWhitespace() == text.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(Substring(text).trimmingSpaces() == text.trimmingCharacters(in: .whitespaces))
    }

    @Test("alphanumerics agree with Foundation's: letters, marks and numbers of every script")
    func alphanumerics() {
        for scalar in "aZé٣ⅫΩ中\u{301}-_. $/\u{0}😀".unicodeScalars {
            #expect(scalar.isAlphanumeric == CharacterSet.alphanumerics.contains(scalar), "U+\(String(scalar.value, radix: 16))")
        }
    }

    @Test("numbers as people read them: brief, one decimal, hexadecimal; padded columns")
    func numbers() {
        #expect(NumberText.brief(2) == "2" && NumberText.brief(2.5) == "2.5" && NumberText.brief(0.1) == "0.1")
        #expect(NumberText.oneDecimal(1.25) == String(format: "%.1f", 1.25 + 1e-9))
        #expect(NumberText.oneDecimal(12) == "12.0" && NumberText.oneDecimal(0.04) == "0.0" && NumberText.oneDecimal(-1.5) == "-1.5")
        #expect(NumberText.hex([0, 0x0f, 0xa5, 0xff], separator: " ") == "00 0f a5 ff" && NumberText.hex([]) == "")
        #expect("ab".padded(to: 4) == "ab  " && "abcdef".padded(to: 3) == "abc" && "é".padded(to: 2) == "é ")
    }

    @Test("a JSON line is read as an object of strings, numbers, truth values, nulls, lists and objects")
    func jsonLines() throws {
        let object = try #require(JSON.object(parsing: #"{"a":"x\u00e9","n":3,"d":0.1,"t":true,"z":null,"l":[1,"2"],"o":{"k":false}}"#))
        #expect(object["a"]?.string == "xé" && object["t"]?.bool == true && object["n"]?.string == nil)
        guard case .int(3)? = object["n"], case .number(0.1)? = object["d"], case .null? = object["z"],
              case .array(let list)? = object["l"], list.count == 2, case .object(let inner)? = object["o"],
              inner.first?.1.bool == false else {
            Issue.record("\(object)")
            return
        }
        for bad in ["", "[1]", "\"text\"", "{", "{\"a\":}", "{} {}", "nul"] { #expect(JSON.object(parsing: bad) == nil, "\(bad)") }
    }

    @Test("threads started by Threads run under Lock and are waited for with Condition")
    func threads() {
        let lock = Lock(), done = Condition()
        nonisolated(unsafe) var count = 0
        nonisolated(unsafe) var finished = 0
        for _ in 0..<8 {
            Threads.start(name: "qrseal test") {
                for _ in 0..<1000 { lock.withLock { count += 1 } }
                done.withLock { finished += 1 }
                done.broadcast()
            }
        }
        done.lock()
        while finished < 8 { done.wait() }
        done.unlock()
        #expect(lock.withLock { count } == 8000)
    }
}
