import FoundationEssentials
import Glibc

extension DataMatrixReader {
    /// A line n·p = c, n pointing out of the symbol.
    typealias Line = (n: Point, c: Double)

    /// The symbol whose dark modules include `region`, if its L, timing and codewords say so.
    func read(_ region: Component) -> (candidate: Candidate, symbol: DataMatrixSymbol)? {
        guard let rough = Self.largestQuadrilateral(region.hull) else { return nil }
        let side = (0..<4).map { distance(rough[$0], rough[($0 + 1) % 4]) }
        guard side.min()! >= 6 else { return nil }
        // A symbol's hull is its four corners but for the light one's cut: most textures'
        // regions fill their hulls far less squarely.
        guard Self.area(rough) > 0.85 * Self.area(region.hull) else { return nil }
        // The first guess of a module: from the region's runs, at most a tenth of the
        // shortest side (the smallest symbols).
        var module = min(side.min()! / 10, region.module)
        // Two adjacent sides of the hull are nearly all dark already, the L's, before any
        // refitting: most regions of text and texture stop here.
        // Every pair of adjacent sides holds side 0 or side 2: when neither is dark enough,
        // the other two need not be looked at.
        var solidity = [Double](repeating: 0, count: 4)
        for k in [0, 2, 1, 3] {
            guard let found = sideSolidity(rough, k, module: module, measuringRuns: false) else { return nil }
            solidity[k] = found.solidity
            if k == 2 && solidity[0] < 0.7 && solidity[2] < 0.7 { return nil }
        }
        guard (0..<4).contains(where: { solidity[$0] >= 0.7 && solidity[($0 + 1) % 4] >= 0.7 }) else { return nil }
        guard var quad = refitted(rough, module: module), case (let corner, var thickness)? = lCorner(quad, module: module)
        else { return nil }
        // The L's sides are sure now; the corner opposite may have been cut off the region (the
        // light top-right module, dark timing modules that touch nothing). The sides are
        // refitted from the parallelogram the L spans, twice, with the L's thickness as module.
        quad[(corner + 2) % 4] = Point(x: quad[(corner + 1) % 4].x + quad[(corner + 3) % 4].x - quad[corner].x,
                                       y: quad[(corner + 1) % 4].y + quad[(corner + 3) % 4].y - quad[corner].y)
        for _ in 0..<2 {
            module = thickness
            guard let refined = refitted(quad, module: module) else { return nil }
            quad = refined
            guard let found = lCorner(quad, module: module), found.0 == corner else { return nil }
            thickness = found.1
        }
        module = thickness
        // The L's corner is the symbol's bottom-left; its arms end at the top-left and bottom-right.
        let bl = quad[corner], a = quad[(corner + 3) % 4], b = quad[(corner + 1) % 4], tr = quad[(corner + 2) % 4]
        // Unmirrored, the bottom-left, top-left and bottom-right turn one way in the image.
        let cross = (a.x - bl.x) * (b.y - bl.y) - (a.y - bl.y) * (b.x - bl.x)
        let orders = cross < 0 ? [(a, b), (b, a)] : [(b, a), (a, b)]
        for (tl, br) in orders {
            if let read = read(corners: [tl, tr, br, bl], module: module) { return read }
        }
        return nil
    }

    private func distance(_ a: Point, _ b: Point) -> Double {
        ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot()
    }

    /// The corner between the two sides that are dark all along just inside them (the L),
    /// and the L's thickness there: the shortest dark runs inwards across it.
    func lCorner(_ quad: [Point], module: Double) -> (Int, Double)? {
        guard let (solidity, runs) = sides(quad, module: module) else { return nil }
        var best: (score: Double, k: Int)?
        for k in 0..<4 {
            let before = solidity[(k + 3) % 4], after = solidity[k]
            guard before >= 0.85, after >= 0.85 else { continue }
            // The other two sides alternate: each has light modules along it.
            let others = [solidity[(k + 1) % 4], solidity[(k + 2) % 4]]
            guard others.allSatisfy({ $0 < 0.85 }) else { continue }
            let score = before + after
            if best == nil || score > best!.score { best = (score, k) }
        }
        guard let k = best?.k else { return nil }
        let both = (runs[(k + 3) % 4] + runs[k]).sorted()
        let thickness = both[both.count / 4]
        guard thickness >= 0.8 else { return nil }
        return (k, thickness)
    }

    /// For each side of `quad`, the share of places along it where the pixels just inside
    /// are dark, and how far inwards the dark run there goes.
    func sides(_ quad: [Point], module: Double) -> (solidity: [Double], runs: [[Double]])? {
        var solidity: [Double] = [], runs: [[Double]] = []
        for k in 0..<4 {
            guard let found = sideSolidity(quad, k, module: module, measuringRuns: true) else { return nil }
            solidity.append(found.solidity)
            runs.append(found.runs)
        }
        return (solidity, runs)
    }

    /// Side `k` of `quad` (from corner k to k + 1): the share of places along it where the
    /// pixels just inside are dark, and, when `measuringRuns`, how far inwards the dark run
    /// at each place goes (else no runs).
    func sideSolidity(_ quad: [Point], _ k: Int, module: Double, measuringRuns: Bool) -> (solidity: Double, runs: [Double])? {
        let p = quad[k], q = quad[(k + 1) % 4]
        let length = distance(p, q)
        guard length > 0 else { return nil }
        let outward = Self.outwardNormal(quad, side: k)
        let nx = -outward.x, ny = -outward.y
        let samples = max(8, min(60, Int(length / 2)))
        var dark = 0, lengths: [Double] = []
        for s in 0..<samples {
            let t = 0.08 + 0.84 * (Double(s) + 0.5) / Double(samples)
            let x0 = p.x + (q.x - p.x) * t, y0 = p.y + (q.y - p.y) * t
            // The first dark pixel within half a module of the side; the L's edge may lie
            // a pixel inside the fitted line on a turned or blurred symbol.
            var start = 0.5
            while start <= 0.5 + module / 2, !isDark(Int(x0 + nx * start), Int(y0 + ny * start)) { start += 0.5 }
            guard start <= 0.5 + module / 2 else {
                if measuringRuns { lengths.append(0) }
                continue
            }
            dark += 1
            guard measuringRuns else { continue }
            var run = start
            while run < length / 4, isDark(Int(x0 + nx * run), Int(y0 + ny * run)) { run += 0.5 }
            lengths.append(run)
        }
        return (Double(dark) / Double(samples), lengths)
    }

    /// `quad` with each side moved onto the outermost dark pixels within a module and a half
    /// of it, fitted as a straight line; the corners where the new lines meet.
    func refitted(_ quad: [Point], module: Double) -> [Point]? {
        var lines: [Line] = []
        for k in 0..<4 {
            let p = quad[k], q = quad[(k + 1) % 4]
            let length = distance(p, q)
            guard length > 0 else { return nil }
            let outward = Self.outwardNormal(quad, side: k)
            let nx = outward.x, ny = outward.y
            // Outermost dark pixel along the normal at each step along the side, then the
            // outermost in each window of two modules, which holds a dark timing module.
            let steps = max(8, Int(length))
            var edge: [(t: Double, d: Double)] = []
            for s in 0...steps {
                let t = 0.04 + 0.92 * Double(s) / Double(steps)
                let bx = p.x + (q.x - p.x) * t, by = p.y + (q.y - p.y) * t
                var d = 1.2 * module + 1
                while d > -1.5 * module - 1 {
                    if isDark(at: bx + nx * d, by + ny * d) { break }
                    d -= 0.5
                }
                if d > -1.5 * module - 1 { edge.append((t, d + 0.5)) }
            }
            let window = max(2 * module, 1) / length
            var points: [Point] = []
            var start = 0.0
            // The edge points come in order along the side: the windows slide over them.
            var first = 0
            while start < 1 {
                while first < edge.count && edge[first].t < start { first += 1 }
                var outer: (t: Double, d: Double)?
                var i = first
                while i < edge.count && edge[i].t < start + window {
                    if outer == nil || edge[i].d > outer!.d { outer = edge[i] }
                    i += 1
                }
                if let outer {
                    let bx = p.x + (q.x - p.x) * outer.t, by = p.y + (q.y - p.y) * outer.t
                    points.append(Point(x: bx + nx * outer.d, y: by + ny * outer.d))
                }
                start += window / 2
            }
            guard let line = Self.fittedLine(points, outward: Point(x: nx, y: ny)) else { return nil }
            lines.append(line)
        }
        var corners: [Point] = []
        for k in 0..<4 {
            guard let c = Self.intersection(lines[(k + 3) % 4], lines[k]) else { return nil }
            guard distance(c, quad[k]) < 3 * module + 3 else { return nil }
            corners.append(c)
        }
        return corners
    }

    /// The unit normal of side `k` of `quad` (from corner k to k + 1), pointing out of it.
    static func outwardNormal(_ quad: [Point], side k: Int) -> Point {
        let p = quad[k], q = quad[(k + 1) % 4], centre = Self.centre(quad)
        let length = max(1e-9, ((q.x - p.x) * (q.x - p.x) + (q.y - p.y) * (q.y - p.y)).squareRoot())
        let n = Point(x: -(q.y - p.y) / length, y: (q.x - p.x) / length)
        let inward = n.x * (centre.x - (p.x + q.x) / 2) + n.y * (centre.y - (p.y + q.y) / 2) > 0
        return inward ? Point(x: -n.x, y: -n.y) : n
    }

    /// The line through `points` (least squares, perpendicular), its normal along `outward`:
    /// the Aztec reader's fit, without its half-pixel step onto the edge.
    static func fittedLine(_ points: [Point], outward: Point) -> Line? {
        guard points.count >= 3 else { return nil }
        let centre = Self.centre(points)
        let away = Point(x: centre.x - outward.x, y: centre.y - outward.y)
        guard let line = AztecReader.fittedLine(points, awayFrom: away) else { return nil }
        return (line.n, line.c - 0.5)
    }

    static func intersection(_ a: Line, _ b: Line) -> Point? {
        let det = a.n.x * b.n.y - a.n.y * b.n.x
        guard abs(det) > 0.2 else { return nil }
        return Point(x: (a.c * b.n.y - b.c * a.n.y) / det, y: (a.n.x * b.c - b.n.x * a.c) / det)
    }

    // MARK: - Modules

    /// The symbol with these corners (its top-left, top-right, bottom-right and bottom-left,
    /// the L's corner last): its size from the runs along its timing sides, each module
    /// sampled where the timing modules found put its column and row.
    func read(corners: [Point], module: Double) -> (candidate: Candidate, symbol: DataMatrixSymbol)? {
        let (tl, tr, br, bl) = (corners[0], corners[1], corners[2], corners[3])
        let inTop = Point(x: (bl.x - tl.x), y: (bl.y - tl.y)), inRight = Point(x: tl.x - tr.x, y: tl.y - tr.y)
        // Half a module in from the top side and from the right side; then again, half the
        // top-right module's width and height in, which distortion may have made thinner
        // than the L's modules.
        var topRuns = timing(from: tl, to: tr, inward: inTop, module: module)
        var rightRuns = timing(from: tr, to: br, inward: inRight, module: topRuns?.widths.last ?? module)
        if let height = rightRuns?.widths.first {
            topRuns = timing(from: tl, to: tr, inward: inTop, module: height)
            rightRuns = timing(from: tr, to: br, inward: inRight, module: topRuns?.widths.last ?? module)
        }
        guard let top = topRuns?.centres, let right = rightRuns?.centres else { return nil }
        let counted = (columns: top.count, rows: right.count)
        // The counted size first, then sizes close to it.
        var sizes = DataMatrixSymbol.sizes.filter { abs($0.columns - counted.columns) <= 2 && abs($0.rows - counted.rows) <= 2 }
        sizes.sort { abs($0.columns - counted.columns) + abs($0.rows - counted.rows) < abs($1.columns - counted.columns) + abs($1.rows - counted.rows) }
        for size in sizes {
            let target = [Point(x: 0, y: 0), Point(x: Double(size.columns), y: 0),
                          Point(x: Double(size.columns), y: Double(size.rows)), Point(x: 0, y: Double(size.rows))]
            guard let mapping = Homography(from: target, to: corners), let back = mapping.inverse else { continue }
            let exact = size.columns == counted.columns && size.rows == counted.rows
            // Each timing module's centre, back in module coordinates: where its column (row) lies.
            var du = [Double](repeating: 0, count: size.columns), dv = [Double](repeating: 0, count: size.rows)
            if exact {
                for (k, p) in top.enumerated() { du[k] = back.apply(p).x - (Double(k) + 0.5) }
                for (k, p) in right.enumerated() { dv[k] = back.apply(p).y - (Double(k) + 0.5) }
            }
            for corrected in exact ? [true, false] : [false] {
                let threshold = self.threshold(size: size, mapping: mapping, du: corrected ? du : nil, dv: corrected ? dv : nil)
                let module = { (c: Int, r: Int) -> Bool in
                    let p = mapping.apply(Double(c) + 0.5 + (corrected ? du[c] : 0), Double(r) + 0.5 + (corrected ? dv[r] : 0))
                    return self.level(p) < threshold
                }
                let pattern = DataMatrixSymbol.patternMisses(size: size, module: module)
                guard 4 * pattern.misses < pattern.checked else { continue }
                guard let symbol = DataMatrixSymbol(size: size, module: module) else { continue }
                var candidate = Candidate(symbology: .dataMatrix, bytes: symbol.text.bytes, corners: corners,
                                          engineText: symbol.text.text,
                                          declaresCharacterSet: symbol.text.declaresCharacterSet)
                candidate.isSoundlyChecked = symbol.isSoundlyChecked
                candidate.structuredAppend = symbol.text.sequence.map {
                    StructuredAppend(index: $0.index, count: $0.count, parity: $0.file)
                }
                return (candidate, symbol)
            }
        }
        return nil
    }

    /// The grey level at `p`, dark low whichever way the symbol is printed.
    func level(_ p: Point) -> Double {
        let v = image.bilinear(p.x, p.y, centres: .halfway, outside: .paper)
        return inverted ? 255 - v : v
    }

    /// Between the L's grey level and the timing's light modules'.
    private func threshold(size: DataMatrixSymbol.Size, mapping: Homography, du: [Double]?, dv: [Double]?) -> Double {
        func at(_ c: Int, _ r: Int) -> Double {
            level(mapping.apply(Double(c) + 0.5 + (du?[c] ?? 0), Double(r) + 0.5 + (dv?[r] ?? 0)))
        }
        var darkSum = 0.0, darkCount = 0.0, lightSum = 0.0, lightCount = 0.0
        for r in 0..<size.rows {
            darkSum += at(0, r); darkCount += 1
            if r % 2 == 0 { lightSum += at(size.columns - 1, r); lightCount += 1 }
        }
        for c in 0..<size.columns {
            darkSum += at(c, size.rows - 1); darkCount += 1
            if c % 2 == 1 { lightSum += at(c, 0); lightCount += 1 }
        }
        return (darkSum / darkCount + lightSum / lightCount) / 2
    }

    /// The centres of the runs of alternating modules along the side from `a` to `b`, half a
    /// module in (along `inward`, towards the opposite side): one per module, or nil when
    /// they are too few or too uneven to be a timing pattern.
    func timing(from a: Point, to b: Point, inward: Point, module: Double) -> (centres: [Point], widths: [Double])? {
        let length = distance(a, b)
        let inLength = (inward.x * inward.x + inward.y * inward.y).squareRoot()
        guard length > 0, inLength > 0 else { return nil }
        let ox = inward.x / inLength * module * 0.5, oy = inward.y / inLength * module * 0.5
        let steps = Int(length * 4)
        guard steps >= 16 else { return nil }
        // Binarized along the line, then runs shorter than a third of a module merged away.
        var runs: [(dark: Bool, start: Int, end: Int)] = []
        for s in 0..<steps {
            let t = (Double(s) + 0.5) / Double(steps)
            let x = a.x + (b.x - a.x) * t + ox, y = a.y + (b.y - a.y) * t + oy
            let d = isDark(at: x, y)
            if let last = runs.last, last.dark == d {
                runs[runs.count - 1].end = s + 1
            } else {
                runs.append((d, s, s + 1))
            }
        }
        let shortest = Int(module * 4 / 3)
        // The line starts and ends on the corners: a sliver outside the symbol at either end
        // belongs to the module beside it.
        if runs.count >= 2, runs[0].end - runs[0].start < shortest {
            runs[1].start = 0
            runs.removeFirst()
        }
        if runs.count >= 2, runs[runs.count - 1].end - runs[runs.count - 1].start < shortest {
            runs[runs.count - 2].end = steps
            runs.removeLast()
        }
        var merged: [(dark: Bool, start: Int, end: Int)] = []
        for run in runs {
            if let last = merged.last, run.end - run.start < shortest || last.dark == run.dark {
                merged[merged.count - 1].end = run.end
                continue
            }
            merged.append(run)
        }
        // Merging a short run can leave two of a colour side by side.
        var joined: [(dark: Bool, start: Int, end: Int)] = []
        for run in merged {
            if let last = joined.last, last.dark == run.dark { joined[joined.count - 1].end = run.end } else { joined.append(run) }
        }
        guard joined.count >= 8, joined.count <= 144 else { return nil }
        let widths = joined.dropFirst().dropLast().map { Double($0.end - $0.start) }
        let mean = widths.reduce(0, +) / Double(max(1, widths.count))
        guard widths.allSatisfy({ $0 > 0.4 * mean && $0 < 2.2 * mean }) else { return nil }
        let centres = joined.map { run in
            let t = Double(run.start + run.end) / 2 / Double(steps)
            return Point(x: a.x + (b.x - a.x) * t + ox, y: a.y + (b.y - a.y) * t + oy)
        }
        return (centres, joined.map { Double($0.end - $0.start) / Double(steps) * length })
    }
}
