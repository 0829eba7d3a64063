import Foundation

/// Product barcodes drawn by hand, as image files a scanner reads, for tests that need a
/// symbol `qrseal encode` cannot make.
public enum Barcodes {
    /// The GS1 check digit of 12 digits: weights 3, 1, 3, … from the right.
    public static func ean13CheckDigit(_ digits: [Int]) -> Int {
        let sum = digits.reversed().enumerated().reduce(0) { $0 + $1.element * ($1.offset % 2 == 0 ? 3 : 1) }
        return (10 - sum % 10) % 10
    }

    /// The 95 modules (true = bar) of an EAN-13: start guard, six left digits in the L or G
    /// set as the first digit's parity pattern says, centre guard, six right digits in the
    /// R set, end guard. `code` is 12 digits (the check digit is added) or 13 (it is checked).
    public static func ean13Modules(_ code: String) -> [Bool]? {
        var digits = code.compactMap(\.wholeNumberValue)
        guard digits.count == code.count, digits.count == 12 || digits.count == 13 else { return nil }
        if digits.count == 12 { digits.append(ean13CheckDigit(digits)) }
        guard ean13CheckDigit(Array(digits.prefix(12))) == digits[12] else { return nil }
        // L codes; R is L complemented, G is R reversed.
        let l = ["0001101", "0011001", "0010011", "0111101", "0100011",
                 "0110001", "0101111", "0111011", "0110111", "0001011"]
        let r = l.map { String($0.map { $0 == "0" ? "1" : "0" }) }
        let g = r.map { String($0.reversed()) }
        let parity = ["LLLLLL", "LLGLGG", "LLGGLG", "LLGGGL", "LGLLGG",
                      "LGGLLG", "LGGGLL", "LGLGLG", "LGLGGL", "LGGLGL"]
        var pattern = "101"
        for (i, set) in parity[digits[0]].enumerated() {
            pattern += set == "L" ? l[digits[i + 1]] : g[digits[i + 1]]
        }
        pattern += "01010"
        for d in digits[7...] { pattern += r[d] }
        pattern += "101"
        return pattern.map { $0 == "1" }
    }

    /// A binary PGM (P5) image of the EAN-13 `code`: black bars on white, `module` pixels per
    /// module, `height` pixels of bars, with quiet zones wider than the 11 and 7 modules GS1
    /// asks for. Nil when `code` is not 12 or 13 digits with a right check digit.
    public static func ean13PGM(_ code: String, module: Int = 3, height: Int = 90) -> Data? {
        guard let modules = ean13Modules(code), module > 0, height > 0 else { return nil }
        let quiet = 15 * module, margin = 20
        let width = quiet + modules.count * module + quiet
        let row = [UInt8](repeating: 255, count: quiet)
            + modules.flatMap { [UInt8](repeating: $0 ? 0 : 255, count: module) }
            + [UInt8](repeating: 255, count: quiet)
        let blank = [UInt8](repeating: 255, count: width)
        var pixels: [UInt8] = []
        pixels.reserveCapacity(width * (height + 2 * margin))
        for _ in 0..<margin { pixels += blank }
        for _ in 0..<height { pixels += row }
        for _ in 0..<margin { pixels += blank }
        return Data("P5\n\(width) \(height + 2 * margin)\n255\n".utf8) + Data(pixels)
    }
}
