/// The digits a fitted layout reads, chosen jointly: the profile is split into windows from
/// the middle of one digit slot to the middle of the next, each window's misfit is known for
/// every pair of codes in its two slots, and the cheapest sequence of codes that a rule of
/// the layout allows (parity pattern, check digit) is found by dynamic programming, with the
/// cheapest allowed sequence that differs from it, to tell how clear the choice was.
extension ProfileFit {
    /// What one profile reads.
    struct Reading: Sendable {
        let kind: EANLayout.Kind
        let digits: [Int]
        /// Misfit of the best allowed sequence, of the best allowed one that differs from it,
        /// and of the best sequence whatever the rules, each summed over `samples` samples.
        let best: Double, second: Double, free: Double
        let samples: Int
        /// Mean contrast (light level minus dark level) along the symbol.
        let contrast: Double
        /// Where the symbol's first and last modules' outer edges lie on the profile, in the
        /// profile's own direction (set by `ProfileDecoder`).
        var ends: (Double, Double) = (0, 0)
        /// The blur and the bars' spread the fit settled on, in modules.
        var sigma = 0.0, spread = 0.0

        /// The noise variance the best sequence leaves, floored so that a clean rendering
        /// does not make every margin infinite.
        var noise: Double { max(best / Double(max(1, samples)), 1e-4 * contrast * contrast, 0.25) }
        /// How much more likely the best sequence is than the runner-up, as the difference
        /// of their misfits in noise units.
        var margin: Double { (second - best) / noise }
        /// How far the rules pulled the reading away from what the bars alone say.
        var correction: Double { (best - free) / noise }
        /// The root-mean-square misfit as a fraction of the contrast.
        var misfit: Double { (best / Double(max(1, samples))).squareRoot() / max(contrast, 1) }
    }

    /// The misfit (as in `Reading.misfit`) above which the runner-up is not looked for: the
    /// reading's margin is then 0.
    static let worthRanking = 0.25

    /// The reading of this layout as fitted, or nil when no rule's sequence fits.
    mutating func read() -> Reading? {
        guard isPlausible else { return nil }
        let c = coverage()
        let (fixed, half) = baseDarkness(c)
        var tables = windowCosts(c, fixed: fixed, half: half)
        guard var found = bestAllowed(tables, samples: c.samples.count, contrast: meanContrast(c)) else { return nil }
        // The light level and contrast again, now from the whole symbol as read.
        let darkness = rendering(c, fixed: fixed, codes: found.codes)
        let saved = gain
        if fitGain(c, darkness: darkness, use: { _ in true }) {
            tables = windowCosts(c, fixed: fixed, half: half)
            if let again = bestAllowed(tables, samples: c.samples.count, contrast: meanContrast(c)) {
                found = again
            } else {
                gain = saved; return nil
            }
        } else {
            gain = saved
        }
        // The runner-up only matters for a reading that fits: the others fail anyway.
        let mean = meanContrast(c)
        let fits = (found.cost / Double(max(1, c.samples.count))).squareRoot() / max(mean, 1) <= Self.worthRanking
        var second = fits ? Double.infinity : found.cost
        for (r, rule) in layout.rules.enumerated() where fits {
            if r != found.rule {
                second = min(second, found.costs[r])
                continue
            }
            // A runner-up further off than any margin asked for changes no decision: the
            // searches stop there, and the margin is then reported as infinite.
            let cap = min(second, Self.decisive(found.cost, samples: c.samples.count, contrast: mean))
            // Each search is bounded by the best runner-up so far too: one no cheaper cannot
            // change `second`, and the bound prunes the states it would pass through.
            for j in found.codes.indices {
                let bound = min(cap, second)
                second = min(second, sequence(rule, tables, excluding: (j, found.codes[j]), below: bound)?.cost ?? .infinity)
            }
        }
        let rule = layout.rules[found.rule]
        let digits = rule.prefix + found.codes.map(EANLayout.digit(of:)) + rule.suffix
        return Reading(kind: layout.kind, digits: digits, best: found.cost, second: second,
                       free: unconstrained(tables), samples: c.samples.count, contrast: mean)
    }

    /// Misfits per window: the first window (to the middle of slot 0) by slot 0's code, the
    /// last by the last slot's, each one between by the codes of the slots on either side,
    /// indexed `previous * 20 + code`.
    struct WindowCosts {
        var first: [Double]
        var pairs: [[Double]]
        var last: [Double]
    }

    private func codeCount(_ slot: Int) -> Int { layout.leftHand[slot] ? 20 : 10 }

    func windowCosts(_ c: Coverage, fixed: [Double], half: [Double]) -> WindowCosts {
        let n = layout.slots.count
        let mids = layout.slots.map { position(Double($0) + 3.5) }
        var first = [Double](repeating: 0, count: codeCount(0)), last = [Double](repeating: 0, count: codeCount(n - 1))
        var pairs = [Double](repeating: 0, count: n * 400)
        var a = [Double](repeating: 0, count: 20), b = a
        withUnsafeTemporaryAllocation(of: Double.self, capacity: 21) { scratch in
            let sums = scratch.baseAddress!
            for (i, k) in c.samples.enumerated() {
                let x = Double(k)
                let window = mids.firstIndex { x < $0 } ?? n
                let e = profile[k] - light(k), g = contrast(k)
                let left = window - 1, right = window < n ? window : -1
                var rest = fixed[i] + half[i]
                for (slot, into) in [(left, 0), (right, 1)] where slot >= 0 {
                    rest -= slotSums(c, i: i, slot: slot, sums)
                    let shapes = layout.leftHand[slot] ? Self.leftShapes : Self.rightShapes
                    for code in shapes.indices {
                        let d = Self.darkness(shapes[code], sums, sums + 7, sums + 14)
                        if into == 0 { a[code] = d } else { b[code] = d }
                    }
                }
                let base = e + g * rest
                if left < 0 {
                    for code in 0..<codeCount(0) { let r = base + g * b[code]; first[code] += r * r }
                } else if right < 0 {
                    for code in 0..<codeCount(left) { let r = base + g * a[code]; last[code] += r * r }
                } else {
                    pairs.withUnsafeMutableBufferPointer { pairs in
                        let at = right * 400
                        for p in 0..<codeCount(left) {
                            let bp = base + g * a[p]
                            for code in 0..<codeCount(right) { let r = bp + g * b[code]; pairs[at + p * 20 + code] += r * r }
                        }
                    }
                }
            }
        }
        return WindowCosts(first: first, pairs: (0..<n).map { $0 == 0 ? [] : Array(pairs[($0 * 400)..<($0 * 400 + 400)]) },
                           last: last)
    }

    /// The darkness of every sample of the span with `codes` in the slots.
    func rendering(_ c: Coverage, fixed: [Double], codes: [Int]) -> [Double] {
        fixed.indices.map { i in
            fixed[i] + codes.indices.reduce(0) { $0 + slotDarkness(c, k: i, slot: $1, code: codes[$1]).added }
        }
    }

    /// The mean contrast along the span.
    func meanContrast(_ c: Coverage) -> Double {
        c.samples.reduce(0.0) { $0 + contrast($1) } / Double(max(1, c.samples.count))
    }

    /// The misfit past which a runner-up to a reading of misfit `best` changes no decision:
    /// its margin (`Reading.margin`) is at least the largest one asked for.
    static func decisive(_ best: Double, samples: Int, contrast: Double) -> Double {
        best + ProfileReader.minMargin * max(best / Double(max(1, samples)), 1e-4 * contrast * contrast, 0.25)
    }

    /// The cheapest sequence over every rule, with each rule's cheapest cost, infinite for
    /// a rule whose cost is past `decisive` of the best (it changes no decision).
    private func bestAllowed(_ t: WindowCosts, samples: Int, contrast: Double)
        -> (rule: Int, codes: [Int], cost: Double, costs: [Double])? {
        var best: (rule: Int, codes: [Int], cost: Double)?
        var costs = [Double](repeating: .infinity, count: layout.rules.count)
        // The codes' misfits alone, the check digit aside, bound each rule's cost from below:
        // taken from the lowest bound up, the first rules give the best, and the search
        // stops at the first rule whose bound is past it.
        let bounds = layout.rules.map { lowestCost($0, t) }
        for r in layout.rules.indices.sorted(by: { bounds[$0] < bounds[$1] }) {
            let cap = best.map { Self.decisive($0.cost, samples: samples, contrast: contrast) } ?? .infinity
            if bounds[r] >= cap { break }
            guard let s = sequence(layout.rules[r], t, below: cap) else { continue }
            costs[r] = s.cost
            if s.cost < (best?.cost ?? .infinity) { best = (r, s.codes, s.cost) }
        }
        return best.map { ($0.rule, $0.codes, $0.cost, costs) }
    }

    /// The cheapest sequence `rule` allows (without code `excluding.code` in slot
    /// `excluding.slot`), by dynamic programming over (code, weighted sum mod 10); nil when
    /// none costs less than `below`.
    func sequence(_ rule: EANLayout.Rule, _ t: WindowCosts, excluding: (slot: Int, code: Int)? = nil,
                  below: Double = .infinity) -> (codes: [Int], cost: Double)? {
        let n = rule.codes.count
        var options = rule.codes
        if let excluding { options[excluding.slot].removeAll { $0 == excluding.code } }
        // cost[j * 200 + ci * 10 + sum], back[…] = the previous slot's state
        var cost = [Double](repeating: .infinity, count: n * 200)
        var back = [Int](repeating: -1, count: n * 200)
        for (ci, code) in options[0].enumerated() where t.first[code] < below {
            cost[ci * 10 + (rule.weights[0] * EANLayout.digit(of: code)) % 10] = t.first[code]
        }
        cost.withUnsafeMutableBufferPointer { cost in
            back.withUnsafeMutableBufferPointer { back in
                // What each code of a slot adds to the weighted sum, mod 10.
                var adds = [Int](repeating: 0, count: 20)
                for j in 1..<n {
                    let here = options[j], before = options[j - 1], at = j * 200, from = at - 200
                    for (ci, code) in here.enumerated() { adds[ci] = (rule.weights[j] * EANLayout.digit(of: code)) % 10 }
                    let pairs = t.pairs[j], count = here.count
                    pairs.withUnsafeBufferPointer { pairs in
                        here.withUnsafeBufferPointer { here in
                            adds.withUnsafeBufferPointer { adds in
                                for (pi, p) in before.enumerated() {
                                    let row = p * 20
                                    for s in 0..<10 {
                                        let prev = cost[from + pi * 10 + s]
                                        guard prev < below else { continue }
                                        for ci in 0..<count {
                                            let total = prev + pairs[row + here[ci]]
                                            let sum = s + adds[ci]
                                            let state = at + ci * 10 + (sum >= 10 ? sum - 10 : sum)
                                            if total < cost[state] && total < below {
                                                cost[state] = total; back[state] = from + pi * 10 + s
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        var end = -1, total = below
        for (ci, code) in options[n - 1].enumerated() {
            for s in 0..<10 where (s + rule.constant) % 10 == 0 {
                let v = cost[(n - 1) * 200 + ci * 10 + s] + t.last[code]
                if v < total { total = v; end = (n - 1) * 200 + ci * 10 + s }
            }
        }
        guard end >= 0 else { return nil }
        var codes = [Int](repeating: 0, count: n)
        var state = end
        for j in stride(from: n - 1, through: 0, by: -1) {
            codes[j] = options[j][(state - j * 200) / 10]
            state = back[state]
        }
        return (codes, total)
    }

    /// The cheapest sequence of the codes `rule` allows in each slot, its check digit aside.
    func lowestCost(_ rule: EANLayout.Rule, _ t: WindowCosts) -> Double {
        var cost = rule.codes[0].map { t.first[$0] }
        for j in 1..<rule.codes.count {
            let before = rule.codes[j - 1]
            cost = rule.codes[j].map { code in
                var least = Double.infinity
                for (pi, p) in before.enumerated() { least = min(least, cost[pi] + t.pairs[j][p * 20 + code]) }
                return least
            }
        }
        return zip(rule.codes[rule.codes.count - 1], cost).map { t.last[$0] + $1 }.min() ?? .infinity
    }

    /// The cheapest sequence of any codes of the right hands, no rule applied.
    private func unconstrained(_ t: WindowCosts) -> Double {
        let n = layout.slots.count
        var cost = t.first
        for j in 1..<n {
            cost = (0..<codeCount(j)).map { code in
                (0..<codeCount(j - 1)).reduce(Double.infinity) { min($0, cost[$1] + t.pairs[j][$1 * 20 + code]) }
            }
        }
        return zip(cost, t.last).map { $0 + $1 }.min() ?? .infinity
    }
}
