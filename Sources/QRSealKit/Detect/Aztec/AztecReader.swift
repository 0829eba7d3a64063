import FoundationEssentials
import Glibc

/// Our own Aztec reader: finds bull's-eyes, maps each symbol through a homography fitted
/// to its rings, and decodes it with `AztecSymbol`, so that Aztec Runes and thick- or
/// thin-moduled symbols, which libZXing 1.4 misses, are read too.
///
/// A bull's-eye is first seen on a row as seven runs of about one module each (light, dark,
/// light, the dark centre, light, dark, light) between two dark runs, then confirmed down
/// its column; its rings are then followed as whole regions of the binarized image, so that
/// their corners, not a fixed module size, give the symbol's geometry. Each ring's outer
/// corners lie a module apart; the middle between a dark ring's and the next light ring's
/// holds whatever the printing did to the thickness of dark modules.
struct AztecReader {
    let image: GrayImage
    /// The image binarized as `Binarizer.binarized(_:)` makes it: true is dark.
    let dark: [Bool]
    /// The runs of `dark` along each row.
    let runs: RowRuns

    /// At most this many bull's-eyes are followed in one image.
    static let maxBullseyes = 24

    /// From this smaller side on (a camera frame, a photo), only every other row is searched.
    static let everyOtherRowFrom = 600

    /// Whether modules are read light for dark: a symbol printed light on dark.
    private(set) var inverted = false

    init(image: GrayImage, dark: [Bool]? = nil, runs: RowRuns? = nil) {
        self.image = image
        let dark = dark ?? Binarizer.binarized(image)
        self.dark = dark
        self.runs = runs ?? RowRuns(dark: dark, width: image.width, height: image.height)
    }

    /// Every Aztec symbol read, corners in the image's pixels.
    func read() -> [(candidate: Candidate, symbol: AztecSymbol)] {
        var out: [(Candidate, AztecSymbol)] = []
        var turned = self
        turned.inverted = true
        for centre in bullseyes() {
            if let read = centre.light ? turned.read(at: centre) : read(at: centre) { out.append(read) }
        }
        return out
    }

    // MARK: - Rings and geometry

    /// The four outer corners of the ring whose pixels hold (`seedX`, `cy`), clockwise in
    /// the image; nil when that region is not a closed ring about the centre within
    /// `radius` pixels of it.
    func ringCorners(seedX: Int, centre: Centre, radius: Double) -> [Point]? {
        let w = image.width, h = image.height
        let cy = Int(centre.y)
        guard seedX >= 0, seedX < w else { return nil }
        let r = Int(radius.rounded(.up)) + 2
        let x0 = max(0, Int(centre.x) - r), x1 = min(w - 1, Int(centre.x) + r)
        let y0 = max(0, cy - r), y1 = min(h - 1, cy + r)
        let ww = x1 - x0 + 1, wh = y1 - y0 + 1
        guard seedX >= x0, seedX <= x1 else { return nil }
        let colour = dark[cy * w + seedX]
        var seen = [Bool](repeating: false, count: ww * wh)
        var stack = [(seedX, cy)]
        seen[(cy - y0) * ww + seedX - x0] = true
        var pixels: [(Int, Int)] = []
        let budget = Int(radius * radius * 8) + 64
        while let (px, py) = stack.popLast() {
            pixels.append((px, py))
            guard pixels.count <= budget else { return nil }
            for side in 0..<4 {
                let (nx, ny) = Self.neighbour(side, of: px, py)
                // Leaving the window around the centre: this region is no ring of the bull's-eye.
                guard nx >= x0, nx <= x1, ny >= y0, ny <= y1 else { return nil }
                let i = (ny - y0) * ww + nx - x0
                if !seen[i] && dark[ny * w + nx] == colour {
                    seen[i] = true
                    stack.append((nx, ny))
                }
            }
        }
        // A ring goes round the centre: pixels on all four sides of it.
        let cx = centre.x, cyd = centre.y
        var far: [(d: Double, x: Double, y: Double)] = []
        var best = (d: -1.0, angle: 0.0)
        for (px, py) in pixels {
            let dx = Double(px) + 0.5 - cx, dy = Double(py) + 0.5 - cyd
            let d = dx * dx + dy * dy
            if d > best.d { best = (d, atan2(dy, dx)) }
        }
        far = Array(repeating: (-1, 0, 0), count: 4)
        let quarter = Double.pi / 2
        for (px, py) in pixels {
            let dx = Double(px) + 0.5 - cx, dy = Double(py) + 0.5 - cyd
            var relative = atan2(dy, dx) - best.angle
            while relative < -quarter / 2 { relative += 2 * Double.pi }
            let sector = Int((relative + quarter / 2) / quarter) % 4
            let d = dx * dx + dy * dy
            if d > far[sector].d { far[sector] = (d, Double(px) + 0.5, Double(py) + 0.5) }
        }
        guard far.allSatisfy({ $0.d > 0 }) else { return nil }
        let ds = far.map { $0.d.squareRoot() }
        guard ds.max()! < 2.2 * ds.min()! else { return nil }
        // Each corner pixel's centre lies half a pixel inside the ring's outer corner.
        let rough = far.map { c in
            Point(x: c.x + (c.x > cx ? 0.5 : -0.5), y: c.y + (c.y > cyd ? 0.5 : -0.5))
        }
        // Blur and ink round a ring's corners; its sides stay straight, so lines fitted to
        // the middle of each side's outer edge meet where the corner was.
        var sides = [[Point]](repeating: [], count: 4)
        for (px, py) in pixels {
            let fx = Double(px) + 0.5, fy = Double(py) + 0.5
            let d = (fx - cx) * (fx - cx) + (fy - cyd) * (fy - cyd)
            // On the outer edge: a neighbour outside the ring, farther from the centre.
            let outward = (0..<4).contains { side in
                let (nx, ny) = Self.neighbour(side, of: px, py)
                let i = (ny - y0) * ww + nx - x0
                let nd = (Double(nx) + 0.5 - cx) * (Double(nx) + 0.5 - cx) + (Double(ny) + 0.5 - cyd) * (Double(ny) + 0.5 - cyd)
                return !seen[i] && nd > d
            }
            guard outward else { continue }
            for k in 0..<4 {
                let a = rough[k], b = rough[(k + 1) % 4]
                let ex = b.x - a.x, ey = b.y - a.y
                let t = ((fx - a.x) * ex + (fy - a.y) * ey) / max(1e-9, ex * ex + ey * ey)
                let across = abs((fx - a.x) * ey - (fy - a.y) * ex) / max(1e-9, (ex * ex + ey * ey).squareRoot())
                // The rough corners lie on the outer edge: the inner edge is a module away.
                if t > 0.2 && t < 0.8 && across < 0.6 * centre.module + 1 {
                    sides[k].append(Point(x: fx, y: fy))
                }
            }
        }
        let lines = sides.map { points -> (n: Point, c: Double)? in
            // Fitted twice: the second time without the points more than a pixel and a half off.
            guard let first = Self.fittedLine(points, awayFrom: Point(x: cx, y: cyd)) else { return nil }
            let near = points.filter { abs(first.n.x * $0.x + first.n.y * $0.y - (first.c - 0.5)) < 1.5 }
            return Self.fittedLine(near, awayFrom: Point(x: cx, y: cyd))
        }
        var corners = rough
        for k in 0..<4 {
            guard let l1 = lines[(k + 3) % 4], let l2 = lines[k],
                  let p = Self.intersection(l1, l2),
                  (p.x - rough[k].x) * (p.x - rough[k].x) + (p.y - rough[k].y) * (p.y - rough[k].y) < radius * radius / 16
            else { continue }
            corners[k] = p
        }
        return corners
    }

    /// Neighbour `side` (0 to 3) of pixel (x, y): right, left, below, above. `ringCorners`
    /// takes them in this order without building an array of them for every pixel.
    @inline(__always)
    private static func neighbour(_ side: Int, of x: Int, _ y: Int) -> (Int, Int) {
        switch side {
        case 0: (x + 1, y)
        case 1: (x - 1, y)
        case 2: (x, y + 1)
        default: (x, y - 1)
        }
    }

    /// A line n·p = c through edge pixels' centres, moved half a pixel away from `centre`
    /// onto the edge itself; nil for fewer than three points.
    static func fittedLine(_ points: [Point], awayFrom centre: Point) -> (n: Point, c: Double)? {
        guard points.count >= 3 else { return nil }
        let count = Double(points.count)
        let mx = points.reduce(0) { $0 + $1.x } / count, my = points.reduce(0) { $0 + $1.y } / count
        var sxx = 0.0, sxy = 0.0, syy = 0.0
        for p in points {
            sxx += (p.x - mx) * (p.x - mx)
            sxy += (p.x - mx) * (p.y - my)
            syy += (p.y - my) * (p.y - my)
        }
        // The normal is the direction of least spread.
        let angle = 0.5 * atan2(2 * sxy, sxx - syy) + Double.pi / 2
        var n = Point(x: cos(angle), y: sin(angle))
        var c = n.x * mx + n.y * my
        if n.x * centre.x + n.y * centre.y > c {
            n = Point(x: -n.x, y: -n.y)
            c = -c
        }
        return (n, c + 0.5)
    }

    private static func intersection(_ a: (n: Point, c: Double), _ b: (n: Point, c: Double)) -> Point? {
        let det = a.n.x * b.n.y - a.n.y * b.n.x
        guard abs(det) > 0.3 else { return nil }
        return Point(x: (a.c * b.n.y - b.c * a.n.y) / det, y: (a.n.x * b.c - b.n.x * a.c) / det)
    }

    /// The corners, in the image, of the square at ±`a` modules about the centre: the
    /// middles of ring `dark`'s and ring `dark + 1`'s outer corners.
    private func square(centre: Centre, darkRing k: Int) -> (a: Double, corners: [Point])? {
        guard centre.left.count > k + 1 else { return nil }
        let seed = { (ring: Int) -> Int in (centre.left[ring - 1] + centre.left[ring] + 1) / 2 }
        let radius = centre.module * Double(k + 2) * 1.8 + 2
        guard let inner = ringCorners(seedX: seed(k), centre: centre, radius: radius),
              let outer = ringCorners(seedX: seed(k + 1), centre: centre, radius: radius) else { return nil }
        // Pair each inner corner with the outer one nearest in direction.
        func angle(_ p: Point) -> Double { atan2(p.y - centre.y, p.x - centre.x) }
        var corners: [Point] = []
        for p in inner {
            let a = angle(p)
            let q = outer.min { abs(angleDifference(angle($0), a)) < abs(angleDifference(angle($1), a)) }!
            corners.append(Point(x: (p.x + q.x) / 2, y: (p.y + q.y) / 2))
        }
        corners.sort { angle($0) < angle($1) }
        return (Double(k) + 1, corners)
    }

    private func angleDifference(_ a: Double, _ b: Double) -> Double {
        var d = a - b
        while d > Double.pi { d -= 2 * Double.pi }
        while d < -Double.pi { d += 2 * Double.pi }
        return d
    }

    /// Placement `k` of the eight ways a symbol may lie (four turns, each also mirrored):
    /// symbol coordinates (relative to the centre) to the image-aligned ones of the grid.
    static func place(_ k: Int, _ x: Int, _ y: Int) -> (Int, Int) {
        let (u, v) = k & 4 == 0 ? (x, y) : (-x, y)
        switch k & 3 {
        case 0: return (u, v)
        case 1: return (-v, u)
        case 2: return (-u, -v)
        default: return (v, -u)
        }
    }

    /// The symbol around one bull's-eye, tried as full-range (when its rings say it may be)
    /// and compact, in each placement its orientation marks allow.
    /// Whether module (x, y) of the symbol (relative to its centre) is dark, the symbol lying
    /// in placement `k` and `grid` mapping image-aligned module coordinates to pixels.
    func isDark(_ x: Int, _ y: Int, _ k: Int, _ grid: Homography) -> Bool {
        let (u, v) = Self.place(k, x, y)
        let p = grid.apply(Double(u), Double(v))
        guard p.x.isFinite, p.y.isFinite, p.x >= 0, p.y >= 0, p.x < Double(image.width), p.y < Double(image.height)
        else { return false }
        return dark[Int(p.y) * image.width + Int(p.x)] != inverted
    }

    private func read(at centre: Centre) -> (Candidate, AztecSymbol)? {
        // Rings 2 and 3 are whole in every symbol; 4 and 5 only in a full-range one, where
        // they give the geometry over a larger square.
        let small = square(centre: centre, darkRing: 2)
        let large = square(centre: centre, darkRing: 4)
        for (compact, geometry) in [(false, large ?? small), (true, small)] {
            guard let (a, corners) = geometry else { continue }
            let square = [Point(x: -a, y: -a), Point(x: a, y: -a), Point(x: a, y: a), Point(x: -a, y: a)]
            guard let grid = Homography(from: square, to: corners) else { continue }
            let scored = (0..<8).map { k in
                (k, AztecSymbol.orientationScore(compact: compact) { x, y in isDark(x, y, k, grid) })
            }
            for (k, score) in scored.sorted(by: { $0.1 > $1.1 }) where score >= 10 {
                var mapping = grid
                var decoded = AztecSymbol(compact: compact, module: { x, y in isDark(x, y, k, mapping) })
                // A large full-range symbol far from the bull's-eye: follow its reference grid.
                if decoded == nil, !compact,
                   let layers = AztecSymbol.modeMessage(compact: false, module: { x, y in isDark(x, y, k, grid) })?.layers,
                   let refined = followingReferenceGrid(grid, placement: k, size: AztecSymbol.size(.full, layers: layers)) {
                    mapping = refined
                    decoded = AztecSymbol(compact: compact, module: { x, y in isDark(x, y, k, mapping) })
                }
                guard let symbol = decoded else { continue }
                let half = Double(symbol.size) / 2
                let symbolCorners = [(-half, -half), (half, -half), (half, half), (-half, half)]
                let imageCorners = symbolCorners.map { (x, y) -> Point in
                    // Placements act on whole modules; corners at half modules scale with them.
                    let (u, v) = Self.place(k, Int(x * 2), Int(y * 2))
                    return mapping.apply(Double(u) / 2, Double(v) / 2)
                }
                let candidate = Candidate(symbology: .aztec, bytes: symbol.text.bytes, corners: imageCorners,
                                          engineText: symbol.text.text,
                                          declaresCharacterSet: symbol.text.declaresCharacterSet)
                return (candidate, symbol)
            }
        }
        return nil
    }
}
