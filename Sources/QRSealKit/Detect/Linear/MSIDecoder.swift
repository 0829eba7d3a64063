/// Reads an MSI Plessey symbol from the widths of its elements along one scan line
/// (`WidthReader`).
///
/// Every bit is a bar and a space of the same total width: a 1 a wide bar and a narrow
/// space, a 0 a narrow bar and a wide space. The symbol is a start (a 1 bit), each digit
/// as 4 bits (its value, most significant first), and a stop (a 0 bit and a narrow bar),
/// between quiet zones. MSI's check digits are weak and optional, so a reading counts only
/// when one of the schemes zint draws holds on its last digits (`checkHolds(_:)`), it has
/// at least `minDigits` digits, every bit's bar and space are clearly unequal, every bit is
/// as wide as the start's within `pairTolerance`, and both quiet zones are wide; and
/// `WidthReader` reports it only when more scan lines agree than for other symbologies.
enum MSIDecoder {
    /// Digits a symbol must hold, its check digit(s) included.
    static let minDigits = 3
    /// How far a bit's width may be from the running mean of the bits before it.
    static let pairTolerance = 0.25
    /// How much wider the wide element of a bit must be than its narrow one.
    static let minRatio = 1.5
    /// A quiet zone's width, in bits (three modules each, at zint's 2:1).
    static let quietBits = 2.5
    /// The most digits a symbol is read with.
    static let maxDigits = 64

    /// The digits of the symbol in `run`, read left to right, check digits included, with
    /// where its outer bars' outer edges lie; nil when no symbol checks.
    static func find(_ run: ElementRun) -> (bytes: [UInt8], ends: (Double, Double))? {
        let widths = run.widths
        guard widths.count >= 2 + 2 + 8 * minDigits + 3 else { return nil }
        for start in stride(from: run.firstDark == 0 ? 2 : 1, through: widths.count - 20, by: 2) {
            // The start: a 1 bit.
            let unit = widths[start] + widths[start + 1]
            guard unit > 1.5, widths[start] >= minRatio * widths[start + 1],
                  start <= 1 || widths[start - 1] >= quietBits * unit,
                  let (digits, end) = digits(widths, from: start + 2, unit: unit), checkHolds(digits) else { continue }
            return (digits.map { UInt8(48 + $0) }, (run.edges[start], run.edges[end]))
        }
        return nil
    }

    /// The digits from element `first` to the stop, with the element after the stop's bar;
    /// nil when a bit breaks the rules or no stop with a quiet zone follows.
    static func digits(_ widths: [Double], from first: Int, unit start: Double) -> ([Int], Int)? {
        var unit = start, k = first, digits: [Int] = [], bits = 1
        func bit(_ k: Int) -> Bool? {
            let bar = widths[k], space = widths[k + 1], sum = bar + space
            guard abs(sum / unit - 1) <= pairTolerance, max(bar, space) >= minRatio * min(bar, space) else { return nil }
            return bar > space
        }
        while digits.count <= maxDigits {
            guard k + 3 < widths.count else { return nil }
            // The stop: a 0 bit, a narrow bar, then the quiet zone or the profile's end.
            if bit(k) == false, widths[k + 2] < unit / 2,
               k + 3 == widths.count - 1 || widths[k + 3] >= quietBits * unit {
                return digits.count >= minDigits ? (digits, k + 3) : nil
            }
            var value = 0
            for _ in 0..<4 {
                guard k + 2 < widths.count - 1, let one = bit(k) else { return nil }
                value = value << 1 | (one ? 1 : 0)
                unit = (unit * Double(bits) + widths[k] + widths[k + 1]) / Double(bits + 1)
                bits += 1
                k += 2
            }
            guard value <= 9 else { return nil }
            digits.append(value)
        }
        return nil
    }

    /// Whether the last digit of `digits` is the check digit of those before it by one of
    /// the schemes zint draws: modulo 10 (and modulo 10 twice, and modulo 11 then modulo 10,
    /// whose last digit is a modulo 10 check of all before it), or modulo 11 with weights 2
    /// to 7 (IBM) or 2 to 9 (NCR) from the right, a check of 10 drawn as the digits 1 0.
    static func checkHolds(_ digits: [Int]) -> Bool {
        guard digits.count >= 2, let last = digits.last else { return false }
        let body = Array(digits.dropLast())
        if mod10(body) == last { return true }
        for widest in [7, 9] {
            if mod11(body, widest: widest) == last, last != 10 { return true }
            if digits.count >= 3, digits.suffix(2) == [1, 0], mod11(Array(digits.dropLast(2)), widest: widest) == 10 {
                return true
            }
        }
        return false
    }

    /// The modulo 10 check digit: from the right, every other digit (the last first) doubled
    /// and the digits of the products summed with the others.
    static func mod10(_ digits: [Int]) -> Int {
        let sum = digits.reversed().enumerated().reduce(0) { total, item in
            let value = item.offset % 2 == 0 ? item.element * 2 : item.element
            return total + value / 10 + value % 10
        }
        return (10 - sum % 10) % 10
    }

    /// The modulo 11 check digit with weights 2, 3, … `widest`, 2, … from the right (10 when
    /// it is ten).
    static func mod11(_ digits: [Int], widest: Int) -> Int {
        let sum = digits.reversed().enumerated().reduce(0) { $0 + $1.element * (2 + $1.offset % (widest - 1)) }
        return (11 - sum % 11) % 11
    }
}
