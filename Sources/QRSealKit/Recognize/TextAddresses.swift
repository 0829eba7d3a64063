/// Postal addresses in a line of text, found only by a postal code whose form cannot be
/// mistaken for a number: a false address is worse than none.
///
/// The forms read:
/// - UK postcodes, outward and inward code with the space between (`SW1A 1AA`, `M1 1AE`,
///   `GIR 0AA`), letters where the Royal Mail's rules allow them.
/// - Canadian postal codes, `K1A 0B1`: letter, digit, letter, space, digit, letter, digit,
///   without the letters Canada Post leaves out (D F I O Q U, and W Z first).
/// - US ZIP codes after a state's two-letter code and a comma-ended city: `Springfield, IL 62704`
///   or `… IL 62704-1234`. A five-digit number alone is left as text.
/// Codes of five digits before a town (`10115 Berlin`) are not read: they look like any number.
/// Fields: `postal_code`, `country` (ISO 3166 alpha-2) and `address`, the line as written.
enum TextAddresses {
    static let states: Set<String> = [
        "AL", "AK", "AZ", "AR", "CA", "CO", "CT", "DE", "FL", "GA", "HI", "ID", "IL", "IN", "IA", "KS", "KY", "LA",
        "ME", "MD", "MA", "MI", "MN", "MS", "MO", "MT", "NE", "NV", "NH", "NJ", "NM", "NY", "NC", "ND", "OH", "OK",
        "OR", "PA", "RI", "SC", "SD", "TN", "TX", "UT", "VT", "VA", "WA", "WV", "WI", "WY", "DC", "PR", "GU", "VI",
        "AS", "MP",
    ]

    /// Every postal code in `words` (a line's words as read) that makes the line an address,
    /// with the range of words the code takes.
    static func find(_ words: [String]) -> [(words: Range<Int>, summary: ContentSummary)] {
        let t = words.map(TextBlock.trimmedToken)
        let line = TextBlock.trimmedToken(words.joined(separator: " "))
        var found: [(Range<Int>, ContentSummary)] = []
        var i = 0
        while i + 1 < t.count {
            let pair = t[i] + " " + t[i + 1]
            var code: (String, String)?
            // Punctuation may open the first word and close the second, never come between:
            // `SW1A (2AA` is not a postcode.
            guard words[i].hasSuffix(t[i]), words[i + 1].hasPrefix(t[i + 1]) else { i += 1; continue }
            if isUKPostcode(t[i], t[i + 1]) { code = (pair, "GB") }
            else if isCanadianPostalCode(t[i], t[i + 1]) { code = (pair, "CA") }
            else if states.contains(t[i]), isZIP(t[i + 1]), i > 0, words[i - 1].hasSuffix(","),
                    t[i - 1].contains(where: \.isLetter) { code = (t[i + 1], "US") }
            if let (postal, country) = code {
                found.append((i..<(i + 2), ContentSummary(kind: .address, fields: [
                    ContentField(name: "postal_code", value: postal), ContentField(name: "country", value: country),
                    ContentField(name: "address", value: line),
                ])))
                i += 2
            } else {
                i += 1
            }
        }
        return found
    }

    /// `SW1A 1AA`: an outward code (A9, A99, AA9, AA99, A9A, AA9A) and an inward code (9AA).
    static func isUKPostcode(_ outward: String, _ inward: String) -> Bool {
        if outward == "GIR" && inward == "0AA" { return true }
        let o = Array(outward.unicodeScalars), n = Array(inward.unicodeScalars)
        guard n.count == 3, isDigit(n[0]), n[1...].allSatisfy({ isUpper($0) && !"CIKMOV".unicodeScalars.contains($0) }),
              (2...4).contains(o.count), isUpper(o[0]), !"QVX".unicodeScalars.contains(o[0]) else { return false }
        let shape = String(o.map { isDigit($0) ? "9" : (isUpper($0) ? "A" : "?") })
        guard ["A9", "A99", "AA9", "AA99", "A9A", "AA9A"].contains(shape) else { return false }
        // The second letter of a two-letter area is never I, J or Z.
        return !(shape.hasPrefix("AA") && "IJZ".unicodeScalars.contains(o[1]))
    }

    /// `K1A 0B1`.
    static func isCanadianPostalCode(_ first: String, _ second: String) -> Bool {
        let a = Array(first.unicodeScalars), b = Array(second.unicodeScalars)
        let banned = "DFIOQU".unicodeScalars
        guard a.count == 3, b.count == 3, isUpper(a[0]), isDigit(a[1]), isUpper(a[2]), isDigit(b[0]), isUpper(b[1]),
              isDigit(b[2]) else { return false }
        return ![a[0], a[2], b[1]].contains(where: banned.contains) && !"WZ".unicodeScalars.contains(a[0])
    }

    /// `62704` or `62704-1234`.
    static func isZIP(_ word: String) -> Bool {
        let parts = word.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count <= 2, parts[0].count == 5, parts.count == 1 || parts[1].count == 4 else { return false }
        return parts.allSatisfy { $0.unicodeScalars.allSatisfy(isDigit) }
    }

    private static func isDigit(_ c: Unicode.Scalar) -> Bool { c.value >= 0x30 && c.value <= 0x39 }
    private static func isUpper(_ c: Unicode.Scalar) -> Bool { c.value >= 0x41 && c.value <= 0x5A }
}
