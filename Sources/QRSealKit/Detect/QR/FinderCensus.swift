import FoundationEssentials
import Glibc

/// Counts QR finder patterns (the three nested squares in a code's corners) in an image,
/// cheaply, to tell whether any code is still unread once some have been read.
///
/// Each code has three; three patterns inside no code read so far, placed as one code's
/// corners, mean a code was missed, so `.balanced` keeps going on pages of many codes
/// instead of stopping at the first one, and reads the region around them.
/// A row scan finds dark–light–dark–light–dark runs in the ratio 1:1:3:1:1 against a
/// threshold from the mean of each 16×16 block's neighbourhood, and a column scan through
/// the candidate's centre confirms it.
struct FinderCensus {
    /// One finder pattern as the scan saw it: the mean of the centres and module sizes of
    /// every scan row that crossed it, and how many did.
    struct Pattern: Sendable {
        var center: Point
        var module: Double
        var hits: Int
        /// The module measured across and down the image's pixel rows and columns, when
        /// `refined(on:width:height:slack:)` measured them: a curl or a slant stretches a
        /// pattern one way.
        var moduleAcross: Double? = nil, moduleDown: Double? = nil

        /// The module along the direction (dx, dy), from the sizes across and down (or the
        /// mean size) as the axes of an ellipse.
        func module(along dx: Double, _ dy: Double) -> Double {
            let length = (dx * dx + dy * dy).squareRoot()
            guard length > 0, let a = moduleAcross, let d = moduleDown else { return module }
            let ux = dx / length / a, uy = dy / length / d
            return 1 / (ux * ux + uy * uy).squareRoot()
        }
    }

    /// The distinct patterns found, most often crossed first.
    let patterns: [Pattern]
    /// Centres of the distinct patterns found, in the image's pixels, in the order of `patterns`.
    let centers: [Point]
    /// The module size of each pattern in `centers`, in pixels.
    let modules: [Double]
    /// The binarized image the census was taken of, and its size: where the grouping looks
    /// for the timing patterns between two patterns (`timingHolds(corner:_:_:)`), and
    /// the bounds of its regions.
    private let dark: [Bool]
    private let width: Int, height: Int

    /// The census of an image already binarized by `Binarizer.binarized(_:)`; each run may differ
    /// from its share of the pattern by `slack` modules (and half a pixel). With
    /// `besideCentre`, a row's pattern that the column through its centre does not confirm
    /// may be confirmed by the column on either side: blurred, a ring a few pixels thick
    /// thins to one pixel on one column, or a turn moves the centre by one down the pattern.
    init(dark: [Bool], width w: Int, height h: Int, slack: Double = 0.5, besideCentre: Bool = false) {
        self.dark = dark
        width = w
        height = h
        guard w >= 21, h >= 21, dark.count == w * h else { patterns = []; centers = []; modules = []; return }
        var found: [(Point, Double)] = []
        dark.withUnsafeBufferPointer { px in
            let raw = UnsafeRawBufferPointer(px)
            for y in stride(from: 0, to: h, by: 2) {
                let row = y * w
                // The last five runs of the row, oldest first; runs alternate, so the oldest
                // is dark when the newest is.
                var (l0, l1, l2, l3, l4, count) = (0, 0, 0, 0, 0, 0)
                var x = 0
                while x < w {
                    let isDark = px[row + x], start = x
                    // Eight pixels at a time while they are all of the run's colour (Bools are
                    // bytes of 0 or 1, loaded least significant first): the first byte that
                    // differs ends the run, and the last few of the row are looked at one by one.
                    let colour: UInt64 = isDark ? 0x0101_0101_0101_0101 : 0
                    x += 1
                    while x + 8 <= w {
                        let other = raw.loadUnaligned(fromByteOffset: row + x, as: UInt64.self) ^ colour
                        if other != 0 {
                            x += other.trailingZeroBitCount / 8
                            break
                        }
                        x += 8
                    }
                    while x < w && px[row + x] == isDark { x += 1 }
                    let length = x - start
                    (l0, l1, l2, l3, l4) = (l1, l2, l3, l4, length)
                    count += 1
                    guard count >= 5, isDark, Self.isFinderRatio(l0, l1, l2, l3, l4, slack: slack) else { continue }
                    // x is just past the fifth run; the centre is in the middle of the third.
                    let centerX = Double(x - l4 - l3) - Double(l2) / 2
                    let module = Double(l0 + l1 + l2 + l3 + l4) / 7
                    let column = Int(centerX)
                    func confirmed(_ x: Int) -> Double? { Self.verticalCenter(px, w, h, x: x, y: y, module: module, slack: slack) }
                    if let centerY = confirmed(column) ?? (besideCentre ? confirmed(column - 1) ?? confirmed(column + 1) : nil) {
                        found.append((Point(x: centerX, y: centerY), module))
                    }
                }
            }
        }
        // Many rows cross each pattern: one pattern for the hits near each other.
        var distinct: [Pattern] = []
        // The indices in `distinct` by the band of 16 rows their centres lie in. A hit joins
        // a pattern whose centre lies within 2.5 of the larger module of the two down, and
        // that module is less than 1.5 times its own: less than 4 of its modules away. Only
        // the bands within that reach are searched, for the first pattern in `distinct` the
        // hit joins, instead of every pattern found so far (thousands on a dense page).
        var bands = [[Int]](repeating: [], count: h / 16 + 1)
        func band(_ y: Double) -> Int { Int(max(0, min(Double(h - 1), y))) / 16 }
        for (p, m) in found {
            // The rows through one pattern agree on its centre across within a module or so
            // and lie within its 3-module core down; a finder-like stretch of data beside
            // it must not pull its centre away.
            var first: Int?
            for b in band(p.y - 4 * m)...band(p.y + 4 * m) {
                for i in bands[b] where i < first ?? Int.max {
                    let d = distinct[i]
                    if abs(d.center.x - p.x) < 1.5 * max(m, d.module) && abs(d.center.y - p.y) < 2.5 * max(m, d.module)
                        && max(m, d.module) < 1.5 * min(m, d.module) { first = i }
                }
            }
            if let i = first {
                let d = distinct[i], n = Double(d.hits)
                distinct[i] = Pattern(center: Point(x: (d.center.x * n + p.x) / (n + 1), y: (d.center.y * n + p.y) / (n + 1)),
                                      module: (d.module * n + m) / (n + 1), hits: d.hits + 1)
                let from = band(d.center.y), to = band(distinct[i].center.y)
                if from != to {
                    bands[from].removeAll { $0 == i }
                    bands[to].append(i)
                }
            } else {
                bands[band(p.y)].append(distinct.count)
                distinct.append(Pattern(center: p, module: m, hits: 1))
            }
        }
        patterns = distinct.enumerated().sorted { ($0.element.hits, -$0.offset) > ($1.element.hits, -$1.offset) }.map(\.element)
        centers = patterns.map(\.center)
        modules = patterns.map(\.module)
    }

    /// The most patterns grouped into regions, the first found: each is compared with those
    /// in a band of rows around it, and a texture can imitate tens of thousands.
    static let maxGroupedPatterns = 8_000

    /// Whether some pattern crossed by at least `leastGroupedHits` scan rows also shows its
    /// rings down its column and along a diagonal (`Pattern.refined(on:width:height:slack:)`,
    /// as the locator re-measures it) on `dark`, the image this census was taken of: a
    /// finder whose rings a threshold kept. Only the first `maxGroupedPatterns` patterns are
    /// looked at, so a page of finder-like rings costs a bounded number of re-measures.
    func holdsConfirmedPattern(on dark: [Bool], width w: Int, height h: Int, slack: Double = 0.5) -> Bool {
        guard dark.count == w * h else { return false }
        return dark.withUnsafeBufferPointer { px in
            // Most often crossed first.
            patterns.prefix { $0.hits >= Self.leastGroupedHits }.prefix(Self.maxGroupedPatterns).contains {
                $0.refined(on: px, width: w, height: h, slack: slack) != nil
            }
        }
    }

    /// The smallest module, in pixels, of a group that gives a region: finer patterns are
    /// mostly noise and texture (hundreds in a JPEG photo), and a code that fine is read, if
    /// at all, by the searches over the whole image.
    static let smallestRegionModule = 1.5

    /// The fewest scan rows that must have crossed a pattern for it to join a group: a
    /// finder's 3-module core of at least `smallestRegionModule` pixels is crossed by two of
    /// the rows scanned (every other one), while noise, JPEG blocks and the texture around
    /// a dense code imitate the ratio on one row. Counting those kept `balanced` going over
    /// the whole of a photo whose one code it had read (measured with `passes --plan`).
    static let leastGroupedHits = 2

    /// A group of three patterns placed as one code's corners: the rectangle of the image
    /// where that code may be, and the module size of its patterns.
    struct Group: Equatable {
        let box: Region
        let module: Double
        /// Whether timing patterns run between the group's patterns as between a code's
        /// finders (`timingHolds(corner:_:_:)`): evidence of a code, where a group of
        /// finder-like patterns in a texture or a code's data seldom has them.
        var timed = false
    }

    /// The most regions `regions(unexplainedBy:)` gives: work stays bounded
    /// however many patterns a picture seems to hold.
    static let maxRegions = 64

    /// Rectangles around the codes that groups of three patterns no QR code in `detections`
    /// explains may be, each with the code's quiet zone; the most compact groups first, at
    /// most `maxRegions`. Three patterns are one code's corners when their module
    /// sizes are alike and two lie at about the same distance from the third (7 to 60 of
    /// its modules: a code of up to version 10) at about a right angle (`squareRatio`,
    /// `squareCosine`), or, when their timing patterns hold, up to `slantedRatio` times as
    /// far and further from square (a code seen at a slant); a pattern is in one group at
    /// most, its modules are at least `smallestRegionModule` and at least `leastGroupedHits`
    /// scan rows crossed it. Patterns in no such group, of which a textured photo holds
    /// hundreds, give no region.
    func regions(unexplainedBy detections: [Detection]) -> [Group] {
        // Top to bottom, so that the patterns near one lie in a band of rows around it.
        let open = unexplainedIndices(by: detections)
            .filter { modules[$0] >= Self.smallestRegionModule && patterns[$0].hits >= Self.leastGroupedHits }
            .prefix(Self.maxGroupedPatterns).sorted { (centers[$0].y, $0) < (centers[$1].y, $1) }
        let quads = detections.filter { $0.corners.count == 4 }.map(\.corners)
        // Every group that passes, most compact first: the patterns of one code lie closer
        // together than those of neighbouring codes on a page, and a group whose code's
        // centre falls in a code already read is made of the patterns of different codes.
        var groups: [(timed: Bool, size: Double, a: Int, b: Int, c: Int)] = []
        for (k, a) in open.enumerated() {
            // A partner's module is at most 1.5 times this one's, and it lies at most 60 of
            // the larger modules away.
            let reach = 90 * modules[a]
            var lo = k, hi = k
            while lo > 0 && centers[a].y - centers[open[lo - 1]].y <= reach { lo -= 1 }
            while hi + 1 < open.count && centers[open[hi + 1]].y - centers[a].y <= reach { hi += 1 }
            let near = open[lo...hi].filter { j in
                guard j != a else { return false }
                let m = max(modules[a], modules[j]), d = distance(a, j)
                return m <= 1.5 * min(modules[a], modules[j]) && d >= 7 * m && d <= 60 * m
            }.sorted { (distance(a, $0), $0) < (distance(a, $1), $1) }.prefix(24)
            for (n, b) in near.enumerated() {
                for c in near.dropFirst(n + 1) {
                    let ab = distance(a, b), ac = distance(a, c)
                    let cosine = ((centers[b].x - centers[a].x) * (centers[c].x - centers[a].x)
                        + (centers[b].y - centers[a].y) * (centers[c].y - centers[a].y)) / (ab * ac)
                    let ratio = max(ab, ac) / min(ab, ac)
                    guard ratio <= Self.slantedRatio, abs(cosine) < Self.slantedCosine else { continue }
                    let middle = Point(x: (centers[b].x + centers[c].x) / 2, y: (centers[b].y + centers[c].y) / 2)
                    guard !quads.contains(where: { $0.encloses(middle) }) else { continue }
                    let timed = timingHolds(corner: a, b, c)
                    // A slanted group counts only with its timing patterns to show for it.
                    guard timed || ratio <= Self.squareRatio && abs(cosine) < Self.squareCosine else { continue }
                    groups.append((timed, ab + ac, a, b, c))
                }
            }
        }
        var used = Set<Int>()
        var found: [Group] = []
        // Groups whose timing patterns show first: on a page of codes set closer than their
        // own finders, a pattern and two of a neighbour's make a more compact group than
        // the code's own three, and would take them from it.
        func rank(_ g: (timed: Bool, size: Double, a: Int, b: Int, c: Int)) -> (Int, Double, Int, Int, Int) {
            (g.timed ? 0 : 1, g.size, g.a, g.b, g.c)
        }
        for g in groups.sorted(by: { rank($0) < rank($1) })
        where found.count < Self.maxRegions && used.isDisjoint(with: [g.a, g.b, g.c]) {
            used.formUnion([g.a, g.b, g.c])
            var group = region(corner: g.a, g.b, g.c)
            group.timed = g.timed
            found.append(group)
        }
        return found
    }

    /// The most one side of a group may be longer than the other, and the most the cosine of
    /// their angle may be, when the group's timing patterns hold: a code photographed at a
    /// slant (a page tilted away from the camera) is a trapezium.
    static let slantedRatio = 1.5, slantedCosine = 0.4
    /// The same bounds for a group without timing patterns, which must be nearly square:
    /// texture makes many loose triangles.
    static let squareRatio = 1.25, squareCosine = 0.25

    /// Whether timing patterns run between the patterns `a` (the corner), `b` and `c` as
    /// between a code's finders (`timingHolds(from:to:toward:along:across:)` both ways). The module along
    /// each side is that side's length over the modules between two finders' centres (10 and
    /// 4 a version), a count either side may give: a slanted code's module differs along its
    /// two sides, and the census measures a pattern's module along the rows, longer than the
    /// code's own when the code is turned.
    func timingHolds(corner a: Int, _ b: Int, _ c: Int) -> Bool {
        let ab = distance(a, b), ac = distance(a, c)
        let module = (modules[a] + modules[b] + modules[c]) / 3
        // The census's module is measured along a row, which crosses a pattern turned by
        // `turn` (folded to within 45° of its sides) at a slant.
        let turn = atan2(centers[b].y - centers[a].y, centers[b].x - centers[a].x)
        let folded = abs(remainder(turn, .pi / 2))
        let trueModule = module * cos(folded)
        var counts: [Double] = []
        for side in [ab, ac] {
            let versions = ((side / trueModule - 10) / 4).rounded()
            guard versions >= 1, versions <= 40 else { continue }
            let count = 10 + 4 * versions
            if !counts.contains(count) { counts.append(count) }
        }
        return counts.contains { n in
            timingHolds(from: a, to: b, toward: c, along: ab / n, across: ac / n)
                && timingHolds(from: a, to: c, toward: b, along: ac / n, across: ab / n)
        }
    }

    /// Whether a timing pattern runs from pattern `a` to pattern `b` as it does between two
    /// finders of one code, modules `along` pixels along the line and `across` pixels
    /// toward `c`: on the line about three modules from their centres toward `c` (the
    /// finders' inner edge, row or column 6), from the one separator to the other, no run of
    /// dark or light pixels is longer than `timingLongestRun` modules, and there are at
    /// least `timingLeastRuns` of a run a module. The line is tried at three distances from
    /// the centres. Between patterns of neighbouring codes the line crosses their quiet
    /// zones; through data, some run is longer.
    func timingHolds(from a: Int, to b: Int, toward c: Int, along module: Double, across acrossModule: Double) -> Bool {
        let ab = distance(a, b), ac = distance(a, c)
        // The timing pattern's own modules, between the two separators.
        let span = ab - 9 * module
        guard ab > 0, ac > 0, span >= 3 * module else { return false }
        let ux = (centers[b].x - centers[a].x) / ab, uy = (centers[b].y - centers[a].y) / ab
        let vx = (centers[c].x - centers[a].x) / ac, vy = (centers[c].y - centers[a].y) / ac
        let longest = Self.timingLongestRun * module
        return dark.withUnsafeBufferPointer { px -> Bool in
            func isDark(_ along: Double, _ across: Double) -> Bool? {
                let x = Int(centers[a].x + ux * along + vx * across * acrossModule)
                let y = Int(centers[a].y + uy * along + vy * across * acrossModule)
                guard x >= 0, y >= 0, x < width, y < height else { return nil }
                return px[y * width + x]
            }
            return [3.0, 2.5, 3.5].contains { across in
                // Each finder's outer ring (dark, 1 to 3 modules from its centre) and its
                // separator (light, the 4th) on the line: a finder-like stretch of data
                // rarely has them where a finder's would be.
                var wrong = 0
                for (offset, dark) in [(1.0, true), (2.0, true), (3.0, true), (4.0, false)] {
                    for along in [offset * module, ab - offset * module] where isDark(along, across) != dark { wrong += 1 }
                }
                guard wrong <= 1 else { return false }
                var runs = 0, run = 0.0, colour: Bool?
                var along = 4.5 * module
                while along <= ab - 4.5 * module {
                    guard let isDark = isDark(along, across) else { return false }
                    if isDark == colour {
                        run += 1
                        if run > longest { return false }
                    } else {
                        colour = isDark
                        runs += 1
                        run = 1
                    }
                    along += 1
                }
                return Double(runs) >= Self.timingLeastRuns * span / module
            }
        }
    }

    /// The longest run, in modules, on a line `timingHolds(from:to:toward:along:across:)` takes for a
    /// timing pattern: one module, grown by blur and a threshold.
    static let timingLongestRun = 2.2

    /// The fewest runs a timing pattern's line must hold, as a share of its modules: a few
    /// merge where blur closes a light module.
    static let timingLeastRuns = 0.6

    private func distance(_ i: Int, _ j: Int) -> Double {
        let dx = centers[i].x - centers[j].x, dy = centers[i].y - centers[j].y
        return (dx * dx + dy * dy).squareRoot()
    }

    /// The rectangle around the code whose finder patterns are `a` (the corner), `b` and
    /// `c`, and its fourth corner, grown by 8 modules (from a pattern's centre to the
    /// code's edge and a quiet zone) and a quarter of the code's side, for a group that
    /// holds a pattern the census placed off the code's own (a blurred or missing one
    /// replaced by texture nearby).
    private func region(corner a: Int, _ b: Int, _ c: Int) -> Group {
        let fourth = Point(x: centers[b].x + centers[c].x - centers[a].x, y: centers[b].y + centers[c].y - centers[a].y)
        let points = [centers[a], centers[b], centers[c], fourth]
        let module = max(modules[a], modules[b], modules[c])
        let side = max(distance(a, b), distance(a, c))
        let xs = points.map(\.x), ys = points.map(\.y), margin = 8 * module + side / 4
        let x0 = max(0, Int(xs.min()! - margin)), y0 = max(0, Int(ys.min()! - margin))
        let x1 = min(width, Int(xs.max()! + margin) + 1), y1 = min(height, Int(ys.max()! + margin) + 1)
        return Group(box: Region(x: x0, y: y0, width: max(1, x1 - x0), height: max(1, y1 - y0)), module: module)
    }

    /// Whether `detections` leave room for another code: together they cover less than a
    /// third of the image. A census is only worth taking when they do.
    static func leavesRoom(_ detections: [Detection], width: Int, height: Int) -> Bool {
        let covered = detections.reduce(0.0) { total, d in
            guard d.corners.count == 4 else { return total }
            return total + d.corners.quadrilateralArea
        }
        return covered * 3 < Double(width * height)
    }

    /// The indices in `centers` of the patterns inside no code of `detections` (each grown
    /// a little, for corners an engine placed on the pattern's edge): a Micro QR code's one
    /// pattern, or one that a Data Matrix's texture imitates, is explained by its code.
    private func unexplainedIndices(by detections: [Detection]) -> [Int] {
        let quads = detections.filter { $0.corners.count == 4 }.map { $0.grown(by: 0.15) }
        return centers.indices.filter { i in !quads.contains { $0.encloses(centers[i]) } }
    }

    /// Whether runs (dark, light, dark, light, dark) are in the ratio 1:1:3:1:1, each
    /// within half a module.
    static func isFinderRatio(_ runs: [Int], slack: Double = 0.5) -> Bool {
        runs.count == 5 && isFinderRatio(runs[0], runs[1], runs[2], runs[3], runs[4], slack: slack)
    }

    static func isFinderRatio(_ r0: Int, _ r1: Int, _ r2: Int, _ r3: Int, _ r4: Int, slack share: Double = 0.5) -> Bool {
        let total = r0 + r1 + r2 + r3 + r4
        guard total >= 7 else { return false }
        let module = Double(total) / 7, slack = module * share + 0.5
        return abs(Double(r0) - module) < slack && abs(Double(r1) - module) < slack
            && abs(Double(r2) - 3 * module) < 3 * slack && abs(Double(r3) - module) < slack
            && abs(Double(r4) - module) < slack
    }

    /// The y of the pattern's centre when the column through (x, y) shows the same 1:1:3:1:1
    /// pattern around y, else nil.
    static func verticalCenter(_ px: UnsafeBufferPointer<Bool>, _ w: Int, _ h: Int, x: Int, y: Int,
                               module: Double, slack: Double = 0.5) -> Double? {
        guard x >= 0, x < w, px[y * w + x] else { return nil }
        let limit = Int(module * 5) + 2
        func run(from start: Int, step: Int, dark: Bool) -> Int {
            var n = 0, yy = start
            while yy >= 0, yy < h, px[yy * w + x] == dark, n <= limit { n += 1; yy += step }
            return n
        }
        let upCenter = run(from: y, step: -1, dark: true)
        let downCenter = run(from: y + 1, step: 1, dark: true)
        // `top` is the centre run's first row, `bottom` the row just past it.
        let top = y - upCenter + 1, bottom = y + 1 + downCenter
        let upLight = run(from: top - 1, step: -1, dark: false)
        let upDark = run(from: top - 1 - upLight, step: -1, dark: true)
        let downLight = run(from: bottom, step: 1, dark: false)
        let downDark = run(from: bottom + downLight, step: 1, dark: true)
        guard upDark > 0, upLight > 0, upCenter + downCenter > 0, downLight > 0, downDark > 0,
              isFinderRatio(upDark, upLight, upCenter + downCenter, downLight, downDark, slack: slack) else { return nil }
        let total = Double(upDark + upLight + upCenter + downCenter + downLight + downDark)
        guard abs(total - 7 * module) < 3.5 * module else { return nil }
        return Double(top + bottom) / 2
    }

}

extension Detection {
    /// The corners moved away from the centre by `fraction` of their distance to it.
    func grown(by fraction: Double) -> [Point] {
        let c = center
        return corners.map { Point(x: c.x + ($0.x - c.x) * (1 + fraction), y: c.y + ($0.y - c.y) * (1 + fraction)) }
    }
}
