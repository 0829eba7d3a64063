/// A MicroPDF417 symbol decoded: its variant, its corrected codewords' payload, and how
/// much correcting they needed.
struct MicroPDF417Symbol: Sendable {
    let variant: MicroPDF417Variant
    let text: PDF417Text
    let correction: PDF417ErrorCorrection.Correction
    /// Whether at most a quarter of the check codewords went to corrections (an error
    /// costing two, an erasure one), so that a misread that still checks is far less
    /// likely than a right read.
    var isSoundlyChecked: Bool { 2 * correction.errors + correction.erasures <= variant.checkWords / 4 }

    /// Check codewords kept in reserve: a symbol is read only if its errors and erasures
    /// leave at least this many unused, so that filling erasures cannot make any guess check.
    static let margin = 3

    /// The symbol whose codewords, in order (row by row, left to right), are `codewords`,
    /// nil for each one not read; nil when they are beyond correction or decode to nothing.
    init?(variant: MicroPDF417Variant, codewords: [Int?]) {
        guard codewords.count == variant.codewords else { return nil }
        let erasures = codewords.indices.filter { codewords[$0] == nil }
        guard erasures.count + Self.margin <= variant.checkWords else { return nil }
        var words = codewords.map { $0 ?? 0 }
        guard let correction = PDF417ErrorCorrection.correct(&words, checkWords: variant.checkWords,
                                                              erasures: erasures, margin: Self.margin),
              let text = PDF417Text(codewords: Array(words.prefix(variant.dataWords))) else { return nil }
        self.variant = variant
        self.text = text
        self.correction = correction
    }

    /// The keys under which lines read the codeword of `row`, `column` of `variant`: beside
    /// the left RAP (after it), the right RAP (before it) or the centre RAP.
    static func keys(_ variant: MicroPDF417Variant, row: Int, column: Int) -> [MicroPDF417Fragment.Key] {
        let cluster = variant.cluster(row: row)
        func key(_ centre: Bool, _ first: Int, after: Bool) -> MicroPDF417Fragment.Key {
            .init(rap: .init(isCentre: centre, number: MicroPDF417Variant.address(first, row: row)), after: after, cluster: cluster)
        }
        var keys: [MicroPDF417Fragment.Key] = []
        let columns = variant.columns
        if column == 0 { keys.append(key(false, variant.left, after: true)) }
        if column == columns - 1 { keys.append(key(false, variant.right, after: false)) }
        if columns >= 3 {
            let beforeCentre = columns == 3 ? 0 : 1
            if column == beforeCentre { keys.append(key(true, variant.centre, after: false)) }
            if column == beforeCentre + 1 { keys.append(key(true, variant.centre, after: true)) }
        }
        return keys
    }

    /// The symbol the votes make, trying each variant whose cells they fill well enough,
    /// the fullest first; nil when none checks.
    static func decode(_ votes: MicroPDF417Votes) -> MicroPDF417Symbol? {
        var tries: [(variant: MicroPDF417Variant, codewords: [Int?], filled: Int)] = []
        for variant in MicroPDF417Variant.all {
            var codewords: [Int?] = []
            codewords.reserveCapacity(variant.codewords)
            var missing = 0
            for row in 0..<variant.rows {
                for column in 0..<variant.columns {
                    let value = votes.codeword(at: keys(variant, row: row, column: column))
                    if value == nil { missing += 1 }
                    codewords.append(value)
                }
                if missing + margin > variant.checkWords { break }
            }
            guard missing + margin <= variant.checkWords else { continue }
            tries.append((variant, codewords, variant.codewords - missing))
        }
        for attempt in tries.sorted(by: { $0.filled > $1.filled }) {
            if let symbol = MicroPDF417Symbol(variant: attempt.variant, codewords: attempt.codewords) { return symbol }
        }
        return nil
    }
}
