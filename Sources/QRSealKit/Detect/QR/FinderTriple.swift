/// Three finder patterns that may be one QR code's: top-left (the right angle), top-right and
/// bottom-left as the code is read, so that the rendered grid is never mirrored.
struct FinderTriple: Sendable {
    var topLeft: FinderCensus.Pattern
    var topRight: FinderCensus.Pattern
    var bottomLeft: FinderCensus.Pattern
    /// Lower is better: how far the triple is from an isosceles right angle of like patterns.
    var score: Double

    /// At most this many patterns take part in grouping (the most often crossed), so that a
    /// page of noise cannot make the cubic search long.
    static let maxPatterns = 36

    /// The plausible triples among `patterns`, best first, at most `limit`; a pattern may be
    /// part of several (the caller decides which one reads).
    static func triples(_ patterns: [FinderCensus.Pattern], limit: Int) -> [FinderTriple] {
        let p = Array(patterns.prefix(maxPatterns))
        guard p.count >= 3 else { return [] }
        var found: [FinderTriple] = []
        for i in 0..<(p.count - 2) {
            for j in (i + 1)..<(p.count - 1) {
                for k in (j + 1)..<p.count {
                    if let t = FinderTriple(p[i], p[j], p[k]) { found.append(t) }
                }
            }
        }
        return Array(found.sorted { $0.score < $1.score }.prefix(limit))
    }

    /// The triple of `a`, `b`, `c` when their sizes and placement fit one code: module sizes
    /// within a factor of 1.7, the corner opposite the longest side near a right angle, the
    /// two sides from it alike within a factor of 1.6 and between 10 and 200 modules long.
    init?(_ a: FinderCensus.Pattern, _ b: FinderCensus.Pattern, _ c: FinderCensus.Pattern) {
        let modules = [a.module, b.module, c.module]
        guard let smallest = modules.min(), let largest = modules.max(), smallest > 0,
              largest / smallest < 1.7 else { return nil }
        let ab = a.center.distance(to: b.center), bc = b.center.distance(to: c.center), ca = c.center.distance(to: a.center)
        // The right angle is opposite the longest side.
        let (corner, p, q): (FinderCensus.Pattern, FinderCensus.Pattern, FinderCensus.Pattern)
        if bc >= ab && bc >= ca { (corner, p, q) = (a, b, c) }
        else if ca >= ab && ca >= bc { (corner, p, q) = (b, c, a) }
        else { (corner, p, q) = (c, a, b) }
        let ux = p.center.x - corner.center.x, uy = p.center.y - corner.center.y
        let vx = q.center.x - corner.center.x, vy = q.center.y - corner.center.y
        let lu = (ux * ux + uy * uy).squareRoot(), lv = (vx * vx + vy * vy).squareRoot()
        guard lu > 0, lv > 0 else { return nil }
        let cosine = (ux * vx + uy * vy) / (lu * lv)
        let ratio = max(lu, lv) / min(lu, lv)
        let module = modules.reduce(0, +) / 3
        guard abs(cosine) < 0.4, ratio < 1.6, min(lu, lv) / module >= 10, max(lu, lv) / module <= 200 else { return nil }
        // With y down, top-right × bottom-left (from top-left) is positive.
        let cross = ux * vy - uy * vx
        topLeft = corner
        (topRight, bottomLeft) = cross > 0 ? (p, q) : (q, p)
        score = abs(cosine) + (ratio - 1) + 0.5 * (largest / smallest - 1)
    }

    var patterns: [FinderCensus.Pattern] { [topLeft, topRight, bottomLeft] }

    /// The modules per side the finders' spacing suggests (17 + 4·version), nearest first,
    /// within two versions either way: the centres are 7 modules less than a side apart.
    /// A pattern's module is measured along the image's rows and columns, which cross a code
    /// turned by θ on a longer path, 1 / max(|cos θ|, |sin θ|) times its side: taken off here,
    /// so that a code turned 30° is not taken for one of a smaller version.
    var dimensionEstimates: [Int] {
        let dx = topRight.center.x - topLeft.center.x, dy = topRight.center.y - topLeft.center.y
        let length = (dx * dx + dy * dy).squareRoot()
        let slant = length > 0 ? max(abs(dx), abs(dy)) / length : 1
        let top = topLeft.center.distance(to: topRight.center) / ((topLeft.module + topRight.module) / 2 * slant)
        let left = topLeft.center.distance(to: bottomLeft.center) / ((topLeft.module + bottomLeft.module) / 2 * slant)
        let estimate = ((top + left) / 2 + 7 - 17) / 4
        let nearest = min(40, max(1, Int(estimate.rounded())))
        return [0, 1, -1, 2, -2].map { nearest + $0 }.filter { (1...40).contains($0) }
            .sorted { abs(Double($0) - estimate) < abs(Double($1) - estimate) }.map { 17 + 4 * $0 }
    }
}

extension FinderCensus.Pattern {
    /// This pattern re-measured on `dark` through its centre across, down and along both
    /// diagonals: the centre moves to the middle of its outer ring's edges and the module
    /// size becomes the mean across and down. Nil when a diagonal or the column does not
    /// show the 1:1:3:1:1 rings (a pattern of noise, or the edge of a printed page).
    func refined(on dark: UnsafeBufferPointer<Bool>, width w: Int, height h: Int, slack: Double = 0.5) -> FinderCensus.Pattern? {
        let limit = Int(module * 6) + 3
        func span(_ dx: Int, _ dy: Int) -> (low: Double, high: Double, runs: [Int])? {
            // The pixel at the centre, or one beside it when noise lightened that one.
            guard let (sx, sy) = [(0, 0), (1, 0), (-1, 0), (0, 1), (0, -1)].lazy.map({ (Int(center.x) + $0.0, Int(center.y) + $0.1) })
                .first(where: { $0.0 >= 0 && $0.1 >= 0 && $0.0 < w && $0.1 < h && dark[$0.1 * w + $0.0] }) else { return nil }
            var x = sx, y = sy
            // Back to the first pixel of the centre run, then forward through all five.
            var back = 0
            while back < limit, x - dx >= 0, y - dy >= 0, x - dx < w, y - dy < h, dark[(y - dy) * w + x - dx] { x -= dx; y -= dy; back += 1 }
            var (bx, by) = (x, y)
            var outer: [Int] = []
            for colour in [false, true] {
                var n = 0
                while n < limit, bx - dx >= 0, by - dy >= 0, bx - dx < w, by - dy < h, dark[(by - dy) * w + bx - dx] == colour {
                    bx -= dx; by -= dy; n += 1
                }
                outer.append(n)
            }
            var (fx, fy) = (x, y), centre = 0
            while centre < 2 * limit, fx >= 0, fy >= 0, fx < w, fy < h, dark[fy * w + fx] { fx += dx; fy += dy; centre += 1 }
            var inner: [Int] = []
            for colour in [false, true] {
                var n = 0
                while n < limit, fx >= 0, fy >= 0, fx < w, fy < h, dark[fy * w + fx] == colour { fx += dx; fy += dy; n += 1 }
                inner.append(n)
            }
            let runs = [outer[1], outer[0], centre, inner[0], inner[1]]
            guard runs.allSatisfy({ $0 > 0 }), FinderCensus.isFinderRatio(runs, slack: slack) else { return nil }
            // Positions along the scan line, in steps from the centre run's first pixel.
            let start = Double(x - dx * (outer[0] + outer[1]))
            let startY = Double(y - dy * (outer[0] + outer[1]))
            let total = Double(runs.reduce(0, +))
            return dx != 0 ? (start, start + total, runs) : (startY, startY + total, runs)
        }
        let across = span(1, 0), down = span(0, 1)
        let diagonals = (span(1, 1) != nil ? 1 : 0) + (span(1, -1) != nil ? 1 : 0)
        // Blur and noise break one scan line or another: three of the four must pass, or
        // the row scan must have crossed the pattern often.
        let passed = diagonals + (across != nil ? 1 : 0) + (down != nil ? 1 : 0)
        guard passed >= 3 || (passed >= 1 && hits >= 3) else { return nil }
        let mx = across.map { ($0.high - $0.low) / 7 } ?? module, my = down.map { ($0.high - $0.low) / 7 } ?? module
        guard mx > 0, my > 0, max(mx, my) / min(mx, my) < 2 else { return nil }
        return FinderCensus.Pattern(center: Point(x: across.map { ($0.low + $0.high) / 2 } ?? center.x,
                                                  y: down.map { ($0.low + $0.high) / 2 } ?? center.y),
                                    module: (mx + my) / 2, hits: hits, moduleAcross: mx, moduleDown: my)
    }
}

extension Point {
    func distance(to other: Point) -> Double {
        let dx = x - other.x, dy = y - other.y
        return (dx * dx + dy * dy).squareRoot()
    }
}
