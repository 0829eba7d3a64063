/// Reed–Solomon error correction over GF(929), the prime field of PDF417 and MicroPDF417
/// (ISO/IEC 15438, 5.8; ISO/IEC 24728, 5.7): the check codewords make the codewords, read
/// as a polynomial with the first codeword the highest power, a multiple of
/// (x − 3)(x − 3²) … (x − 3^k). Unlike `ReedSolomon`'s fields of characteristic 2, adding
/// is not subtracting here, so the decoder keeps its signs. Erasures (codewords not read
/// at all) cost one check codeword each, errors two.
enum PDF417ErrorCorrection {
    static let modulus = 929

    /// 3^i for i in 0 ..< 928, and back.
    private static let tables: (exp: [Int], log: [Int]) = {
        var exp = [Int](repeating: 0, count: modulus - 1), log = [Int](repeating: 0, count: modulus)
        var x = 1
        for i in 0..<(modulus - 1) {
            exp[i] = x
            log[x] = i
            x = x * 3 % modulus
        }
        return (exp, log)
    }()

    static func power(_ n: Int) -> Int {
        let m = modulus - 1
        return tables.exp[((n % m) + m) % m]
    }

    static func multiply(_ a: Int, _ b: Int) -> Int { a * b % modulus }

    static func inverse(_ a: Int) -> Int { tables.exp[(modulus - 1 - tables.log[a]) % (modulus - 1)] }

    static func add(_ a: Int, _ b: Int) -> Int { (a + b) % modulus }

    static func subtract(_ a: Int, _ b: Int) -> Int { (a - b + modulus) % modulus }

    /// How the codewords were corrected: the errors found and the erasures filled.
    struct Correction: Equatable, Sendable {
        let errors: Int
        let erasures: Int
    }

    /// Corrects `words` (data codewords, then `checkWords` check codewords, each 0 … 928) in
    /// place, the codewords at `erasures` unknown, and says what it did; nil when they are
    /// beyond correction with `margin` check codewords to spare (2 · errors + erasures +
    /// margin ≤ checkWords), or the result does not check (then `words` is left as it was).
    /// The margin keeps a guess from passing for a read: with as many erasures as check
    /// codewords, any codewords would "correct".
    static func correct(_ words: inout [Int], checkWords: Int, erasures: [Int] = [], margin: Int = 0) -> Correction? {
        let n = words.count
        let erased = Set(erasures)
        guard checkWords > 0, checkWords < n, n < modulus, margin >= 0,
              erased.count + margin <= checkWords, erased.allSatisfy({ (0..<n).contains($0) }),
              words.allSatisfy({ (0..<modulus).contains($0) }) else { return nil }
        // Word i carries the locator X = 3^(n − 1 − i); syndromes S_j = r(3^j), j = 1 … k.
        let syndromes = (1...checkWords).map { evaluate(words, at: power($0)) }
        if syndromes.allSatisfy({ $0 == 0 }) { return Correction(errors: 0, erasures: 0) }

        // The erasure locator Γ(x) = Π (1 − X_e x), lowest degree first.
        var gamma = [1]
        for e in erased.sorted() { gamma = product(gamma, [1, subtract(0, power(n - 1 - e))]) }
        // Forney syndromes: the coefficients e … k − 1 of Γ(x)·S(x) follow the recurrence of
        // the errors alone.
        let modified = Array(product(gamma, syndromes).prefix(checkWords).dropFirst(erased.count))
        let (sigma, errors) = berlekampMassey(modified)
        guard 2 * errors + erased.count + margin <= checkWords else { return nil }
        var locator = product(sigma, gamma)
        while locator.count > 1 && locator.last == 0 { locator.removeLast() }

        // Chien search: word i is wrong (or erased) when Λ(X_i⁻¹) = 0.
        var positions: [Int] = []
        for i in 0..<n where evaluateAscending(locator, at: power(-(n - 1 - i))) == 0 { positions.append(i) }
        guard positions.count == errors + erased.count, positions.count == locator.count - 1 else { return nil }

        // Forney: Y = −Ω(X⁻¹) / Λ'(X⁻¹), with Ω = S·Λ mod x^k (first root 3¹).
        let omega = Array(product(syndromes, locator).prefix(checkWords))
        var derivative = [Int](repeating: 0, count: max(1, locator.count - 1))
        for j in 1..<max(1, locator.count) { derivative[j - 1] = multiply(locator[j], j % modulus) }
        var corrected = words
        for i in positions {
            let x = power(-(n - 1 - i))
            let denominator = evaluateAscending(derivative, at: x)
            guard denominator != 0 else { return nil }
            let value = multiply(evaluateAscending(omega, at: x), inverse(denominator))
            corrected[i] = add(corrected[i], value)
        }
        guard (1...checkWords).allSatisfy({ evaluate(corrected, at: power($0)) == 0 }) else { return nil }
        words = corrected
        let fixedErasures = positions.filter { erased.contains($0) }.count
        return Correction(errors: positions.count - fixedErasures, erasures: erased.count)
    }

    /// The check codewords for `data`: the remainder of data · x^k divided by the generator,
    /// negated (what an encoder appends).
    static func checkWords(for data: [Int], count k: Int) -> [Int] {
        var generator = [1]  // highest degree first
        for j in 1...k {
            // Multiply by (x − 3^j).
            let root = power(j)
            var next = generator + [0]
            for (i, c) in generator.enumerated() { next[i + 1] = subtract(next[i + 1], multiply(c, root)) }
            generator = next
        }
        var remainder = [Int](repeating: 0, count: k)
        for d in data {
            let factor = add(d, remainder[0])
            remainder.removeFirst()
            remainder.append(0)
            for i in 0..<k { remainder[i] = subtract(remainder[i], multiply(factor, generator[i + 1])) }
        }
        return remainder.map { subtract(0, $0) }
    }

    /// The polynomial whose coefficients are `words`, highest degree first, at `x`.
    private static func evaluate(_ words: [Int], at x: Int) -> Int {
        words.reduce(0) { add(multiply($0, x), $1) }
    }

    /// The polynomial whose coefficients are lowest degree first, at `x`.
    private static func evaluateAscending(_ coefficients: [Int], at x: Int) -> Int {
        coefficients.reversed().reduce(0) { add(multiply($0, x), $1) }
    }

    /// The product of two polynomials, lowest degree first.
    private static func product(_ a: [Int], _ b: [Int]) -> [Int] {
        guard !a.isEmpty, !b.isEmpty else { return [] }
        var out = [Int](repeating: 0, count: a.count + b.count - 1)
        for (i, x) in a.enumerated() where x != 0 {
            for (j, y) in b.enumerated() { out[i + j] = add(out[i + j], multiply(x, y)) }
        }
        return out
    }

    /// The shortest connection polynomial C (lowest degree first, C₀ = 1) with
    /// Σ C_i s_(j−i) = 0 for every j from its length on (Berlekamp–Massey over GF(929)), and
    /// that length: how many errors it locates.
    private static func berlekampMassey(_ s: [Int]) -> (connection: [Int], length: Int) {
        var c = [1], b = [1]
        var length = 0, gap = 1, last = 1
        for k in 0..<s.count {
            var discrepancy = s[k]
            if length > 0 {
                for i in 1...length where i < c.count { discrepancy = add(discrepancy, multiply(c[i], s[k - i])) }
            }
            if discrepancy == 0 {
                gap += 1
                continue
            }
            let factor = multiply(discrepancy, inverse(last))
            var next = c
            if next.count < b.count + gap { next += [Int](repeating: 0, count: b.count + gap - next.count) }
            for (i, value) in b.enumerated() { next[i + gap] = subtract(next[i + gap], multiply(factor, value)) }
            if 2 * length <= k {
                b = c
                length = k + 1 - length
                last = discrepancy
                gap = 1
            } else {
                gap += 1
            }
            c = next
        }
        while c.count > length + 1 && c.last == 0 { c.removeLast() }
        return (c, length)
    }
}
