/// Arithmetic in GF(2^m), by tables of powers and logarithms of the primitive element α.
struct GaloisField: Sendable {
    /// 2^m: the number of elements.
    let size: Int
    private let exp: [Int]
    private let log: [Int]

    /// The field whose elements are the polynomials over GF(2) modulo `primitive` (given
    /// with its top bit, x^m), of degree `degree`.
    init(degree: Int, primitive: Int) {
        size = 1 << degree
        var exp = [Int](repeating: 0, count: 2 * size)
        var log = [Int](repeating: 0, count: size)
        var x = 1
        for i in 0..<(size - 1) {
            exp[i] = x
            log[x] = i
            x <<= 1
            if x >= size { x ^= primitive }
        }
        for i in (size - 1)..<(2 * size) { exp[i] = exp[i - (size - 1)] }
        self.exp = exp
        self.log = log
    }

    /// The fields of Aztec Code (ISO/IEC 24778, 7.2.2): the mode message's GF(16), and
    /// the data's GF(64), GF(256), GF(1024) and GF(4096), chosen by the number of layers.
    static let gf16 = GaloisField(degree: 4, primitive: 0b1_0011)
    static let gf64 = GaloisField(degree: 6, primitive: 0b100_0011)
    static let gf256 = GaloisField(degree: 8, primitive: 0b1_0010_1101)
    static let gf1024 = GaloisField(degree: 10, primitive: 0b100_0000_1001)
    static let gf4096 = GaloisField(degree: 12, primitive: 0b1_0000_0110_1001)
    /// QR Code's GF(256), x^8 + x^4 + x^3 + x^2 + 1 (ISO/IEC 18004, 7.5.2): not Aztec's.
    static let qr256 = GaloisField(degree: 8, primitive: 0b1_0001_1101)

    func multiply(_ a: Int, _ b: Int) -> Int {
        a == 0 || b == 0 ? 0 : exp[log[a] + log[b]]
    }

    /// a / b, for b ≠ 0.
    func divide(_ a: Int, _ b: Int) -> Int {
        a == 0 ? 0 : exp[log[a] + (size - 1) - log[b]]
    }

    /// α^n, for any whole n.
    func power(_ n: Int) -> Int {
        exp[((n % (size - 1)) + (size - 1)) % (size - 1)]
    }
}

/// Reed–Solomon error correction with the generator roots α^b … α^(b+n−1), b = 1 for Aztec
/// Code and 0 for QR Code: Berlekamp–Massey for the error locator, Chien search for where
/// the errors are, Forney for what they are.
enum ReedSolomon {
    /// Corrects `words` (data words first, then `checkWords` check words, each an element of
    /// `field`) in place and returns how many words were wrong, or nil when they are beyond
    /// correction: more errors than half the check words, or a locator whose roots do not
    /// all lie on the words (then `words` is left as it was).
    static func correct(_ words: inout [Int], checkWords: Int, field: GaloisField, firstRoot: Int = 1) -> Int? {
        let n = words.count
        guard checkWords > 0, checkWords < n, n < field.size, words.allSatisfy({ (0..<field.size).contains($0) })
        else { return nil }
        let roots = (0..<checkWords).map { field.power(firstRoot + $0) }
        let syndromes = roots.map { evaluate(words, at: $0, field: field) }
        if syndromes.allSatisfy({ $0 == 0 }) { return 0 }

        // Berlekamp–Massey: the shortest linear recurrence that generates the syndromes.
        var locator = [1], previous = [1]
        var length = 0, gap = 1, lastDiscrepancy = 1
        for k in 0..<checkWords {
            var discrepancy = syndromes[k]
            for i in 1...max(1, length) where i <= length && i < locator.count {
                discrepancy ^= field.multiply(locator[i], syndromes[k - i])
            }
            if discrepancy == 0 {
                gap += 1
                continue
            }
            let factor = field.divide(discrepancy, lastDiscrepancy)
            var next = locator
            if next.count < previous.count + gap { next += [Int](repeating: 0, count: previous.count + gap - next.count) }
            for (i, c) in previous.enumerated() { next[i + gap] ^= field.multiply(factor, c) }
            if 2 * length <= k {
                previous = locator
                length = k + 1 - length
                lastDiscrepancy = discrepancy
                gap = 1
            } else {
                gap += 1
            }
            locator = next
        }
        while locator.count > 1 && locator.last == 0 { locator.removeLast() }
        let errors = locator.count - 1
        guard errors > 0, 2 * errors <= checkWords else { return nil }

        // Chien search: word i carries the locator X = α^(n-1-i); it is wrong when Λ(X⁻¹) = 0.
        var positions: [Int] = []
        for i in 0..<n where evaluateAscending(locator, at: field.power(-(n - 1 - i)), field: field) == 0 {
            positions.append(i)
        }
        guard positions.count == errors else { return nil }

        // Forney: e = X^(1−b) · Ω(X⁻¹) / Λ'(X⁻¹), with Ω = S·Λ mod x^checkWords (first root α^b).
        var omega = [Int](repeating: 0, count: checkWords)
        for (i, s) in syndromes.enumerated() {
            for (j, l) in locator.enumerated() where i + j < checkWords { omega[i + j] ^= field.multiply(s, l) }
        }
        // The formal derivative in characteristic 2 keeps the odd-degree terms.
        var derivative = [Int](repeating: 0, count: max(1, locator.count - 1))
        for j in stride(from: 1, to: locator.count, by: 2) { derivative[j - 1] = locator[j] }
        var corrected = words
        for i in positions {
            let inverse = field.power(-(n - 1 - i))
            let denominator = evaluateAscending(derivative, at: inverse, field: field)
            guard denominator != 0 else { return nil }
            let value = field.divide(evaluateAscending(omega, at: inverse, field: field), denominator)
            corrected[i] ^= field.multiply(value, field.power((1 - firstRoot) * (n - 1 - i)))
        }
        guard roots.allSatisfy({ evaluate(corrected, at: $0, field: field) == 0 }) else { return nil }
        words = corrected
        return errors
    }

    /// The polynomial whose coefficients are `words`, highest degree first, at `x`.
    private static func evaluate(_ words: [Int], at x: Int, field: GaloisField) -> Int {
        words.reduce(0) { field.multiply($0, x) ^ $1 }
    }

    /// The polynomial whose coefficients are `coefficients`, lowest degree first, at `x`.
    private static func evaluateAscending(_ coefficients: [Int], at x: Int, field: GaloisField) -> Int {
        coefficients.reversed().reduce(0) { field.multiply($0, x) ^ $1 }
    }
}
