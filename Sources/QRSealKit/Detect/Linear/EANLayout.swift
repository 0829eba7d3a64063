/// The EAN/UPC family as rows of modules: guards of fixed bars and spaces, digit slots of
/// seven modules whose inner five a digit decides, and the rules (parity patterns and the
/// check digit) that tie the digits of a valid symbol together (ISO/IEC 15420).
struct EANLayout: Sendable {
    enum Kind: Sendable { case ean13, ean8, upce }

    /// One way the digits may combine: the codes each slot may hold, the check-digit weight
    /// of each slot's digit, and the digits the payload has before and after the slots'.
    struct Rule: Sendable {
        /// Per slot, the codes allowed (`EANLayout.patterns` indices).
        let codes: [[Int]]
        let weights: [Int]
        /// Added to the weighted sum of the slots' digits; the symbol is valid when the
        /// total is a multiple of 10.
        let constant: Int
        let prefix: [Int]
        let suffix: [Int]
    }

    let kind: Kind
    /// Each module's colour where the layout fixes it (1 dark, 0 light), nil where a digit
    /// decides. A digit's first and last modules are fixed too: every left-hand code starts
    /// light and ends dark, every right-hand code the other way round.
    let fixed: [UInt8?]
    /// The first module of each digit slot.
    let slots: [Int]
    /// Whether each slot holds a left-hand code (L or G) or a right-hand one (R).
    let leftHand: [Bool]
    /// Where module positions are anchored when the symbol is fitted to a profile: its two
    /// ends and, for EAN-13 and EAN-8, the middle of the centre guard, so that perspective
    /// (modules narrowing towards one end) is followed.
    let anchors: [Double]
    let rules: [Rule]
    /// Per module boundary (boundary m lies before module m, 0 through `modules`): how
    /// often a bar begins there (light before, dark after) and how often one ends, counted
    /// only where the two modules are fixed (`fixedEdges`), or the share of a slot's codes
    /// doing so where a digit decides (`slotEdges`). Bars printed wider or narrower than
    /// nominal move just these edges.
    let fixedEdges: [(rise: Double, fall: Double)]
    let slotEdges: [(rise: Double, fall: Double)]
    /// How many bars the symbol has: its guards' and two in every digit slot.
    let bars: Int

    var modules: Int { fixed.count }

    /// The seven-module patterns, dark 1: the L codes of digits 0–9, then the G codes
    /// (indices 10–19). A right-hand slot's code c is the complement of L code c.
    static let patterns: [[UInt8]] = {
        let l: [[UInt8]] = ["0001101", "0011001", "0010011", "0111101", "0100011",
                            "0110001", "0101111", "0111011", "0110111", "0001011"]
            .map { $0.map { $0 == "1" ? 1 : 0 } }
        let g = l.map { Array($0.map { 1 - $0 }.reversed()) }
        return l + g
    }()

    /// The seven modules of code `code` in a slot of this hand.
    static func modules(of code: Int, leftHand: Bool) -> [UInt8] {
        leftHand ? patterns[code] : rightPatterns[code]
    }

    /// The R codes of digits 0–9.
    static let rightPatterns: [[UInt8]] = patterns.prefix(10).map { $0.map { 1 - $0 } }

    /// The digit a code stands for.
    static func digit(of code: Int) -> Int { code % 10 }

    private init(kind: Kind, guards: [(Int, [UInt8])], slots: [(Int, Bool)], anchors: [Double], rules: [Rule]) {
        let count = guards.map { $0.0 + $0.1.count }.max()!
        var fixed = [UInt8?](repeating: nil, count: count)
        for (start, bars) in guards { for (i, b) in bars.enumerated() { fixed[start + i] = b } }
        for (start, left) in slots {
            fixed[start] = left ? 0 : 1
            fixed[start + 6] = left ? 1 : 0
        }
        self.kind = kind
        self.fixed = fixed
        self.slots = slots.map(\.0)
        self.leftHand = slots.map(\.1)
        self.anchors = anchors
        self.rules = rules
        var fixedEdges = [(rise: Double, fall: Double)](repeating: (0, 0), count: count + 1)
        var slotEdges = fixedEdges
        let colour = { (m: Int) -> UInt8? in m < 0 || m >= count ? 0 : fixed[m] }
        for m in 0...count {
            if let a = colour(m - 1), let b = colour(m) {
                fixedEdges[m] = (a == 0 && b == 1 ? 1 : 0, a == 1 && b == 0 ? 1 : 0)
            } else if let (_, left) = slots.first(where: { m > $0.0 && m < $0.0 + 7 }) {
                // Every code has two bars in its seven modules; a left-hand code starts
                // light and ends dark, so two of its bars begin and one ends inside it.
                slotEdges[m] = left ? (2.0 / 6, 1.0 / 6) : (1.0 / 6, 2.0 / 6)
            }
        }
        self.fixedEdges = fixedEdges
        self.slotEdges = slotEdges
        bars = guards.reduce(2 * slots.count) { sum, g in
            sum + g.1.indices.filter { g.1[$0] == 1 && ($0 == 0 || g.1[$0 - 1] == 0) }.count
        }
    }

    /// Which slots take G codes for each leading digit of an EAN-13, slot 0 in bit 5.
    private static let firstDigitParity = [0x00, 0x0B, 0x0D, 0x0E, 0x13, 0x19, 0x1C, 0x15, 0x16, 0x1A]
    /// Which slots take G codes in a UPC-E of number system 0 for each check digit, slot 0
    /// in bit 5; number system 1 is the complement.
    private static let upceParity = [0x38, 0x34, 0x32, 0x31, 0x2C, 0x26, 0x23, 0x2A, 0x29, 0x25]

    private static func codes(parity: Int, slots: Int) -> [[Int]] {
        (0..<slots).map { i in
            let g = parity >> (slots - 1 - i) & 1 == 1
            return (0..<10).map { g ? $0 + 10 : $0 }
        }
    }

    /// EAN-13 (and UPC-A, an EAN-13 whose leading digit is 0): 95 modules.
    static let ean13: EANLayout = {
        let rules = (0..<10).map { first in
            Rule(codes: codes(parity: firstDigitParity[first], slots: 6) + Array(repeating: Array(0..<10), count: 6),
                 weights: (0..<12).map { $0 % 2 == 0 ? 3 : 1 }, constant: first, prefix: [first], suffix: [])
        }
        return EANLayout(kind: .ean13, guards: [(0, [1, 0, 1]), (45, [0, 1, 0, 1, 0]), (92, [1, 0, 1])],
                         slots: (0..<6).map { (3 + 7 * $0, true) } + (0..<6).map { (50 + 7 * $0, false) },
                         anchors: [0, 47.5, 95], rules: rules)
    }()

    /// EAN-8: 67 modules, L codes on the left.
    static let ean8 = EANLayout(
        kind: .ean8, guards: [(0, [1, 0, 1]), (31, [0, 1, 0, 1, 0]), (64, [1, 0, 1])],
        slots: (0..<4).map { (3 + 7 * $0, true) } + (0..<4).map { (36 + 7 * $0, false) },
        anchors: [0, 33.5, 67],
        rules: [Rule(codes: Array(repeating: Array(0..<10), count: 8), weights: (0..<8).map { $0 % 2 == 0 ? 3 : 1 },
                     constant: 0, prefix: [], suffix: [])])

    /// UPC-E: 51 modules, six digits whose parity pattern gives the number system and the
    /// check digit, which is that of the UPC-A the digits expand to.
    static let upce: EANLayout = {
        // The weights of d1…d6 in the UPC-A expansion (weight 3 on its odd positions), by
        // what the last digit d6 says about where the zeros go.
        let expansions: [([Int], ClosedRange<Int>)] = [
            ([1, 3, 3, 1, 3, 1], 0...2),  // NS d1 d2 d6 0000 d3 d4 d5
            ([1, 3, 1, 1, 3, 0], 3...3),  // NS d1 d2 d3 00000 d4 d5
            ([1, 3, 1, 3, 3, 0], 4...4),  // NS d1 d2 d3 d4 00000 d5
            ([1, 3, 1, 3, 1, 3], 5...9),  // NS d1 d2 d3 d4 d5 0000 d6
        ]
        var rules: [Rule] = []
        for system in 0...1 {
            for check in 0..<10 {
                let parity = system == 0 ? upceParity[check] : 0x3F ^ upceParity[check]
                let base = codes(parity: parity, slots: 6)
                for (weights, last) in expansions {
                    var allowed = base
                    allowed[5] = allowed[5].filter { last.contains(digit(of: $0)) }
                    rules.append(Rule(codes: allowed, weights: weights, constant: 3 * system + check,
                                      prefix: [system], suffix: [check]))
                }
            }
        }
        return EANLayout(kind: .upce, guards: [(0, [1, 0, 1]), (45, [0, 1, 0, 1, 0, 1])],
                         slots: (0..<6).map { (3 + 7 * $0, true) }, anchors: [0, 51], rules: rules)
    }()

    static let all = [ean13, ean8, upce]
}
