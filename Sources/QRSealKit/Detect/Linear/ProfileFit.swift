import FoundationEssentials
import Glibc

/// One EAN/UPC layout laid over a grey-level profile: where its modules fall (positions of
/// the layout's anchors, in samples), how much the optics blurred them, and the light level
/// and contrast along the profile; and what each digit slot's codes cost there.
///
/// The profile is modelled, not thresholded: a module of width w spread by a Gaussian of
/// `sigma` modules (and the sample's own width) darkens each sample by its share of it, so
/// bars thinner than the blur still count for what they are (the idea of Gallo and Manduchi,
/// "Reading 1D barcodes with mobile phones using deformable templates", 2011). Ink spread,
/// or a printer that makes bars narrower, moves every edge of a bar by `spread / 2`
/// modules: what turns a symbol's thin spaces into grey where its thin bars turn black.
struct ProfileFit {
    let layout: EANLayout
    /// Grey levels, light high, one per sample.
    let profile: [Double]
    var anchors: [Double]
    var sigma: Double
    /// How many modules wider than nominal every bar is (negative: narrower), the spaces
    /// between them as much narrower.
    var spread = 0.0
    /// Light level `a0 + a1·t` and contrast `b0 + b1·t`, t the sample index centred and
    /// scaled by `gainScale`.
    var gain: (a0: Double, a1: Double, b0: Double, b1: Double) = (0, 0, 0, 0)

    /// Modules of quiet zone on each side that are part of the fit.
    static let quiet = 2.5

    init(layout: EANLayout, profile: [Double], left: Double, right: Double, sigma: Double) {
        self.layout = layout
        self.profile = profile
        let n = Double(layout.modules)
        anchors = layout.anchors.map { left + (right - left) * $0 / n }
        self.sigma = sigma
    }

    private var gainCentre: Double { Double(profile.count) / 2 }
    private var gainScale: Double { max(1, Double(profile.count) / 2) }

    /// The sample position of module boundary `m` (fractional), piecewise linear between
    /// the anchors and extended beyond them.
    func position(_ m: Double) -> Double {
        let a = layout.anchors
        var i = 0
        while i < a.count - 2 && m > a[i + 1] { i += 1 }
        let t = (m - a[i]) / (a[i + 1] - a[i])
        return anchors[i] + t * (anchors[i + 1] - anchors[i])
    }

    /// Module width in samples near module `m`.
    func moduleWidth(at m: Double) -> Double {
        let a = layout.anchors
        var i = 0
        while i < a.count - 2 && m > a[i + 1] { i += 1 }
        return (anchors[i + 1] - anchors[i]) / (a[i + 1] - a[i])
    }

    /// Whether the modules lie on the profile with plausible widths.
    var isPlausible: Bool {
        for i in 1..<anchors.count where anchors[i] - anchors[i - 1] < 0.55 * (layout.anchors[i] - layout.anchors[i - 1]) {
            return false
        }
        return position(-Self.quiet) >= -1 && position(Double(layout.modules) + Self.quiet) <= Double(profile.count)
    }

    /// Each sample's coverage by the modules around it: `first` is the module of
    /// `weights[k][0]`; modules outside the symbol are light.
    struct Coverage {
        var samples: Range<Int>
        var first: [Int]
        /// `count` weights a sample, sample after sample.
        var weights: [Double]
        /// The darkness a bar beginning (`rises`) or ending (`falls`) at the boundary before
        /// each of those modules adds by its spread, laid out like `weights`; empty when the
        /// spread is 0.
        var rises: [Double]
        var falls: [Double]
        var count: Int

    }

    /// How much each module covers each sample of the fitted span.
    func coverage() -> Coverage {
        let n = layout.modules
        let lo = max(0, Int(position(-Self.quiet).rounded(.up)))
        let hi = min(profile.count, Int(position(Double(n) + Self.quiet).rounded(.up)))
        let reach = 3 * sigma + 1.5
        let span = Int((2 * reach).rounded(.up)) + 1
        let count = max(0, hi - lo)
        var first = [Int](repeating: 0, count: count)
        var weights = [Double](repeating: 0, count: count * span)
        var rises = spread == 0 ? [] : weights, falls = rises
        // The module boundaries every sample's weights can reach, placed once.
        let lowest = Int((-Self.quiet - 1 - reach).rounded(.down))
        let highest = Int((Double(n) + Self.quiet - reach).rounded(.down)) + span
        let boundaries = (lowest...max(lowest, highest)).map { position(Double($0)) }
        let e0 = spread / 2, spreads = spread != 0, sigma = sigma
        Self.phiTable.withUnsafeBufferPointer { table in
            boundaries.withUnsafeBufferPointer { boundaries in
                weights.withUnsafeMutableBufferPointer { weights in
                    rises.withUnsafeMutableBufferPointer { rises in
                        falls.withUnsafeMutableBufferPointer { falls in
                            var m = -Self.quiet - 1
                            for k in lo..<max(lo, hi) {
                                let x = Double(k)
                                while m < Double(n) + Self.quiet && position(m + 1) <= x { m += 1 }
                                let start = Int((m - reach).rounded(.down))
                                let base = (k - lo) * span, b = start - lowest
                                let w = moduleWidth(at: m)
                                let s = 1 / ((sigma * w) * (sigma * w) + 1.0 / 12).squareRoot()
                                var previous = Self.phi((x - boundaries[b]) * s, table)
                                for i in 0..<span {
                                    let next = Self.phi((x - boundaries[b + i + 1]) * s, table)
                                    weights[base + i] = previous - next
                                    if spreads {
                                        let edge = boundaries[b + i], e = e0 * w
                                        rises[base + i] = Self.phi((x - edge + e) * s, table) - previous
                                        falls[base + i] = previous - Self.phi((x - edge - e) * s, table)
                                    }
                                    previous = next
                                }
                                first[k - lo] = start
                            }
                        }
                    }
                }
            }
        }
        return Coverage(samples: lo..<max(lo, hi), first: first, weights: weights, rises: rises, falls: falls,
                        count: span)
    }

    /// The standard normal distribution function, from a table.
    static func phi(_ z: Double) -> Double {
        phiTable.withUnsafeBufferPointer { phi(z, $0) }
    }

    /// `phi(_:)` from the table, held by the caller.
    @inline(__always)
    static func phi(_ z: Double, _ table: UnsafeBufferPointer<Double>) -> Double {
        if z <= -6 { return 0 }
        if z >= 6 { return 1 }
        let f = (z + 6) * 100
        let i = Int(f)
        let t = f - Double(i)
        return table[i] * (1 - t) + table[i + 1] * t
    }

    private static let phiTable: [Double] = (0...1201).map { 0.5 * erfc(-(Double($0) / 100 - 6) / 2.0.squareRoot()) }

    /// Per sample of the span: the darkness of the fixed modules, and of every unknown
    /// module taken as half dark.
    func baseDarkness(_ c: Coverage) -> (fixed: [Double], half: [Double]) {
        var fixed = [Double](repeating: 0, count: c.first.count), half = fixed
        let modules = layout.modules, fixedEdges = layout.fixedEdges, slotEdges = layout.slotEdges
        let colours = layout.fixed
        for k in c.first.indices {
            let first = c.first[k], base = k * c.count
            var f = 0.0, h = 0.0
            let from = max(0, -first)
            for i in from..<max(from, min(c.count, modules + 1 - first)) {
                let w = c.weights[base + i], m = first + i
                if spread != 0 {
                    let (rise, fall) = (c.rises[base + i], c.falls[base + i])
                    f += fixedEdges[m].rise * rise + fixedEdges[m].fall * fall
                    h += slotEdges[m].rise * rise + slotEdges[m].fall * fall
                }
                guard m < modules else { continue }
                if let colour = colours[m] { f += Double(colour) * w } else { h += 0.5 * w }
            }
            fixed[k] = f; half[k] = h
        }
        return (fixed, half)
    }

    /// Darkness that code `code` in slot `slot` adds to sample index `k` of the span, and
    /// the half darkness its unknown modules were counted with.
    func slotDarkness(_ c: Coverage, k: Int, slot: Int, code: Int?) -> (added: Double, half: Double) {
        withUnsafeTemporaryAllocation(of: Double.self, capacity: 21) { scratch in
            let sums = scratch.baseAddress!
            let half = slotSums(c, i: k, slot: slot, sums)
            guard let code else { return (0, half) }
            let shape = layout.leftHand[slot] ? Self.leftShapes[code] : Self.rightShapes[code]
            return (Self.darkness(shape, sums, sums + 7, sums + 14), half)
        }
    }

    func light(_ k: Int) -> Double { let t = (Double(k) - gainCentre) / gainScale; return gain.a0 + gain.a1 * t }
    func contrast(_ k: Int) -> Double { let t = (Double(k) - gainCentre) / gainScale; return gain.b0 + gain.b1 * t }

    /// Fits light level and contrast by least squares to `darkness` over the span's samples
    /// where `use` holds; false when the fit fails or leaves no contrast.
    mutating func fitGain(_ c: Coverage, darkness: [Double], use: (Int) -> Bool) -> Bool {
        // y = a0 + a1 t - b0 s - b1 t s
        // The normal equations' sums, m row after row, summed sample after sample.
        var sums = [Double](repeating: 0, count: 16), v = SIMD4<Double>()
        var used = 0
        let centre = gainCentre, scale = gainScale
        sums.withUnsafeMutableBufferPointer { m in
            profile.withUnsafeBufferPointer { profile in
                darkness.withUnsafeBufferPointer { darkness in
                    for (i, k) in c.samples.enumerated() where use(i) {
                        let t = (Double(k) - centre) / scale, s = darkness[i]
                        let x = SIMD4<Double>(1, t, -s, -t * s)
                        for r in 0..<4 {
                            v[r] += x[r] * profile[k]
                            for q in 0..<4 { m[r * 4 + q] += x[r] * x[q] }
                        }
                        used += 1
                    }
                }
            }
        }
        guard used >= 6 else { return false }
        var m = (0..<4).map { r in Array(sums[(r * 4)..<(r * 4 + 4)]) }
        for r in 0..<4 { m[r][r] += 1e-6 * (m[r][r] + 1) }
        guard let p = Self.solve(m, [v[0], v[1], v[2], v[3]]) else { return false }
        gain = (p[0], p[1], p[2], p[3])
        let first = Double(c.samples.lowerBound), last = Double(c.samples.upperBound)
        let ends = [first, last].map { gain.b0 + gain.b1 * ($0 - gainCentre) / gainScale }
        return ends.allSatisfy { $0 > 8 }
    }

    /// Solves the 4 × 4 system by Gaussian elimination with partial pivoting.
    static func solve(_ a: [[Double]], _ b: [Double]) -> [Double]? {
        var m = a, v = b
        let n = v.count
        for col in 0..<n {
            let pivot = (col..<n).max { abs(m[$0][col]) < abs(m[$1][col]) }!
            guard abs(m[pivot][col]) > 1e-12 else { return nil }
            m.swapAt(col, pivot); v.swapAt(col, pivot)
            for r in (col + 1)..<n {
                let f = m[r][col] / m[col][col]
                for q in col..<n { m[r][q] -= f * m[col][q] }
                v[r] -= f * v[col]
            }
        }
        var x = [Double](repeating: 0, count: n)
        for r in stride(from: n - 1, through: 0, by: -1) {
            var s = v[r]
            for q in (r + 1)..<n { s -= m[r][q] * x[q] }
            x[r] = s / m[r][r]
        }
        return x.allSatisfy(\.isFinite) ? x : nil
    }

    /// Which slot's modules sample index `i` of the span lies in, if any.
    func slotOfSamples(_ c: Coverage) -> [Int?] {
        let bounds = layout.slots.map { (position(Double($0)), position(Double($0 + 7))) }
        var j = 0
        return c.samples.map { k -> Int? in
            let x = Double(k)
            while j < bounds.count && x >= bounds[j].1 { j += 1 }
            return j < bounds.count && x >= bounds[j].0 ? j : nil
        }
    }

    /// The mean squared misfit of the best code in every slot taken alone (its neighbours
    /// half dark), after fitting the gain to the guards and quiet zones: how well the layout
    /// lies on the profile here, whatever the digits. Infinity when it cannot lie there.
    mutating func looseCost() -> Double {
        guard isPlausible else { return .infinity }
        let c = coverage()
        let (fixed, half) = baseDarkness(c)
        let owner = slotOfSamples(c)
        let base = zip(fixed, half).map { $0 + $1 }
        guard fitGain(c, darkness: base, use: { owner[$0] == nil }) else { return .infinity }
        var total = 0.0
        var perSlot = [Double](repeating: 0, count: layout.slots.count * 20)
        let leftHand = layout.leftHand, leftShapes = Self.leftShapes, rightShapes = Self.rightShapes
        withUnsafeTemporaryAllocation(of: Double.self, capacity: 21) { scratch in
            let sums = scratch.baseAddress!, rises = sums + 7, falls = sums + 14
            for (i, k) in c.samples.enumerated() {
                let e = profile[k] - light(k), b = contrast(k)
                guard let j = owner[i] else {
                    let r = e + b * base[i]
                    total += r * r
                    continue
                }
                let rest = base[i] - slotSums(c, i: i, slot: j, sums)
                let shapes = leftHand[j] ? leftShapes : rightShapes
                for code in shapes.indices {
                    let r = e + b * (rest + Self.darkness(shapes[code], sums, rises, falls))
                    perSlot[j * 20 + code] += r * r
                }
            }
        }
        for j in leftHand.indices { total += perSlot[(j * 20)..<(j * 20 + (leftHand[j] ? 20 : 10))].min()! }
        return total / Double(max(1, c.samples.count))
    }
}
