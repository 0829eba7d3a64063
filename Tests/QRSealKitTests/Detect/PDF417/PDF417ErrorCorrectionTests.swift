import Testing
import TestSupport
@testable import QRSealKit

/// Reed–Solomon over GF(929) as PDF417 and MicroPDF417 use it.
@Suite("PDF417 error correction")
struct PDF417ErrorCorrectionTests {
    /// `data` with its `k` check codewords.
    static func encoded(_ data: [Int], _ k: Int) -> [Int] {
        data + PDF417ErrorCorrection.checkWords(for: data, count: k)
    }

    static func randomWords(_ count: Int, _ random: inout SplitMix) -> [Int] {
        (0..<count).map { _ in Int(random.next() % 929) }
    }

    @Test("errors and erasures within the check codewords are corrected", arguments: [7, 8, 12, 21, 50])
    func corrects(k: Int) {
        var random = SplitMix(seed: UInt64(k))
        for trial in 0..<20 {
            let data = Self.randomWords(4 + trial, &random)
            let clean = Self.encoded(data, k)
            var words = clean
            let erasures = Array(Set((0..<(trial % (k / 2 + 1))).map { _ in Int(random.next() % UInt64(clean.count)) }))
            let errorBudget = (k - erasures.count) / 2
            var positions = Set(erasures)
            for _ in 0..<errorBudget {
                let p = Int(random.next() % UInt64(clean.count))
                guard !positions.contains(p) else { continue }
                positions.insert(p)
                words[p] = (words[p] + 1 + Int(random.next() % 928)) % 929
            }
            for e in erasures { words[e] = 0 }
            let result = PDF417ErrorCorrection.correct(&words, checkWords: k, erasures: erasures)
            #expect(result != nil && words == clean, "k \(k), trial \(trial)")
        }
    }

    @Test("too many erasures for the margin, or too many errors, correct nothing and leave the words")
    func refuses() {
        var random = SplitMix(seed: 929)
        let clean = Self.encoded(Self.randomWords(10, &random), 8)
        var words = clean
        #expect(PDF417ErrorCorrection.correct(&words, checkWords: 8, erasures: Array(0..<6), margin: 3) == nil)
        // Five errors against 8 check codewords: more than they locate.
        for p in [0, 3, 6, 9, 12] { words[p] = (words[p] + 17) % 929 }
        let damaged = words
        #expect(PDF417ErrorCorrection.correct(&words, checkWords: 8, margin: 3) == nil)
        #expect(words == damaged)
    }

    @Test("hostile input: values out of range, erasures off the words, no check codewords")
    func hostile() {
        var words = [1, 2, 3, 929, 5, 6, 7, 8]
        #expect(PDF417ErrorCorrection.correct(&words, checkWords: 4) == nil)
        words = [1, 2, 3, 4, 5, 6, 7, 8]
        #expect(PDF417ErrorCorrection.correct(&words, checkWords: 4, erasures: [8]) == nil)
        #expect(PDF417ErrorCorrection.correct(&words, checkWords: 0) == nil)
        #expect(PDF417ErrorCorrection.correct(&words, checkWords: 8) == nil)
    }
}
