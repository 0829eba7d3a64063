/// Reads a Telepen symbol (AIM Europe USS Telepen, 1991) from the widths of its elements
/// along one scan line (`WidthReader`).
///
/// Every character is 16 modules: its 8 bits (7 of ASCII, least significant first, and an
/// even parity bit) drawn as pairs of a bar and a space, narrow (1 module) or wide (3): a
/// narrow bar and a narrow space are a 1; a wide bar and a narrow space 00; a wide bar and
/// a wide space 010; a narrow bar and a wide space opens a block of zeros (01) or closes it
/// (10). The symbol is a start character, the data, a check character (what brings the sum
/// of the data's values to a multiple of 127) and a stop character, between quiet zones. A
/// reading counts only when every character has even parity, the check character holds
/// and the stop is followed by a quiet zone.
enum TelepenDecoder {
    /// The start characters' elements, in modules (`_`, and the two that AIM's numeric modes
    /// start with), and the stop character each calls for, but its last space (the quiet zone).
    static let starts: [[Int]] = [
        [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 3, 3], [1, 1, 1, 1, 1, 1, 1, 1, 3, 1, 1, 3], [1, 1, 1, 1, 1, 1, 3, 1, 1, 1, 1, 3],
    ]
    static let stops: [[Int]] = [
        [3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1], [3, 1, 1, 3, 1, 1, 1, 1, 1, 1, 1], [3, 1, 1, 1, 1, 3, 1, 1, 1, 1, 1],
    ]
    /// The light modules a quiet zone needs (the standard asks for 10; prints crop them).
    static let quietModules = 5.0
    /// The most characters a symbol is read with.
    static let maxCharacters = 120
    /// The shift between numeric and ASCII data (DLE).
    static let shift: UInt8 = 16

    /// Where narrow bars and spaces end and wide ones begin, in samples: bars and spaces
    /// apart, as ink spread makes bars wider than spaces, and print makes wide elements two
    /// to three times the narrow.
    struct Thresholds {
        var bar: Double, space: Double

        /// Halfway between the mean narrow and mean wide bars, and spaces, of `widths` drawn
        /// as `pattern` (1 narrow, 3 wide; the first a bar), when both kinds are clearly apart.
        init?(_ widths: ArraySlice<Double>, _ pattern: [Int]) {
            guard widths.count == pattern.count else { return nil }
            var sums = [[0.0, 0.0], [0.0, 0.0]], counts = [[0, 0], [0, 0]]
            for (i, (w, p)) in zip(widths, pattern).enumerated() {
                sums[i % 2][p == 1 ? 0 : 1] += w
                counts[i % 2][p == 1 ? 0 : 1] += 1
            }
            var limits: [Double] = []
            for kind in 0..<2 {
                guard counts[kind][0] > 0, counts[kind][1] > 0 else { return nil }
                let narrow = sums[kind][0] / Double(counts[kind][0]), wide = sums[kind][1] / Double(counts[kind][1])
                guard narrow > 0.3, wide >= 1.8 * narrow else { return nil }
                limits.append((narrow + wide) / 2)
            }
            bar = limits[0]
            space = limits[1]
        }

        /// Whether element `index` (even a bar) of width `w` is wide; nil when it is far wider
        /// than a wide element or far narrower than a narrow one.
        func isWide(_ w: Double, _ index: Int) -> Bool? {
            let limit = index % 2 == 0 ? bar : space
            guard w >= 0.2 * limit, w <= 2.5 * limit else { return nil }
            return w > limit
        }

        /// Whether `widths` (the first a bar) are `pattern`, narrow and wide.
        func matches(_ widths: ArraySlice<Double>, _ pattern: [Int]) -> Bool {
            widths.count == pattern.count
                && zip(widths, pattern).enumerated().allSatisfy { i, e in isWide(e.0, i) == (e.1 == 3) }
        }
    }

    /// The text of the symbol in `run`, read left to right, with where its outer bars' outer
    /// edges lie; nil when no symbol checks.
    static func find(_ run: ElementRun) -> (bytes: [UInt8], ends: (Double, Double))? {
        let widths = run.widths
        guard widths.count >= 2 + 12 + 16 + 11 else { return nil }
        for start in stride(from: run.firstDark == 0 ? 2 : 1, through: widths.count - 40, by: 2) {
            let head = widths[start..<(start + 12)]
            // Cheap first: every start character begins with six narrow elements.
            let six = widths[start..<(start + 6)]
            guard let least = six.min(), let most = six.max(), least > 0.3, most < 2.5 * least else { continue }
            for (kind, pattern) in starts.enumerated() {
                guard let limits = Thresholds(head, pattern), limits.matches(head, pattern),
                      start <= 1 || widths[start - 1] >= quietModules / 2 * limits.space,
                      let (raw, end) = characters(widths, from: start + 12, limits: limits, stop: stops[kind]),
                      let bytes = text(raw, start: kind) else { continue }
                return (bytes, (run.edges[start], run.edges[end]))
            }
        }
        return nil
    }

    /// The characters from element `first` up to the stop, the check character verified
    /// and dropped, with the element after the stop's last bar; nil when a character breaks
    /// the rules or no stop with a quiet zone follows.
    static func characters(_ widths: [Double], from first: Int, limits start: Thresholds, stop: [Int]) -> ([UInt8], Int)? {
        var limits = start, k = first, raw: [UInt8] = []
        while raw.count <= maxCharacters {
            // The stop: its elements, then a quiet zone or the profile's end.
            if k + stop.count < widths.count, limits.matches(widths[k..<(k + stop.count)], stop) {
                let after = k + stop.count
                if after == widths.count - 1 || widths[after] >= quietModules / 2 * limits.space {
                    guard raw.count >= 2 else { return nil }
                    let data = raw.dropLast()
                    let sum = data.reduce(0) { $0 + Int($1) }
                    guard (127 - sum % 127) % 127 == Int(raw[raw.count - 1]) else { return nil }
                    return (Array(data), after)
                }
            }
            var bits: [Bool] = [], inBlock = false
            let characterStart = k
            while bits.count < 8 {
                guard k + 1 < widths.count - 1, let wideBar = limits.isWide(widths[k], 0),
                      let wideSpace = limits.isWide(widths[k + 1], 1) else { return nil }
                switch (wideBar, wideSpace) {
                case (false, false): bits.append(true)
                case (false, true):
                    bits += inBlock ? [true, false] : [false, true]
                    inBlock.toggle()
                case (true, false): bits += [false, false]
                case (true, true): bits += [false, true, false]
                }
                k += 2
            }
            guard bits.count == 8, bits.filter({ $0 }).count % 2 == 0 else { return nil }
            raw.append(UInt8(bits.prefix(7).enumerated().reduce(0) { $0 | ($1.element ? 1 << $1.offset : 0) }))
            // The thresholds follow the print along the symbol, from the character's own
            // narrow and wide elements where it has both.
            let pattern = (characterStart..<k).map { i in limits.isWide(widths[i], i - characterStart) == true ? 3 : 1 }
            if let measured = Thresholds(widths[characterStart..<k], pattern) { limits = measured }
        }
        return nil
    }

    /// The text of the data characters `raw` of a symbol begun with start character `start`
    /// (an index of `starts`): ASCII, or digits two to a character (value 27 + the pair,
    /// or 17 + a digit for that digit and X) before or after a DLE. zint begins numeric
    /// symbols with the ASCII start, as zxing-cpp guesses: data with control characters
    /// only from DLE up (where digit pairs 00 to 04 lie) and at most one DLE, not first, is
    /// numeric. Nil when digits are called for and the characters are none.
    static func text(_ raw: [UInt8], start: Int) -> [UInt8]? {
        guard !raw.isEmpty else { return nil }
        var kind = start
        if kind == 0, raw.filter({ $0 == shift }).count <= 1, raw.first != shift,
           raw.contains(where: { $0 < 32 }), !raw.contains(where: { $0 < shift }) {
            kind = 1
        }
        let dle = raw.firstIndex(of: shift)
        switch kind {
        case 0:
            return raw
        case 1:
            guard dle != 0, let digits = numeric(raw[..<(dle ?? raw.endIndex)]) else { return nil }
            return digits + (dle.map { Array(raw[($0 + 1)...]) } ?? [])
        default:
            guard dle != 0 else { return nil }
            guard let dle else { return raw }
            guard let digits = numeric(raw[(dle + 1)...]) else { return nil }
            return Array(raw[..<dle]) + digits
        }
    }

    /// Digits of numeric characters, nil when one is not.
    static func numeric(_ raw: ArraySlice<UInt8>) -> [UInt8]? {
        var out: [UInt8] = []
        for c in raw {
            switch c {
            case 17..<27: out += [48 + c - 17, UInt8(ascii: "X")]
            case 27..<127: out += [48 + (c - 27) / 10, 48 + (c - 27) % 10]
            default: return nil
            }
        }
        return out
    }
}
