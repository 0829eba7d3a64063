/// Reads an EAN-13, UPC-A, EAN-8 or UPC-E from one grey-level profile across its bars:
/// finds where the symbol may start and end (a dark edge after a light quiet zone), lays
/// each layout over that stretch in both directions, moves its anchors and blur until the
/// modelled profile fits best, then reads the digits (`ProfileFit.read`).
enum ProfileDecoder {
    /// At most this many of the candidate placements are refined and read.
    static let refined = 2
    /// The most that bars may be printed wider or narrower than nominal, in modules.
    static let maxSpread = 0.7
    /// The fewest dark dips (`dips`) a stretch must show, as a share of a layout's bars, for
    /// the layout to be laid over it: blur merges thin bars, but on the corpus's,
    /// Tests/Images' and the generated sets' reads at least 0.4 of the bars still show as
    /// dips, where most stretches of no symbol (texture, text, a photo's edges) show far
    /// fewer.
    static let minDipShare = 0.4

    /// A fitted placement of a layout on a profile, read in the profile's direction or
    /// against it.
    struct Placement {
        var fit: ProfileFit
        var forward: Bool
    }

    /// The readings of `profile`, best fitting first. `span` is where the bars are thought
    /// to lie (sample positions), from the region they were found in.
    static func readings(_ profile: [Double], span: ClosedRange<Double>) -> [ProfileFit.Reading] {
        var refined = 0
        return fitted(profile, span: span, refined: &refined).map(\.reading)
    }

    /// The readings of `profile` with the placements they were read at. With `seeds` (the
    /// placements a neighbouring band of the same bars was read at), only those are refined
    /// here, in fine steps: the bands of one symbol share its geometry, and a band costs a
    /// fraction of a search. `refined` counts the placements refined.
    static func fitted(_ profile: [Double], span: ClosedRange<Double>, seeds: [Placement]? = nil, refined count: inout Int)
        -> [(reading: ProfileFit.Reading, placement: Placement)] {
        // A profile without contrast holds no symbol.
        guard profile.count >= 32, var measured = levels(profile, span: span) else { return [] }
        var profile = profile
        if let light = opened(profile, levels: measured), let again = levels(light, span: span) {
            (profile, measured) = (light, again)
        }
        let reversed = Array(profile.reversed())
        let n = Double(profile.count - 1)
        var placements: [(cost: Double, fit: ProfileFit, forward: Bool)] = []
        for seed in seeds ?? [] where seed.fit.profile.count == profile.count {
            // A band that shows too few of the seed's bars where the seed lies cannot read it.
            let (a, b) = (seed.fit.position(0), seed.fit.position(Double(seed.fit.layout.modules)))
            guard Double(dips(measured, from: seed.forward ? a : n - b, to: seed.forward ? b : n - a))
                >= minDipShare * Double(seed.fit.layout.bars) else { continue }
            var fit = ProfileFit(layout: seed.fit.layout, profile: seed.forward ? profile : reversed,
                                 left: 0, right: 1, sigma: seed.fit.sigma)
            fit.anchors = seed.fit.anchors
            fit.spread = seed.fit.spread
            let cost = fit.looseCost()
            if cost < .infinity { placements.append((cost, fit, seed.forward)) }
        }
        for (left, right) in seeds == nil ? ends(measured, span: span) : [] {
            // Counted before any layout is laid over the stretch: the cheap test that drops
            // most stretches of no symbol before the costly fits.
            let dips = dips(measured, from: left, to: right)
            for layout in EANLayout.all where Double(dips) >= minDipShare * Double(layout.bars) {
                let width = (right - left) / Double(layout.modules)
                guard width >= 0.6 else { continue }
                for forward in [true, false] {
                    let fit = forward
                        ? ProfileFit(layout: layout, profile: profile, left: left, right: right, sigma: 0.8)
                        : ProfileFit(layout: layout, profile: reversed, left: n - right, right: n - left, sigma: 0.8)
                    var placed = fit
                    let cost = placed.looseCost()
                    if cost < .infinity { placements.append((cost, placed, forward)) }
                }
            }
        }
        placements.sort { $0.cost < $1.cost }
        count += min(refined, placements.count)
        return placements.prefix(refined).compactMap { placement in
            var fit = refine(placement.fit, cost: placement.cost, steps: seeds == nil ? [0.5, 0.25, 0.1] : [0.2, 0.1])
            let found = fit
            guard var reading = fit.read() else { return nil }
            let a = fit.position(0), b = fit.position(Double(fit.layout.modules))
            reading.ends = placement.forward ? (a, b) : (n - b, n - a)
            (reading.sigma, reading.spread) = (fit.sigma, fit.spread)
            return (reading, Placement(fit: found, forward: placement.forward))
        }
    }

    /// `profile` with a dark run at either end wider than any bar (a dark border, a frame,
    /// the edge of a label or a shadow beside the symbol) made as light as the spaces, when
    /// the light between it and the next dark run is shorter than a quiet zone: a symbol
    /// whose quiet zone such a border cuts short then shows the light margin `edges` looks
    /// for; `levels` are the profile's own (`levels(_:span:)`). Nil when neither end is dark
    /// or the profile shows too few bars to measure a narrow one by; a run at most
    /// `widestBar` narrow bars wide may be a bar, and is left.
    static func opened(_ profile: [Double], levels: Levels) -> [Double]? {
        let n = profile.count
        guard n >= 3, levels.smooth.count == n else { return nil }
        let dark = levels.smooth.map { $0 < levels.threshold }
        guard dark[0] || dark[n - 1] else { return nil }
        // The dark runs, as (first sample, length).
        var runs: [(start: Int, length: Int)] = []
        var k = 0
        while k < n {
            guard dark[k] else { k += 1; continue }
            let start = k
            while k < n, dark[k] { k += 1 }
            runs.append((start, k - start))
        }
        let inner = runs.filter { $0.start > 0 && $0.start + $0.length < n }
        guard inner.count >= minOpenedBars else { return nil }
        let narrow = max(1, inner.map(\.length).sorted()[inner.count / 8])
        // A border that leaves a full quiet zone beside the bars hides nothing: `edges` finds
        // the symbol's end before it. One that cuts the light margin short does.
        let ends = runs.indices.filter { i in
            let run = runs[i]
            guard run.length > widestBar * narrow, runs.count > 1 else { return false }
            if run.start == 0 { return runs[1].start - run.length < levels.quiet }
            if run.start + run.length == n { return run.start - (runs[i - 1].start + runs[i - 1].length) < levels.quiet }
            return false
        }.map { runs[$0] }
        guard !ends.isEmpty else { return nil }
        // The spaces' level: the lightest tenth of the samples between the two end runs.
        let from = runs.first.map { $0.start == 0 ? $0.length : 0 } ?? 0
        let to = runs.last.map { $0.start + $0.length == n ? $0.start : n } ?? n
        guard to - from >= 8 else { return nil }
        let light = profile[from..<to].sorted()[(to - from) * 9 / 10]
        var out = profile
        for run in ends {
            for i in run.start..<(run.start + run.length) { out[i] = light }
        }
        return out
    }

    /// The fewest dark runs inside a profile for `opened` to measure a narrow bar by: the
    /// bars of a UPC-E, the smallest layout, less a few that blur merges.
    static let minOpenedBars = 12
    /// The widest bar of the EAN/UPC layouts, in modules: a run at a profile's end wider
    /// than this many narrow bars is no bar.
    static let widestBar = 4

    /// Where a symbol may begin and end in a profile's `levels`: dark edges with a light
    /// stretch of a quiet zone's length outside them, the two nearest each end of `span` on
    /// each side, paired.
    static func ends(_ levels: Levels, span: ClosedRange<Double>) -> [(Double, Double)] {
        let (starts, stops) = edges(levels)
        return pairs(starts: starts, stops: stops, span: span)
    }

    /// How many dark dips (samples darker than both neighbours' levels, or level with the
    /// next) the smoothed levels have from sample `left` to `right`: a bar makes one even
    /// when blur has left it grey, where a bare stretch, or a wide dark one, makes few.
    static func dips(_ levels: Levels, from left: Double, to right: Double) -> Int {
        let smooth = levels.smooth
        let lo = max(0, Int(left)) + 1, hi = min(smooth.count - 1, Int(right) + 1)
        guard hi > lo else { return 0 }
        var count = 0
        for k in lo..<hi where smooth[k] < smooth[k - 1] && smooth[k] <= smooth[k + 1] { count += 1 }
        return count
    }

    /// A profile's grey levels smoothed and divided by the light level nearby (the largest
    /// value within a quiet zone's length either way), so that uneven light moves neither
    /// end; the threshold between light and dark; a quiet zone's length in samples.
    struct Levels {
        var smooth: [Double]
        var threshold: Double
        var quiet: Int
        /// The light level nearby, by which each sample was divided.
        var light: [Double] = []
    }

    static func levels(_ profile: [Double], span: ClosedRange<Double>) -> Levels? {
        let n = profile.count
        guard n >= 3 else { return nil }
        var smooth = profile
        for i in 1..<(n - 1) { smooth[i] = (profile[i - 1] + profile[i] + profile[i + 1]) / 3 }
        let quiet = max(3, Int((span.upperBound - span.lowerBound) / 16))
        let level = windowMaxima(smooth, radius: 4 * quiet).map { max(1, $0) }
        for k in 0..<n { smooth[k] /= level[k] }
        let sorted = smooth.sorted()
        let dark = sorted[n / 20]
        guard 1 - dark >= 0.1 else { return nil }
        return Levels(smooth: smooth, threshold: 1 - 0.3 * (1 - dark), quiet: quiet, light: level)
    }

    /// The largest of `values` within `radius` samples either way of each, in one pass: a
    /// queue of the indices whose values no later one within reach exceeds, largest first.
    static func windowMaxima(_ values: [Double], radius: Int) -> [Double] {
        let n = values.count
        var maxima = [Double](repeating: 0, count: n)
        var queue = [Int](repeating: 0, count: n), head = 0, tail = 0, next = 0
        for k in 0..<n {
            while next <= min(n - 1, k + radius) {
                while tail > head, values[queue[tail - 1]] <= values[next] { tail -= 1 }
                queue[tail] = next
                tail += 1
                next += 1
            }
            while queue[head] < k - radius { head += 1 }
            maxima[k] = values[queue[head]]
        }
        return maxima
    }

    /// Where `smooth` crosses `threshold`, between samples (linearly), in order.
    static func crossings(_ smooth: [Double], at threshold: Double) -> [Double] {
        var edges: [Double] = []
        guard smooth.count >= 2 else { return edges }
        for k in 1..<smooth.count where (smooth[k - 1] >= threshold) != (smooth[k] >= threshold) {
            edges.append(Double(k - 1) + (smooth[k - 1] - threshold) / (smooth[k - 1] - smooth[k]))
        }
        return edges
    }

    /// The dark edges with a full quiet zone outside them: where a symbol may start, and stop.
    static func edges(_ levels: Levels) -> (starts: [Double], stops: [Double]) {
        let (smooth, threshold, quiet) = (levels.smooth, levels.threshold, levels.quiet)
        let n = smooth.count
        var starts: [Double] = [], stops: [Double] = []
        for k in 1..<n where smooth[k] < threshold {
            if smooth[k - 1] >= threshold, k >= quiet, (k - quiet..<k).allSatisfy({ smooth[$0] >= threshold }) {
                starts.append(Double(k - 1) + (smooth[k - 1] - threshold) / (smooth[k - 1] - smooth[k]))
            }
            if k + 1 < n, smooth[k + 1] >= threshold, k + quiet < n,
               (k + 1...k + quiet).allSatisfy({ smooth[$0] >= threshold }) {
                stops.append(Double(k) + (threshold - smooth[k]) / (smooth[k + 1] - smooth[k]))
            }
        }
        return (starts, stops)
    }

    /// The starts and stops nearest each end of `span`, paired.
    static func pairs(starts: [Double], stops: [Double], span: ClosedRange<Double>) -> [(Double, Double)] {
        let nearStart = starts.sorted { abs($0 - span.lowerBound) < abs($1 - span.lowerBound) }.prefix(2)
        let nearStop = stops.sorted { abs($0 - span.upperBound) < abs($1 - span.upperBound) }.prefix(2)
        // The bars' region is found to a block or so, and may take in a neighbour's (an
        // add-on, a price code): a symbol much wider than it, or under half as wide, is not its.
        let width = span.upperBound - span.lowerBound
        let pairs = nearStart.flatMap { l in nearStop.map { (l, $0) } }
        return pairs.filter { $0.1 - $0.0 >= 30 && $0.1 - $0.0 <= 1.3 * width + 16 && $0.1 - $0.0 >= 0.4 * width }
    }

    /// Coordinate descent on the anchors, the whole placement, the blur and the bars' spread, in halving
    /// steps (in modules), until no move lowers `ProfileFit.looseCost`.
    static func refine(_ start: ProfileFit, cost startCost: Double, steps: [Double] = [0.5, 0.25, 0.1]) -> ProfileFit {
        var fit = start, cost = startCost
        func attempt(_ candidate: ProfileFit) -> Bool {
            var c = candidate
            let v = c.looseCost()
            if v < cost { fit = c; cost = v; return true }
            return false
        }
        // A move that lowered the cost is not tried back the other way: that is where the
        // fit came from.
        for step in steps {
            for _ in 0..<3 {
                let before = cost
                for i in fit.anchors.indices {
                    let w = fit.moduleWidth(at: fit.layout.anchors[i])
                    for d in [-step, step] { var c = fit; c.anchors[i] += d * w; if attempt(c) { break } }
                }
                let w = fit.moduleWidth(at: 0)
                for d in [-step, step] { var c = fit; c.anchors = c.anchors.map { $0 + d * w }; if attempt(c) { break } }
                for f in [1.25, 0.8] {
                    let was = fit.sigma
                    var c = fit; c.sigma = min(2.2, max(0.2, was * f))
                    // A blur held at its limit is the fit as it is, and costs what it costs.
                    if c.sigma != was && attempt(c) && c.sigma == was * f { break }
                }
                for d in [-step, step] {
                    let was = fit.spread
                    var c = fit; c.spread = min(maxSpread, max(-maxSpread, was + d))
                    if c.spread != was && attempt(c) && c.spread == was + d { break }
                }
                if cost >= before { break }
            }
        }
        return fit
    }
}
