/// Reads a GS1 DataBar Limited (ISO/IEC 24724) from the widths of its elements along one
/// scan line (`WidthReader`).
///
/// The symbol is 79 modules: a guard (a light and a dark module), the left data character
/// (14 elements, 26 modules, light first), the check character (14 elements, 18 modules),
/// the right data character (14, 26), a guard (a light and a dark module) and 5 light
/// modules. A reading counts only when both data characters are ones the tables allow, the
/// check character is one of the 89 the standard draws, and it is the checksum of the data
/// characters' widths (weights 3^i, the right character's times 20, modulo 89); the value
/// is then a 13-digit number whose first digit is 0 or 1.
enum DataBarLimitedDecoder {
    /// Elements from the left guard's dark module to the right guard's.
    static let elements = 45

    /// One group of data character values (ISO/IEC 24724, table 7): the value it starts at,
    /// the modules of its odd elements, their widest (the even ones' widest is 9 less it),
    /// and how many even subsets there are.
    struct Group {
        let start: Int, oddModules: Int, widestOdd: Int, evenSubsets: Int
    }
    static let groups: [Group] = [
        Group(start: 0, oddModules: 17, widestOdd: 6, evenSubsets: 28),
        Group(start: 183_064, oddModules: 13, widestOdd: 5, evenSubsets: 728),
        Group(start: 820_064, oddModules: 9, widestOdd: 3, evenSubsets: 6454),
        Group(start: 1_000_776, oddModules: 15, widestOdd: 5, evenSubsets: 203),
        Group(start: 1_491_021, oddModules: 11, widestOdd: 4, evenSubsets: 2408),
        Group(start: 1_979_845, oddModules: 19, widestOdd: 8, evenSubsets: 1),
        Group(start: 1_996_939, oddModules: 7, widestOdd: 1, evenSubsets: 16632),
    ]
    /// How many values a data character has.
    static let characterValues = 2_013_571

    /// The 89 check characters (ISO/IEC 24724, table 8), the value of each its index: each
    /// an 18-module pattern written as bits from its first (light) module, 1 for the
    /// modules of its odd elements. The table's numbers are as zxing-cpp lists them
    /// (ODDataBarLimitedReader.cpp, Apache-2.0).
    static let checkPatterns: [Int] = [
        0b10_1010_1010_1110_0010, 0b10_1010_1010_0111_0010, 0b10_1010_1010_0011_1010, 0b10_1010_1001_0111_0010,
        0b10_1010_1001_0011_1010, 0b10_1010_1000_1011_1010, 0b10_1010_0101_0111_0010, 0b10_1010_0101_0011_1010,
        0b10_1010_0100_1011_1010, 0b10_1010_0010_1011_1010, 0b10_1001_0101_0111_0010, 0b10_1001_0101_0011_1010,
        0b10_1001_0100_1011_1010, 0b10_1001_0010_1011_1010, 0b10_1000_1010_1011_1010, 0b10_0101_0101_0111_0010,
        0b10_0101_0101_0011_1010, 0b10_0101_0100_1011_1010, 0b10_0101_0010_1011_1010, 0b10_0100_1010_1011_1010,
        0b10_0010_1010_1011_1010, 0b10_1010_1011_0110_0010, 0b10_1010_1011_0011_0010, 0b10_1010_1011_0001_1010,
        0b10_1010_1001_1011_0010, 0b10_1010_1001_1001_1010, 0b10_1010_1000_1101_1010, 0b10_1010_0101_1011_0010,
        0b10_1010_0101_1001_1010, 0b10_1010_0100_1101_1010, 0b10_1010_0010_1101_1010, 0b10_1001_0101_1011_0010,
        0b10_1001_0101_1001_1010, 0b10_1001_0100_1101_1010, 0b10_1001_0010_1101_1010, 0b10_1000_1010_1101_1010,
        0b10_0101_0101_1011_0010, 0b10_0101_0101_1001_1010, 0b10_0101_0100_1101_1010, 0b10_0101_0010_1101_1010,
        0b10_0100_1010_1101_1010, 0b10_0010_1010_1101_1010, 0b10_1010_1011_1010_0010, 0b10_1010_1011_1001_0010,
        0b10_1010_1001_1101_0010, 0b10_1001_0101_1101_0010, 0b10_0101_0101_1101_0010, 0b10_1010_1101_0110_0010,
        0b10_1010_1101_0011_0010, 0b10_1010_1101_0001_1010, 0b10_1010_1100_1011_0010, 0b10_1001_0110_1011_0010,
        0b10_1001_0110_1001_1010, 0b10_1001_0110_0101_1010, 0b10_1001_0011_0101_1010, 0b10_1000_1011_0101_1010,
        0b10_0101_0110_1011_0010, 0b10_0101_0110_1001_1010, 0b10_0100_1011_0101_1010, 0b10_1011_0101_0110_0010,
        0b10_1011_0101_0011_0010, 0b10_1011_0101_0001_1010, 0b10_1011_0100_1011_0010, 0b10_1011_0100_1001_1010,
        0b10_1011_0010_1011_0010, 0b10_0101_1010_1011_0010, 0b10_0101_1010_1001_1010, 0b10_0101_1010_0101_1010,
        0b10_0101_1001_0101_1010, 0b10_0100_1101_0101_1010, 0b10_0010_1101_0101_1010, 0b10_1101_0101_0110_0010,
        0b10_1101_0101_0011_0010, 0b10_1101_0101_0001_1010, 0b10_1101_0100_1011_0010, 0b10_1101_0100_1001_1010,
        0b10_1101_0100_0101_1010, 0b10_1101_0010_1011_0010, 0b10_1101_0010_1001_1010, 0b10_1100_1010_1011_0010,
        0b11_0101_0101_0011_0010, 0b11_0101_0101_0001_1010, 0b11_0101_0100_1011_0010, 0b11_0101_0100_1001_1010,
        0b11_0101_0100_0101_1010, 0b11_0101_0010_1001_1010, 0b11_0101_0010_0101_1010, 0b11_0100_1010_1001_1010,
        0b11_0101_0101_1001_0010,
    ]

    /// The check characters' element widths, in modules, by value.
    static let checkCharacters: [[Int]] = checkPatterns.map { pattern in
        var widths: [Int] = [], previous = -1
        for bit in (0..<18).reversed() {
            let value = (pattern >> bit) & 1
            if value == previous { widths[widths.count - 1] += 1 } else { widths.append(1) }
            previous = value
        }
        return widths
    }

    /// The element string (`01`, the 13 digits and their GTIN check digit) of the symbol
    /// whose 45 element widths (any unit, from the left guard's dark module to the right
    /// guard's) are `widths`; nil when they are no valid symbol.
    static func decode(_ widths: [Double]) -> [UInt8]? {
        guard widths.count == elements else { return nil }
        let left = Array(widths[1..<15]), check = Array(widths[15..<29]), right = Array(widths[29..<43])
        let leftSum = left.reduce(0, +), checkSum = check.reduce(0, +), rightSum = right.reduce(0, +)
        guard checkSum > 0, leftSum.isFinite, rightSum.isFinite else { return nil }
        // The data characters are 26 modules, the check character 18.
        for sum in [leftSum, rightSum] where abs(sum / checkSum * 18 / 26 - 1) > 0.08 { return nil }
        let module = (leftSum + checkSum + rightSum) / 70
        // The guards' dark and light modules.
        for k in [0, 43, 44] where abs(widths[k] / module - 1) > 0.6 { return nil }
        guard let checkModules = DataBarDecoder.modules(check, total: 18),
              let checkValue = checkCharacters.firstIndex(of: checkModules),
              let leftModules = DataBarDecoder.modules(left, total: 26),
              let rightModules = DataBarDecoder.modules(right, total: 26),
              let leftValue = value(leftModules), let rightValue = value(rightModules) else { return nil }
        func weighted(_ modules: [Int]) -> Int {
            modules.reversed().reduce(0) { ($0 * 3 + $1) % 89 }
        }
        guard (weighted(leftModules) + 20 * weighted(rightModules)) % 89 == checkValue else { return nil }
        var number = leftValue * characterValues + rightValue
        // A symbol linked to a 2D component carries the flag in its value (section 6.2.3).
        let linked = 2_015_133_531_096
        if number >= linked { number -= linked }
        guard number < 2_000_000_000_000 else { return nil }
        let digits = String(number).utf8.map { Int($0) - 48 }
        let thirteen = [Int](repeating: 0, count: 13 - digits.count) + digits
        let sum = thirteen.reversed().enumerated().reduce(0) { $0 + $1.element * ($1.offset % 2 == 0 ? 3 : 1) }
        return Array("01".utf8) + (thirteen + [(10 - sum % 10) % 10]).map { UInt8(48 + $0) }
    }

    /// The value of a data character's 14 module widths, read left to right (odd elements,
    /// the 1st, 3rd, …, first), or nil when no group of the table holds them.
    static func value(_ modules: [Int]) -> Int? {
        guard modules.count == 14 else { return nil }
        let odd = stride(from: 0, to: 14, by: 2).map { modules[$0] }, even = stride(from: 1, to: 14, by: 2).map { modules[$0] }
        guard let index = groups.firstIndex(where: { $0.oddModules == odd.reduce(0, +) }) else { return nil }
        let group = groups[index], widestEven = 9 - group.widestOdd
        guard odd.allSatisfy({ $0 <= group.widestOdd }), even.allSatisfy({ $0 <= widestEven }) else { return nil }
        let vOdd = DataBarDecoder.subsetValue(odd, widest: group.widestOdd, noNarrow: false)
        let vEven = DataBarDecoder.subsetValue(even, widest: widestEven, noNarrow: true)
        guard vEven < group.evenSubsets else { return nil }
        let value = vOdd * group.evenSubsets + vEven + group.start
        let end = index + 1 < groups.count ? groups[index + 1].start : characterValues
        return value < end ? value : nil
    }

    /// The symbol in `run`, read left to right, with where its outer dark modules' outer
    /// edges lie (samples of the profile): the first of its dark elements at which one checks,
    /// with a light element of at least 4 modules, or the profile's end, after it.
    static func find(_ run: ElementRun) -> (bytes: [UInt8], ends: (Double, Double))? {
        let widths = run.widths
        guard widths.count >= elements else { return nil }
        let edges = run.edges
        for start in stride(from: run.firstDark == 0 ? 2 : 1, through: widths.count - elements, by: 2) {
            // Cheap first: the guards' dark modules alike, and the three characters 26, 18
            // and 26 modules, from the edges alone.
            let module = (edges[start + 43] - edges[start + 1]) / 70
            guard module > 0.3, abs(widths[start] / module - 1) < 0.6, abs(widths[start + 44] / module - 1) < 0.6,
                  abs((edges[start + 15] - edges[start + 1]) / module - 26) < 2.5,
                  abs((edges[start + 29] - edges[start + 15]) / module - 18) < 2.5 else { continue }
            let window = Array(widths[start..<(start + elements)])
            guard let bytes = decode(window) else { continue }
            if start + elements < widths.count - 1, widths[start + elements] < 4 * module { continue }
            return (bytes, (run.edges[start], run.edges[start + elements]))
        }
        return nil
    }
}
