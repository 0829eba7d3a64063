import Foundation

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
    /// The image binarized as `FinderCensus.binarized(_:)` makes it: true is dark.
    let dark: [Bool]
    /// The runs of `dark` along each row.
    let runs: RowRuns

    /// At most this many regions are tried in one image, the largest first, per colour.
    static let maxCandidates = 40

    /// Whether dark means light: symbols printed light on dark.
    var inverted = false

    init(image: GrayImage, dark: [Bool]? = nil, runs: RowRuns? = nil) {
        self.image = image
        let dark = dark ?? FinderCensus.binarized(image)
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
    struct Region {
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

    /// The regions of dark pixels (8-connected) that could be a symbol: at least 8 pixels
    /// each way, a fill of their hull a symbol's modules could give, at most `maxCandidates`.
    func regions() -> [Region] {
        let w = image.width, h = image.height
        // This colour's runs, row by row (every other run of each row), joined by union–find.
        let capacity = runs.bounds.count / 2 + h
        let runStart = UnsafeMutableBufferPointer<Int32>.allocate(capacity: capacity)
        let runEnd = UnsafeMutableBufferPointer<Int32>.allocate(capacity: capacity)
        let runRow = UnsafeMutableBufferPointer<Int32>.allocate(capacity: capacity)
        let parent = UnsafeMutableBufferPointer<Int32>.allocate(capacity: capacity)
        defer { [runStart, runEnd, runRow, parent].forEach { $0.deallocate() } }
        var rowFirst = [Int](repeating: 0, count: h + 1)
        var n = 0
        runs.bounds.withUnsafeBufferPointer { bounds in
            for y in 0..<h {
                rowFirst[y] = n
                let a = runs.first[y], b = runs.first[y + 1] - 1
                // Run i of the row spans bounds[i] ..< bounds[i + 1]; its colour alternates.
                var i = a + (runs.firstDark[y] != inverted ? 0 : 1)
                while i < b {
                    runStart[n] = bounds[i]; runEnd[n] = bounds[i + 1]; runRow[n] = Int32(y)
                    parent[n] = Int32(n)
                    n += 1
                    i += 2
                }
            }
        }
        rowFirst[h] = n
        guard n > 0 else { return [] }
        func find(_ i: Int) -> Int {
            var r = i
            while Int(parent[r]) != r { r = Int(parent[r]) }
            var j = i
            while Int(parent[j]) != r { let next = Int(parent[j]); parent[j] = Int32(r); j = next }
            return r
        }
        for y in 1..<max(1, h) {
            var a = rowFirst[y - 1], b = rowFirst[y]
            let aEnd = rowFirst[y], bEnd = rowFirst[y + 1]
            while a < aEnd && b < bEnd {
                // 8-connected, and across a gap of one pixel, which blur or a thin light line
                // between two dark modules may open in a symbol.
                if runStart[a] <= runEnd[b] + 1 && runStart[b] <= runEnd[a] + 1 {
                    let ra = find(a), rb = find(b)
                    if ra != rb { parent[max(ra, rb)] = Int32(min(ra, rb)) }
                }
                if runEnd[a] < runEnd[b] { a += 1 } else { b += 1 }
            }
        }
        // Per root: bounding box and pixel count.
        func filled(_ value: Int32) -> UnsafeMutableBufferPointer<Int32> {
            let buffer = UnsafeMutableBufferPointer<Int32>.allocate(capacity: n)
            buffer.initialize(repeating: value)
            return buffer
        }
        let minX = filled(Int32.max), maxX = filled(-1), minY = filled(Int32.max), maxY = filled(-1)
        let root = filled(0), slot = filled(-1)
        let count = UnsafeMutableBufferPointer<Int>.allocate(capacity: n)
        count.initialize(repeating: 0)
        defer {
            [minX, maxX, minY, maxY, root, slot].forEach { $0.deallocate() }
            count.deallocate()
        }
        for i in 0..<n {
            let r = find(i)
            root[i] = Int32(r)
            minX[r] = min(minX[r], runStart[i]); maxX[r] = max(maxX[r], runEnd[i])
            minY[r] = min(minY[r], runRow[i]); maxY[r] = max(maxY[r], runRow[i] + 1)
            count[r] += Int(runEnd[i] - runStart[i])
        }
        var roots: [Int] = []
        for r in 0..<n where Int(root[r]) == r {
            let bw = Int(maxX[r] - minX[r]), bh = Int(maxY[r] - minY[r])
            guard bw >= 8, bh >= 8, count[r] >= 32, bw < 6 * bh + 8, bh < 6 * bw + 8,
                  bw < w || bh < h else { continue }
            let fill = Double(count[r]) / Double(bw * bh)
            guard fill > 0.15, fill < 0.95 else { continue }
            roots.append(r)
        }
        roots.sort { count[$0] > count[$1] }
        roots = Array(roots.prefix(Self.maxCandidates))
        // Each wanted region's leftmost start and rightmost end on each of its rows, and a
        // histogram of its run widths.
        var left: [[Int32]] = [], right: [[Int32]] = [], widths: [[Int32]] = []
        for (k, r) in roots.enumerated() {
            slot[r] = Int32(k)
            let bh = Int(maxY[r] - minY[r])
            left.append([Int32](repeating: Int32.max, count: bh))
            right.append([Int32](repeating: -1, count: bh))
            widths.append([Int32](repeating: 0, count: Int(maxX[r] - minX[r]) + 1))
        }
        for i in 0..<n {
            let k = Int(slot[Int(root[i])])
            guard k >= 0 else { continue }
            let row = Int(runRow[i] - minY[Int(root[i])])
            left[k][row] = min(left[k][row], runStart[i])
            right[k][row] = max(right[k][row], runEnd[i])
            widths[k][Int(runEnd[i] - runStart[i])] += 1
        }
        return roots.enumerated().compactMap { k, r in
            let hull = Self.convexHull(rowOrdered: Self.rowEnds(left: left[k], right: right[k], top: Int(minY[r])))
            guard hull.count >= 4 else { return nil }
            let area = Self.area(hull)
            guard area > 0, Double(count[r]) / area > 0.25, Double(count[r]) / area < 0.9 else { return nil }
            return Region(hull: hull, pixels: count[r], centre: Self.centre(hull),
                          module: max(1, Double(Self.median(histogram: widths[k])) / 2))
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
    static func largestQuadrilateral(_ hull: [Point]) -> [Point]? {
        let n = hull.count
        guard n >= 4 else { return nil }
        func triangle(_ a: Point, _ b: Point, _ c: Point) -> Double {
            abs((b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x)) / 2
        }
        var best: (area: Double, i: Int, j: Int, k: Int, l: Int) = (0, 0, 1, 2, 3)
        for i in 0..<n {
            var j = i + 1, l = i + 3
            for k in (i + 2)..<(i + n - 1) {
                if j >= k { j = k - 1 }
                while j + 1 < k && triangle(hull[i], hull[(j + 1) % n], hull[k % n]) >= triangle(hull[i], hull[j % n], hull[k % n]) { j += 1 }
                if l <= k { l = k + 1 }
                while l + 1 < i + n && triangle(hull[i], hull[k % n], hull[(l + 1) % n]) >= triangle(hull[i], hull[k % n], hull[l % n]) { l += 1 }
                let a = triangle(hull[i], hull[j % n], hull[k % n]) + triangle(hull[i], hull[k % n], hull[l % n])
                if a > best.area { best = (a, i, j % n, k % n, l % n) }
            }
        }
        guard best.area > 0 else { return nil }
        return [hull[best.i], hull[best.j], hull[best.k], hull[best.l]]
    }
}
