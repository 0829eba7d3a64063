import Testing
@testable import QRSealKit

/// The Cauchy code behind parity parts (docs/FORMAT.md, section 8.4), through ISA-L.
@Suite("Parts: erasure code")
struct ErasureCodeTests {
    private func random(_ count: Int) -> [UInt8] { (0..<count).map { _ in UInt8.random(in: 0...255) } }

    @Test("parity bytes match values worked out by hand in GF(2^8) with x^8+x^4+x^3+x^2+1")
    func knownAnswers() {
        // p_r = Σ_j d_j / (r ⊕ j); computed independently in vectors/reference/reader.py's arithmetic.
        let data: [[UInt8]] = [[1, 0x10], [2, 0x20], [3, 0x30]]
        #expect(ErasureCode.parity(data: data, rows: [3, 4, 255]) == [[246, 219], [154, 85], [29, 205]])
    }

    @Test("any k of k + m chunks give the data back, for small codes exhaustively")
    func anyKOfN() throws {
        for (k, m) in [(1, 0), (1, 1), (1, 4), (2, 2), (3, 0), (3, 3), (4, 2)] {
            let data = (0..<k).map { _ in random(7) }
            let all = data + ErasureCode.parity(data: data, rows: Array(k..<k + m))
            let n = k + m
            for mask in 0..<(1 << n) where mask.nonzeroBitCount == k {
                let chosen = (0..<n).filter { mask & (1 << $0) != 0 }.map { (row: $0, bytes: all[$0]) }
                #expect(try ErasureCode.recover(k: k, chunks: chosen.reversed()) == data, "k \(k) m \(m) mask \(mask)")
            }
        }
    }

    @Test("the largest code, 255 rows, rebuilds from its last k rows only")
    func largest() throws {
        let k = 128
        let data = (0..<k).map { _ in random(64) }
        let parity = ErasureCode.parity(data: data, rows: Array(k...255))
        let chunks = (0..<parity.count).suffix(k).map { (row: k + $0, bytes: parity[$0]) }
        #expect(try ErasureCode.recover(k: k, chunks: chunks) == data)
    }

    @Test("fewer than k distinct rows, or duplicates of one row, are reported as incomplete")
    func tooFew() {
        let data = [random(5), random(5), random(5)]
        let parity = ErasureCode.parity(data: data, rows: [3])
        #expect(throws: PartsError.incomplete(have: 2, need: 3)) {
            try ErasureCode.recover(k: 3, chunks: [(0, data[0]), (3, parity[0]), (3, parity[0])])
        }
    }
}
