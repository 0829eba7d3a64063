import FoundationEssentials
import Glibc

/// Our own Data Matrix reader: finds each symbol's solid L and dotted sides at any angle,
/// counts its modules along the dotted (timing) sides, samples every module through a
/// mapping refitted to the timing modules it found, and decodes it with `DataMatrixSymbol`;
/// so that distorted symbols and several in one image, which libZXing 1.4 misses, are read.
///
/// A symbol's dark modules, the L among them, form one region of touching dark pixels; each
/// region of a plausible size and fill is a candidate. The four-sided figure of largest area
/// within its convex hull gives the symbol's rough corners; two adjacent sides with dark
/// pixels all along them are the L. Each side is then refitted as a straight line through
/// the outermost dark pixels near it, so that the dotted sides' light modules, a corner cut
/// by the light top-right module and blur do not pull it in.
struct DataMatrixReader {
    let image: GrayImage
    /// The image binarized as `Binarizer.binarized(_:)` makes it: true is dark.
    let dark: [Bool]
    /// The runs of `dark` along each row.
    let runs: RowRuns

    /// At most this many regions are tried in one image, the largest first, per colour.
    static let maxCandidates = 40

    /// Whether dark means light: symbols printed light on dark.
    var inverted = false

    init(image: GrayImage, dark: [Bool]? = nil, runs: RowRuns? = nil) {
        self.image = image
        let dark = dark ?? Binarizer.binarized(image)
        self.dark = dark
        self.runs = runs ?? RowRuns(dark: dark, width: image.width, height: image.height)
    }

    /// Every Data Matrix symbol read, corners in the image's pixels, each once.
    func read() -> [(candidate: Candidate, symbol: DataMatrixSymbol)] {
        guard image.width >= 8, image.height >= 8, dark.count == image.width * image.height,
              runs.width == image.width, runs.height == image.height else { return [] }
        var out: [(candidate: Candidate, symbol: DataMatrixSymbol)] = []
        var turned = self
        turned.inverted = true
        for reader in [self, turned] {
            for region in reader.regions() {
                // A region inside a symbol already read (a data island) is part of it.
                let c = region.centre
                if out.contains(where: { Self.contains($0.candidate.corners, c) }) { continue }
                guard let read = reader.read(region) else { continue }
                let centre = Self.centre(read.candidate.corners)
                if out.contains(where: { Self.contains($0.candidate.corners, centre) }) { continue }
                out.append(read)
            }
        }
        return out
    }

    // MARK: - Regions

    /// A region of touching dark pixels: the corners of its pixels on each row's ends.
    struct Component {
        var hull: [Point]
        var pixels: Int
        var centre: Point
        /// Half the median width of its runs: about a module, for a symbol's mix of runs.
        var module: Double
    }

    func isDark(_ x: Int, _ y: Int) -> Bool {
        guard x >= 0, y >= 0, x < image.width, y < image.height else { return false }
        return dark[y * image.width + x] != inverted
    }

    /// Whether the pixel holding the point (x, y) is dark: `isDark` of the coordinates
    /// rounded down.
    func isDark(at x: Double, _ y: Double) -> Bool {
        isDark(Self.floored(x), Self.floored(y))
    }

    /// `Int(v.rounded(.down))`, trapping where it does, without its call to the C library's
    /// `floor` (x86-64 without SSE4.1 has no instruction for it), which the edge and timing
    /// scans made for every point they looked at. Truncation moves a negative fraction up:
    /// one less then. An integer too large for a Double's fraction is exact either way.
    @inline(__always)
    static func floored(_ v: Double) -> Int {
        let t = Int(v)
        return Double(t) > v ? t - 1 : t
    }

    /// One run of the colour looked for, as `regions()` joins them: pixels `start ..< end` of
    /// row `row`, and its parent in the union–find forest (its root once all are joined).
    /// The four fields lie together, as the joining reads them.
    private struct Run {
        var start, end, row, parent: Int32
    }

    /// What `regions()` gathers of a region at its root run: its bounding box, its pixels,
    /// and its place among the regions wanted (-1 for none).
    private struct Box {
        var minX, maxX, minY, maxY, slot: Int32
        var pixels: Int
    }

    /// The regions of dark pixels (8-connected) that could be a symbol: at least 8 pixels
    /// each way, a fill of their hull a symbol's modules could give, at most `maxCandidates`.
    func regions() -> [Component] {
        let w = image.width, h = image.height
        // This colour's runs, row by row (every other run of each row), joined by union–find.
        let capacity = runs.bounds.count / 2 + h
        let run = UnsafeMutableBufferPointer<Run>.allocate(capacity: capacity)
        defer { run.deallocate() }
        var rowFirst = [Int](repeating: 0, count: h + 1)
        var n = 0
        runs.bounds.withUnsafeBufferPointer { bounds in
            for y in 0..<h {
                rowFirst[y] = n
                let a = runs.first[y], b = runs.first[y + 1] - 1
                // Run i of the row spans bounds[i] ..< bounds[i + 1]; its colour alternates.
                var i = a + (runs.firstDark[y] != inverted ? 0 : 1)
                while i < b {
                    run[n] = Run(start: bounds[i], end: bounds[i + 1], row: Int32(y), parent: Int32(n))
                    n += 1
                    i += 2
                }
            }
        }
        rowFirst[h] = n
        guard n > 0 else { return [] }
        // A union points the larger root at the smaller, and a compressed path points a run at
        // its root: every run's parent comes before it (or is itself), and each region's root
        // is its first run, however the unions went.
        func find(_ i: Int) -> Int {
            var r = i
            while Int(run[r].parent) != r { r = Int(run[r].parent) }
            var j = i
            while Int(run[j].parent) != r { let next = Int(run[j].parent); run[j].parent = Int32(r); j = next }
            return r
        }
        for y in 1..<max(1, h) {
            var a = rowFirst[y - 1], b = rowFirst[y]
            let aEnd = rowFirst[y], bEnd = rowFirst[y + 1]
            guard a < aEnd else { continue }
            // The roots of the current runs a and b. Only the unions made here change them, and
            // each is between these two runs, so both are kept up to date without a search; a
            // run of this row is still its own root when it becomes the current one.
            var ra = find(a), rb = b
            while a < aEnd && b < bEnd {
                // 8-connected, and across a gap of one pixel, which blur or a thin light line
                // between two dark modules may open in a symbol.
                if run[a].start <= run[b].end + 1 && run[b].start <= run[a].end + 1 && ra != rb {
                    let low = min(ra, rb)
                    run[max(ra, rb)].parent = Int32(low)
                    ra = low
                    rb = low
                }
                if run[a].end < run[b].end {
                    a += 1
                    if a < aEnd { ra = find(a) }
                } else {
                    b += 1
                    rb = b
                }
            }
        }
        // Per root: bounding box and pixel count. Each run's parent becomes its root: the
        // parent comes first, so its own parent is its root already. Only a root's box is
        // ever read, so each starts from its root run.
        let box = UnsafeMutableBufferPointer<Box>.allocate(capacity: n)
        defer { box.deallocate() }
        for i in 0..<n {
            let r = Int(run[Int(run[i].parent)].parent), x0 = run[i].start, x1 = run[i].end, y = run[i].row
            run[i].parent = Int32(r)
            if r == i {
                box[r] = Box(minX: x0, maxX: x1, minY: y, maxY: y + 1, slot: -1, pixels: Int(x1 - x0))
            } else {
                box[r].minX = min(box[r].minX, x0); box[r].maxX = max(box[r].maxX, x1)
                box[r].minY = min(box[r].minY, y); box[r].maxY = max(box[r].maxY, y + 1)
                box[r].pixels += Int(x1 - x0)
            }
        }
        var roots: [Int] = []
        for r in 0..<n where Int(run[r].parent) == r {
            let b = box[r]
            let bw = Int(b.maxX - b.minX), bh = Int(b.maxY - b.minY)
            guard bw >= 8, bh >= 8, b.pixels >= 32, bw < 6 * bh + 8, bh < 6 * bw + 8,
                  bw < w || bh < h else { continue }
            let fill = Double(b.pixels) / Double(bw * bh)
            guard fill > 0.15, fill < 0.95 else { continue }
            roots.append(r)
        }
        roots.sort { box[$0].pixels > box[$1].pixels }
        roots = Array(roots.prefix(Self.maxCandidates))
        // Each wanted region's leftmost start and rightmost end on each of its rows, and a
        // histogram of its run widths, one after another in three arrays: region k's rows
        // begin at `rowsAt[k]`, its histogram at `widthsAt[k]`.
        var rowsAt = [0], widthsAt = [0]
        for (k, r) in roots.enumerated() {
            box[r].slot = Int32(k)
            rowsAt.append(rowsAt[k] + Int(box[r].maxY - box[r].minY))
            widthsAt.append(widthsAt[k] + Int(box[r].maxX - box[r].minX) + 1)
        }
        var left = [Int32](repeating: Int32.max, count: rowsAt[roots.count])
        var right = [Int32](repeating: -1, count: rowsAt[roots.count])
        var widths = [Int32](repeating: 0, count: widthsAt[roots.count])
        for i in 0..<n {
            let r = Int(run[i].parent), k = Int(box[r].slot)
            guard k >= 0 else { continue }
            let row = rowsAt[k] + Int(run[i].row - box[r].minY)
            left[row] = min(left[row], run[i].start)
            right[row] = max(right[row], run[i].end)
            widths[widthsAt[k] + Int(run[i].end - run[i].start)] += 1
        }
        return roots.enumerated().compactMap { k, r in
            let rows = rowsAt[k]..<rowsAt[k + 1]
            let hull = Self.convexHull(rowOrdered: Self.rowEnds(left: Array(left[rows]), right: Array(right[rows]),
                                                                top: Int(box[r].minY)))
            guard hull.count >= 4 else { return nil }
            let area = Self.area(hull), pixels = box[r].pixels
            guard area > 0, Double(pixels) / area > 0.25, Double(pixels) / area < 0.9 else { return nil }
            return Component(hull: hull, pixels: pixels, centre: Self.centre(hull),
                          module: max(1, Double(Self.median(histogram: Array(widths[widthsAt[k]..<widthsAt[k + 1]]))) / 2))
        }
    }

    /// The corners of a region's pixels that its convex hull can pass through: on each line
    /// between two rows, the leftmost and the rightmost corner of the rows' runs above and
    /// below it (`left` and `right` per row from `top`, `Int32.max` and -1 on rows without one).
    static func rowEnds(left: [Int32], right: [Int32], top: Int) -> [Point] {
        var points: [Point] = []
        points.reserveCapacity(2 * left.count + 2)
        for line in 0...left.count {
            var l = Int32.max, r: Int32 = -1
            if line > 0 { l = left[line - 1]; r = right[line - 1] }
            if line < left.count { l = min(l, left[line]); r = max(r, right[line]) }
            guard r >= 0 else { continue }
            let y = Double(top + line)
            points.append(Point(x: Double(l), y: y))
            if r != l { points.append(Point(x: Double(r), y: y)) }
        }
        return points
    }

    /// The middle value (the upper of two) of the widths counted in `histogram`.
    static func median(histogram: [Int32]) -> Int {
        let total = histogram.reduce(0) { $0 + Int($1) }
        var seen = 0
        for (width, n) in histogram.enumerated() {
            seen += Int(n)
            if seen > total / 2 { return width }
        }
        return 2
    }

    /// The convex hull, counterclockwise in the image's coordinates seen with y up (monotone chain).
    static func convexHull(_ points: [Point]) -> [Point] {
        let p = points.sorted { ($0.x, $0.y) < ($1.x, $1.y) }
        guard p.count >= 3 else { return p }
        return monotoneChain(p) { o, a, b in (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x) }
    }

    /// `convexHull(_:)` of points already in order of rows (y, then x), as `rowEnds` gives
    /// them, without sorting: the chain runs down the rows instead of across the columns,
    /// which turns it the other way, so it is reversed and started at the same vertex.
    static func convexHull(rowOrdered p: [Point]) -> [Point] {
        guard p.count >= 3 else { return convexHull(p) }
        // The cross product with x and y swapped.
        let hull = Array(monotoneChain(p) { o, a, b in (a.y - o.y) * (b.x - o.x) - (a.x - o.x) * (b.y - o.y) }.reversed())
        guard let first = hull.indices.min(by: { (hull[$0].x, hull[$0].y) < (hull[$1].x, hull[$1].y) }) else { return hull }
        return Array(hull[first...] + hull[..<first])
    }

    /// The lower then the upper chain of sorted points, turning the way `cross` is positive.
    private static func monotoneChain(_ p: [Point], cross: (Point, Point, Point) -> Double) -> [Point] {
        var lower: [Point] = [], upper: [Point] = []
        for q in p {
            while lower.count >= 2 && cross(lower[lower.count - 2], lower[lower.count - 1], q) <= 0 { lower.removeLast() }
            lower.append(q)
        }
        for q in p.reversed() {
            while upper.count >= 2 && cross(upper[upper.count - 2], upper[upper.count - 1], q) <= 0 { upper.removeLast() }
            upper.append(q)
        }
        return Array(lower.dropLast() + upper.dropLast())
    }

    static func area(_ polygon: [Point]) -> Double {
        var sum = 0.0
        for i in polygon.indices {
            let a = polygon[i], b = polygon[(i + 1) % polygon.count]
            sum += a.x * b.y - b.x * a.y
        }
        return abs(sum) / 2
    }

    static func centre(_ points: [Point]) -> Point {
        let n = Double(max(1, points.count))
        return Point(x: points.reduce(0) { $0 + $1.x } / n, y: points.reduce(0) { $0 + $1.y } / n)
    }

    /// Whether `p` lies inside the convex quadrilateral `q`.
    static func contains(_ q: [Point], _ p: Point) -> Bool {
        guard q.count == 4 else { return false }
        var sign = 0.0
        for i in 0..<4 {
            let a = q[i], b = q[(i + 1) % 4]
            let c = (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x)
            if c * sign < 0 { return false }
            if c != 0 { sign = c }
        }
        return true
    }

    /// The four hull vertices that span the largest area, in hull order: for each first
    /// vertex, the third is tried at every later one, and the second and fourth, which only
    /// move forward as the third does, are the farthest from the diagonal on each side.
    /// The hull is walked twice over, so that indices past its end need no remainder, and
    /// each triangle's area is worked out once: the one a step has just measured is the one
    /// the next step compares with.
    static func largestQuadrilateral(_ hull: [Point]) -> [Point]? {
        let n = hull.count
        guard n >= 4 else { return nil }
        func triangle(_ a: Point, _ b: Point, _ c: Point) -> Double {
            abs((b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x)) / 2
        }
        var best: (area: Double, i: Int, j: Int, k: Int, l: Int) = (0, 0, 1, 2, 3)
        (hull + hull).withUnsafeBufferPointer { p in
            for i in 0..<n {
                let a = p[i]
                var j = i + 1, l = i + 3
                for k in (i + 2)..<(i + n - 1) {
                    let c = p[k]
                    if j >= k { j = k - 1 }
                    var before = triangle(a, p[j], c)
                    while j + 1 < k {
                        let next = triangle(a, p[j + 1], c)
                        guard next >= before else { break }
                        j += 1
                        before = next
                    }
                    if l <= k { l = k + 1 }
                    var after = triangle(a, c, p[l])
                    while l + 1 < i + n {
                        let next = triangle(a, c, p[l + 1])
                        guard next >= after else { break }
                        l += 1
                        after = next
                    }
                    let area = before + after
                    if area > best.area { best = (area, i, j % n, k % n, l % n) }
                }
            }
        }
        guard best.area > 0 else { return nil }
        return [hull[best.i], hull[best.j], hull[best.k], hull[best.l]]
    }
}
