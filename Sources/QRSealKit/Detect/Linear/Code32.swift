/// The Italian pharmacy code (Code 32, "codice farmaceutico"): a Code 39 symbol of six
/// characters in base 32 (digits and consonants, no vowels) that stands for nine decimal
/// digits, the last a check digit, written with a leading `A`.
enum Code32 {
    static let alphabet = Array("0123456789BCDFGHJKLMNPQRSTUVWXYZ".utf8)

    /// `A` and the nine digits that the Code 39 text `code39` stands for, or nil when it is
    /// not six base-32 characters or its check digit fails: then it is a plain Code 39.
    static func digits(fromCode39 code39: [UInt8]) -> [UInt8]? {
        guard code39.count == 6 else { return nil }
        var value = 0
        for c in code39 {
            guard let d = alphabet.firstIndex(of: c) else { return nil }
            value = value * 32 + d
        }
        guard value < 1_000_000_000 else { return nil }
        let digits = String(value).leftPadded(to: 9).utf8.map { $0 }
        guard checkDigitIsValid(digits.map { Int($0) - 48 }) else { return nil }
        return [UInt8(ascii: "A")] + digits
    }

    /// The check of the first eight digits: those in odd places as they are, those in even
    /// places doubled with the digits of the double added, the total's last digit.
    static func checkDigitIsValid(_ digits: [Int]) -> Bool {
        guard digits.count == 9, digits.allSatisfy({ (0...9).contains($0) }) else { return false }
        let sum = digits.prefix(8).enumerated().reduce(0) { total, d in
            let v = d.offset % 2 == 0 ? d.element : 2 * d.element
            return total + v / 10 + v % 10
        }
        return sum % 10 == digits[8]
    }
}

private extension String {
    func leftPadded(to length: Int) -> String {
        count >= length ? self : String(repeating: "0", count: length - count) + self
    }
}
