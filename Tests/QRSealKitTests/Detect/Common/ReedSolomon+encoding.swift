@testable import QRSealKit

/// Encoding, which only the tests need: they make symbols whose damage the decoder must mend.
extension ReedSolomon {
    /// The `count` check words that follow `data` (elements of `field`): the remainder of
    /// data·x^count divided by the generator (x − α^b)(x − α^(b+1))…(x − α^(b+count−1)),
    /// b = `firstRoot`.
    static func checkWords(for data: [Int], count: Int, field: GaloisField, firstRoot: Int = 1) -> [Int] {
        var generator = [1]  // highest degree first
        for i in 0..<count {
            var next = generator + [0]
            for (j, c) in generator.enumerated() { next[j + 1] ^= field.multiply(c, field.power(firstRoot + i)) }
            generator = next
        }
        var remainder = [Int](repeating: 0, count: count)
        for word in data where count > 0 {
            let factor = word ^ remainder[0]
            remainder = Array(remainder.dropFirst()) + [0]
            for j in 0..<count { remainder[j] ^= field.multiply(generator[j + 1], factor) }
        }
        return remainder
    }
}
