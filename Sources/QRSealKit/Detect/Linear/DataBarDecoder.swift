/// Reads a GS1 DataBar (Omnidirectional, ISO/IEC 24724) from the widths of its elements
/// along one scan line, as `ProfileReader` measures them on a blurred band of grey levels.
///
/// The symbol is 46 elements, 96 modules, starting with a light one: a guard (1, 1), the
/// outside character 1 (16 modules, 8 elements), a finder (15 modules, 5 elements), the
/// inside character 2 (15), the inside character 4 (15), a finder read backwards, the
/// outside character 3 (16, read backwards) and a guard (1, 1); characters 2 and 3 are read
/// right to left. A reading counts only when every character is one the tables allow, the
/// two finders are those the checksum of the characters' widths (weights of table 5, modulo
/// 79) selects, and the value is a 13-digit number.
enum DataBarDecoder {
    /// The elements of a symbol, guards included.
    static let elements = 46

    /// Finder patterns (table 4), the value of each its index.
    static let finders: [[Int]] = [
        [3, 8, 2, 1, 1], [3, 5, 5, 1, 1], [3, 3, 7, 1, 1], [3, 1, 9, 1, 1], [2, 7, 4, 1, 1],
        [2, 5, 6, 1, 1], [2, 3, 8, 1, 1], [1, 5, 7, 1, 1], [1, 3, 9, 1, 1],
    ]
    /// Checksum weights of characters 1 to 4 (table 5), element by element in reading order.
    static let weights: [[Int]] = [
        [1, 3, 9, 27, 2, 6, 18, 54], [4, 12, 36, 29, 8, 24, 72, 58],
        [16, 48, 65, 37, 32, 17, 51, 74], [64, 34, 23, 69, 49, 68, 46, 59],
    ]

    /// One group of character values (tables 1 and 2): the value it starts at, the modules of
    /// its odd elements, their widest, the widest even element, and how many even (outside
    /// characters) or odd (inside) subsets there are.
    struct Group {
        let start: Int, oddModules: Int, widestOdd: Int, widestEven: Int, subsets: Int
    }
    static let outside: [Group] = [
        Group(start: 0, oddModules: 12, widestOdd: 8, widestEven: 1, subsets: 1),
        Group(start: 161, oddModules: 10, widestOdd: 6, widestEven: 3, subsets: 10),
        Group(start: 961, oddModules: 8, widestOdd: 4, widestEven: 5, subsets: 34),
        Group(start: 2015, oddModules: 6, widestOdd: 3, widestEven: 6, subsets: 70),
        Group(start: 2715, oddModules: 4, widestOdd: 1, widestEven: 8, subsets: 126),
    ]
    static let inside: [Group] = [
        Group(start: 0, oddModules: 5, widestOdd: 2, widestEven: 7, subsets: 4),
        Group(start: 336, oddModules: 7, widestOdd: 4, widestEven: 5, subsets: 20),
        Group(start: 1036, oddModules: 9, widestOdd: 6, widestEven: 3, subsets: 48),
        Group(start: 1516, oddModules: 11, widestOdd: 8, widestEven: 1, subsets: 81),
    ]

    /// The element string (`01`, the 13 digits and their GTIN check digit) of the symbol
    /// whose 46 element widths (in any unit, light first) are `widths`, read left to
    /// right; nil when they are no valid symbol.
    static func decode(_ widths: [Double]) -> [UInt8]? {
        guard widths.count == elements else { return nil }
        let w = widths
        guard let leftFinder = finder(w[10..<15]), let rightFinder = finder(w[31..<36].reversed()) else { return nil }
        // Characters 1 to 4 as read, each in its own direction.
        let spans: [(range: Range<Int>, outside: Bool, reversed: Bool)] = [
            (2..<10, true, false), (15..<23, false, true), (36..<44, true, true), (23..<31, false, false),
        ]
        var values: [Int] = [], checksum = 0
        for (index, span) in spans.enumerated() {
            let read = span.reversed ? Array(w[span.range].reversed()) : Array(w[span.range])
            guard let modules = modules(read, total: span.outside ? 16 : 15),
                  let value = value(modules, outside: span.outside) else { return nil }
            values.append(value)
            checksum += zip(weights[index], modules).reduce(0) { $0 + $1.0 * $1.1 }
        }
        var check = checksum % 79
        if check >= 8 { check += 1 }
        if check >= 72 { check += 1 }
        guard check / 9 == leftFinder, check % 9 == rightFinder else { return nil }
        // Inside characters stand for the low part of a pair, below 1597.
        guard values[1] < 1597, values[3] < 1597 else { return nil }
        let left = values[0] * 1597 + values[1], right = values[2] * 1597 + values[3]
        let number = left * 4_537_077 + right
        guard number < 10_000_000_000_000 else { return nil }
        var digits = Array(String(number).utf8)
        digits = [UInt8](repeating: UInt8(ascii: "0"), count: 13 - digits.count) + digits
        let d = digits.map { Int($0) - 48 }
        let sum = d.reversed().enumerated().reduce(0) { $0 + $1.element * ($1.offset % 2 == 0 ? 3 : 1) }
        return Array("01".utf8) + digits + [UInt8(48 + (10 - sum % 10) % 10)]
    }

    /// The finder pattern five element widths stand for, as an index of `finders`.
    static func finder<S: Sequence<Double>>(_ widths: S) -> Int? {
        guard let modules = modules(Array(widths), total: 15) else { return nil }
        return finders.firstIndex(of: modules)
    }

    /// Element widths rounded to whole modules that add up to `total`: each width over the
    /// module the sum gives, rounded, then the elements whose rounding erred most moved by
    /// one until the sum is right. Nil when an element would be under one module or the
    /// rounding is too far off to trust.
    static func modules(_ widths: [Double], total: Int) -> [Int]? {
        let sum = widths.reduce(0, +)
        guard sum > 0, sum.isFinite, widths.allSatisfy({ $0 >= 0 }) else { return nil }
        let exact = widths.map { $0 * Double(total) / sum }
        var rounded = exact.map { max(1, Int($0.rounded())) }
        var difference = rounded.reduce(0, +) - total
        guard abs(difference) <= 2 else { return nil }
        while difference != 0 {
            let step = difference > 0 ? -1 : 1
            // The element whose rounding moved it most the wrong way, still at least 1.
            let candidates = rounded.indices.filter { rounded[$0] + step >= 1 }
            guard let i = candidates.max(by: {
                Double(step) * (exact[$0] - Double(rounded[$0])) < Double(step) * (exact[$1] - Double(rounded[$1]))
            }) else { return nil }
            rounded[i] += step
            difference += step
        }
        for (e, r) in zip(exact, rounded) where abs(e - Double(r)) > 0.75 { return nil }
        return rounded
    }

    /// The value of a character's modules, read in its own direction (odd elements first,
    /// 1st, 3rd, 5th and 7th), or nil when no group of the tables holds them.
    static func value(_ modules: [Int], outside: Bool) -> Int? {
        value(modules, in: outside ? Self.outside : Self.inside, oddMajor: outside, oddNoNarrow: !outside)
    }

    /// The value of an 8-element character's modules in `groups` (the group is the one
    /// whose odd elements add up to its `oddModules`): with `oddMajor`, the odd subset's
    /// rank times the group's even subsets plus the even subset's rank (an outside character
    /// of DataBar, every character of DataBar Expanded), without, the other way round (an
    /// inside character). `oddNoNarrow` says which subset is ranked among those with a
    /// narrow element: the even one of an outside character, the odd one of an inside or an
    /// Expanded one. Nil when no group holds them.
    static func value(_ modules: [Int], in groups: [Group], oddMajor: Bool, oddNoNarrow: Bool) -> Int? {
        guard modules.count == 8 else { return nil }
        let odd = stride(from: 0, to: 8, by: 2).map { modules[$0] }, even = stride(from: 1, to: 8, by: 2).map { modules[$0] }
        guard let group = groups.first(where: { $0.oddModules == odd.reduce(0, +) }),
              odd.allSatisfy({ $0 <= group.widestOdd }), even.allSatisfy({ $0 <= group.widestEven }) else { return nil }
        let vOdd = subsetValue(odd, widest: group.widestOdd, noNarrow: oddNoNarrow)
        let vEven = subsetValue(even, widest: group.widestEven, noNarrow: !oddNoNarrow)
        let (major, minor) = oddMajor ? (vOdd, vEven) : (vEven, vOdd)
        guard minor < group.subsets else { return nil }
        return major * group.subsets + minor + group.start
    }

    /// The rank of `widths` among the ways of writing their sum as that many widths of at
    /// most `widest` modules (and, with `noNarrow`, with at least one element of one
    /// module), in the order of ISO/IEC 24724's Annex B.
    static func subsetValue(_ widths: [Int], widest: Int, noNarrow: Bool) -> Int {
        let count = widths.count
        var n = widths.reduce(0, +), value = 0
        var narrowMask = 0
        for element in 0..<(count - 1) {
            var width = 1
            narrowMask |= 1 << element
            while width < widths[element] {
                var sub = combinations(n - width - 1, count - element - 2)
                if noNarrow, narrowMask == 0, n - width - (count - element - 1) >= count - element - 1 {
                    sub -= combinations(n - width - (count - element), count - element - 2)
                }
                if count - element - 1 > 1 {
                    var less = 0
                    var largest = n - width - (count - element - 2)
                    while largest > widest {
                        less += combinations(n - width - largest - 1, count - element - 3)
                        largest -= 1
                    }
                    sub -= less * (count - 1 - element)
                } else if n - width > widest {
                    sub -= 1
                }
                value += sub
                width += 1
                narrowMask &= ~(1 << element)
            }
            n -= width
        }
        return value
    }

    /// n choose r, 0 outside 0…n.
    static func combinations(_ n: Int, _ r: Int) -> Int {
        guard r >= 0, n >= r else { return 0 }
        var result = 1
        for i in 0..<min(r, n - r) { result = result * (n - i) / (i + 1) }
        return result
    }
}

extension DataBarDecoder {
    /// What one grey-level profile reads as: the element string and where the symbol lies
    /// (sample positions of its outer bars' outer edges), at the first of a few
    /// thresholds between the profile's dark and light levels at which a symbol checks.
    static func read(_ profile: [Double], span: ClosedRange<Double>) -> (bytes: [UInt8], ends: (Double, Double))? {
        guard profile.count >= 2 * elements, let levels = ProfileDecoder.levels(profile, span: span) else { return nil }
        let smooth = levels.smooth
        let dark = smooth.sorted()[smooth.count / 20]
        for fraction in thresholds {
            let t = dark + fraction * (1 - dark)
            // Where the profile crosses t, between samples; the elements lie between them.
            let edges = ProfileDecoder.crossings(smooth, at: t)
            // The bars and spaces from a dark element to a dark one 45 later: the symbol but
            // its first light module, which the quiet zone swallows (its width is not used).
            guard edges.count >= elements else { continue }
            let darkFirst = smooth[0] >= t
            let widths = zip(edges.dropFirst(), edges).map { $0 - $1 }
            for start in stride(from: darkFirst ? 0 : 1, through: widths.count - (elements - 1), by: 2) {
                let span = widths[start..<(start + elements - 1)]
                // Read left to right, or right to left (the symbol upside down).
                for window in [span, ArraySlice(span.reversed())] {
                    if let bytes = decode([1] + Array(window)) { return (bytes, (edges[start], edges[start + elements - 1])) }
                }
            }
        }
        return nil
    }

    /// Thresholds tried, as fractions of the way from the profile's dark level to its light.
    static let thresholds = [0.5, 0.65, 0.35]
}
