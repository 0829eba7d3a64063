/// Every code of a slot at once, cheaply: a code's two bars are runs of its inner modules,
/// so the darkness it gives a sample is a few differences of the sample's running sum over
/// those modules, plus the spread at the edges where its bars begin and end.
extension ProfileFit {
    /// Where one code's dark runs and edges lie among a slot's inner modules: each run adds
    /// `sums[high] - sums[low]` (sums[i] the weight of inner modules 1 to i, sums[0] = 0),
    /// and each edge the spread weight at its inner boundary (1 to 6; 0 a boundary of no
    /// weight).
    struct Shape {
        var runs: (Int, Int, Int, Int) = (0, 0, 0, 0)
        var rises: (Int, Int) = (0, 0)
        var falls: (Int, Int) = (0, 0)
    }

    /// The shapes of the L and G codes (20) and of the R codes (10).
    static let leftShapes: [Shape] = EANLayout.patterns.map(shape)
    static let rightShapes: [Shape] = EANLayout.rightPatterns.map(shape)

    private static func shape(_ p: [UInt8]) -> Shape {
        var runs: [Int] = [], rises: [Int] = [], falls: [Int] = []
        var start: Int?
        for i in 1...6 {
            if i <= 5 && p[i] == 1 && start == nil { start = i }
            if (i == 6 || p[i] == 0), let s = start { runs += [s - 1, i - 1]; start = nil }
            if p[i] != p[i - 1] { if p[i] == 1 { rises.append(i) } else { falls.append(i) } }
        }
        precondition(runs.count <= 4 && rises.count <= 2 && falls.count <= 2, "a code has two bars")
        runs += [0, 0, 0, 0]; rises += [0, 0]; falls += [0, 0]
        return Shape(runs: (runs[0], runs[1], runs[2], runs[3]), rises: (rises[0], rises[1]), falls: (falls[0], falls[1]))
    }

    /// The darkness code shape `s` gives a sample whose running module sums, rises and falls
    /// (index 0 of each 0) are `sums`, `rises` and `falls`.
    @inline(__always)
    static func darkness(_ s: Shape, _ sums: UnsafeMutablePointer<Double>, _ rises: UnsafeMutablePointer<Double>,
                         _ falls: UnsafeMutablePointer<Double>) -> Double {
        (sums[s.runs.1] - sums[s.runs.0]) + (sums[s.runs.3] - sums[s.runs.2])
            + rises[s.rises.0] + rises[s.rises.1] + falls[s.falls.0] + falls[s.falls.1]
    }

    /// Fills `scratch` (21 values) with what `darkness` needs of slot `slot` at sample
    /// index `i` of the span (the running module sums at 0, the rises at 7, the falls at
    /// 14), and returns the darkness the slot gives the sample with its code unknown, as
    /// `baseDarkness` counts it.
    @inline(__always)
    func slotSums(_ c: Coverage, i: Int, slot: Int, _ scratch: UnsafeMutablePointer<Double>) -> Double {
        let sums = scratch, rises = scratch + 7, falls = scratch + 14
        let start = layout.slots[slot] - c.first[i], row = i * c.count, spreads = !c.rises.isEmpty
        var riseSum = 0.0, fallSum = 0.0
        sums[0] = 0; rises[0] = 0; falls[0] = 0
        for m in 1...6 {
            let at = start + m, inside = at >= 0 && at < c.count
            if m <= 5 { sums[m] = sums[m - 1] + (inside ? c.weights[row + at] : 0) }
            rises[m] = inside && spreads ? c.rises[row + at] : 0
            falls[m] = inside && spreads ? c.falls[row + at] : 0
            riseSum += rises[m]; fallSum += falls[m]
        }
        let (rise, fall) = layout.leftHand[slot] ? (2.0 / 6, 1.0 / 6) : (1.0 / 6, 2.0 / 6)
        return 0.5 * sums[5] + rise * riseSum + fall * fallSum
    }
}
