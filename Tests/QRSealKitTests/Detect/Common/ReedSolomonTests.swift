import Testing
@testable import QRSealKit

/// Reed–Solomon over the five fields of Aztec Code, on codewords made here.
@Suite("Reed-Solomon")
struct ReedSolomonTests {
    static let fields: [(String, GaloisField)] = [("GF(16)", .gf16), ("GF(64)", .gf64), ("GF(256)", .gf256),
                                                  ("GF(1024)", .gf1024), ("GF(4096)", .gf4096)]

    @Test("every field's primitive element has the full order: α^k = 1 only at k = 2^m - 1")
    func primitive() {
        for (name, field) in Self.fields {
            let order = (1..<field.size).first { field.power($0) == 1 }
            #expect(order == field.size - 1, "\(name)")
        }
    }

    @Test("up to half the check words in errors are corrected, and their count reported", arguments: 0..<5)
    func corrects(fieldIndex: Int) {
        let (name, field) = Self.fields[fieldIndex]
        var random = SplitMix(seed: UInt64(fieldIndex) + 1)
        let checkCount = fieldIndex == 0 ? 6 : 12
        let dataCount = min(field.size - 1 - checkCount, 40)
        for errors in 0...(checkCount / 2) {
            let data = (0..<dataCount).map { _ in Int(random.next() % UInt64(field.size)) }
            let sent = data + ReedSolomon.checkWords(for: data, count: checkCount, field: field)
            var received = sent
            var positions = Set<Int>()
            while positions.count < errors { positions.insert(Int(random.next() % UInt64(sent.count))) }
            for p in positions { received[p] ^= 1 + Int(random.next() % UInt64(field.size - 1)) }
            #expect(ReedSolomon.correct(&received, checkWords: checkCount, field: field) == errors, "\(name), \(errors) errors")
            #expect(received == sent, "\(name), \(errors) errors")
        }
    }

    @Test("more errors than that are refused, or land on another codeword: never a half-corrected word list")
    func beyond() {
        var random = SplitMix(seed: 99)
        let field = GaloisField.gf256
        var refused = 0
        for _ in 0..<50 {
            let data = (0..<20).map { _ in Int(random.next() % 256) }
            let sent = data + ReedSolomon.checkWords(for: data, count: 8, field: field)
            var received = sent
            var positions = Set<Int>()
            while positions.count < 7 { positions.insert(Int(random.next() % UInt64(sent.count))) }
            for p in positions { received[p] ^= 1 + Int(random.next() % 255) }
            let before = received
            if let count = ReedSolomon.correct(&received, checkWords: 8, field: field) {
                #expect(count <= 4 && received != sent)
                var again = received
                #expect(ReedSolomon.correct(&again, checkWords: 8, field: field) == 0)
            } else {
                refused += 1
                #expect(received == before)
            }
        }
        #expect(refused > 40)
    }

    @Test("word lists that are no codewords at all are refused: values outside the field, no check words, too long")
    func malformed() {
        var outside = [1, 2, 16, 0, 0, 0, 0]
        #expect(ReedSolomon.correct(&outside, checkWords: 5, field: .gf16) == nil)
        var none = [1, 2, 3]
        #expect(ReedSolomon.correct(&none, checkWords: 0, field: .gf16) == nil)
        var long = [Int](repeating: 1, count: 16)
        #expect(ReedSolomon.correct(&long, checkWords: 5, field: .gf16) == nil)
    }

    @Test("QR's field and roots (α^0 first): the check words of the standard's HELLO WORLD 1-M, and its errors corrected")
    func qrCode() {
        // Version 1-M "HELLO WORLD", as the QR standard's worked example and every tutorial give it.
        let data = [32, 91, 11, 120, 209, 114, 220, 77, 67, 64, 236, 17, 236, 17, 236, 17]
        let check = [196, 35, 39, 119, 235, 215, 231, 226, 93, 23]
        #expect(ReedSolomon.checkWords(for: data, count: 10, field: .qr256, firstRoot: 0) == check)
        #expect(ReedSolomon.checkWords(for: data, count: 10, field: .gf256) != check, "Aztec's field is another")
        var received = data + check
        received[0] ^= 0xFF
        received[7] ^= 0x01
        received[20] ^= 0x80
        #expect(ReedSolomon.correct(&received, checkWords: 10, field: .qr256, firstRoot: 0) == 3)
        #expect(received == data + check)
    }
}
