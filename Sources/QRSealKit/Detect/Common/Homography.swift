/// A plane perspective mapping: (x, y) ↦ ((m0·x + m1·y + m2) / w, (m3·x + m4·y + m5) / w) with
/// w = m6·x + m7·y + m8.
struct Homography: Sendable {
    var m: [Double]

    /// The mapping of the unit square's corners (0,0), (1,0), (1,1), (0,1) onto `p` (Heckbert's
    /// square-to-quadrilateral solution).
    init(squareTo p: [Point]) {
        let sx = p[0].x - p[1].x + p[2].x - p[3].x, sy = p[0].y - p[1].y + p[2].y - p[3].y
        let dx1 = p[1].x - p[2].x, dx2 = p[3].x - p[2].x, dy1 = p[1].y - p[2].y, dy2 = p[3].y - p[2].y
        let den = dx1 * dy2 - dx2 * dy1
        let g = den == 0 ? 0 : (sx * dy2 - dx2 * sy) / den
        let h = den == 0 ? 0 : (dx1 * sy - sx * dy1) / den
        m = [p[1].x - p[0].x + g * p[1].x, p[3].x - p[0].x + h * p[3].x, p[0].x,
             p[1].y - p[0].y + g * p[1].y, p[3].y - p[0].y + h * p[3].y, p[0].y,
             g, h, 1]
    }

    private init(matrix: [Double]) { m = matrix }

    /// The mapping of quadrilateral `source` onto quadrilateral `target` (corners in the same
    /// order), or nil when `source` is degenerate.
    init?(from source: [Point], to target: [Point]) {
        guard source.count == 4, target.count == 4, let back = Homography(squareTo: source).inverse else { return nil }
        self = Homography(squareTo: target).after(back)
    }

    /// The inverse mapping (the adjugate: a homography is defined up to scale), or nil when
    /// this one is singular.
    var inverse: Homography? {
        let a = m
        let adj = [a[4] * a[8] - a[5] * a[7], a[2] * a[7] - a[1] * a[8], a[1] * a[5] - a[2] * a[4],
                   a[5] * a[6] - a[3] * a[8], a[0] * a[8] - a[2] * a[6], a[2] * a[3] - a[0] * a[5],
                   a[3] * a[7] - a[4] * a[6], a[1] * a[6] - a[0] * a[7], a[0] * a[4] - a[1] * a[3]]
        let det = a[0] * adj[0] + a[1] * adj[3] + a[2] * adj[6]
        guard det.isFinite, abs(det) > 1e-12 else { return nil }
        return Homography(matrix: adj)
    }

    /// `inner` applied first, then `self`.
    func after(_ inner: Homography) -> Homography {
        let a = m, b = inner.m
        var c = [Double](repeating: 0, count: 9)
        for row in 0..<3 {
            for column in 0..<3 {
                c[row * 3 + column] = (0..<3).reduce(0) { $0 + a[row * 3 + $1] * b[$1 * 3 + column] }
            }
        }
        return Homography(matrix: c)
    }

    func apply(_ x: Double, _ y: Double) -> Point {
        let w = m[6] * x + m[7] * y + m[8]
        guard w != 0 else { return Point(x: .infinity, y: .infinity) }
        return Point(x: (m[0] * x + m[1] * y + m[2]) / w, y: (m[3] * x + m[4] * y + m[5]) / w)
    }

    func apply(_ p: Point) -> Point { apply(p.x, p.y) }
}
