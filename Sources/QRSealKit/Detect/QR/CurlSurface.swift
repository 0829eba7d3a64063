/// How far a curled page moves a code's points away from a perspective mapping: a smooth
/// surface (a polynomial of up to the third degree in the module coordinates, for each
/// pixel coordinate) fitted by least squares to the offsets of the alignment patterns found.
///
/// A page bowed across, curled at one edge or waved bends the rows of alignment patterns
/// more the further out they lie, which extrapolating from the two patterns before each one
/// cannot follow; every pattern found constrains this surface, so where one is missing the
/// others predict it, from both sides and from the rows beside it.
struct CurlSurface {
    /// Coefficients for x and y of the terms of `terms(_:_:)`.
    private let x: [Double], y: [Double]
    private let degree: Int
    /// Module coordinates are divided by this (half the code's side) and centred, so that
    /// the powers stay near 1.
    private let half: Double

    /// The surface through `offsets` (module coordinates → pixel offset), of the highest
    /// degree their number supports (at least twice as many points as terms); nil for fewer
    /// than three points or a degenerate layout.
    init?(_ offsets: [(at: Point, offset: Point)], dimension: Int) {
        let degree = offsets.count >= 20 ? 3 : offsets.count >= 12 ? 2 : offsets.count >= 3 ? 1 : 0
        guard degree > 0 else { return nil }
        self.degree = degree
        let half = Double(dimension) / 2
        self.half = half
        let rows = offsets.map { Self.terms(($0.at.x - half) / half, ($0.at.y - half) / half, degree: degree) }
        guard let x = Self.leastSquares(rows, offsets.map(\.offset.x)),
              let y = Self.leastSquares(rows, offsets.map(\.offset.y)) else { return nil }
        self.x = x
        self.y = y
    }

    /// The fitted offset at module coordinates `at`.
    func offset(_ at: Point) -> Point {
        let t = Self.terms((at.x - half) / half, (at.y - half) / half, degree: degree)
        return Point(x: zip(t, x).reduce(0) { $0 + $1.0 * $1.1 }, y: zip(t, y).reduce(0) { $0 + $1.0 * $1.1 })
    }

    /// 1, u, v, u², uv, v², u³, u²v, uv², v³, up to `degree`.
    private static func terms(_ u: Double, _ v: Double, degree: Int) -> [Double] {
        func power(_ x: Double, _ n: Int) -> Double { (0..<n).reduce(1) { r, _ in r * x } }
        var out: [Double] = []
        for d in 0...degree {
            for i in stride(from: d, through: 0, by: -1) { out.append(power(u, i) * power(v, d - i)) }
        }
        return out
    }

    /// The coefficients minimising the squared error of `rows` · c against `values`, through
    /// the normal equations (a little damped, so that a layout that leaves a term free gives
    /// it a small value rather than none), by Gaussian elimination with partial pivoting.
    private static func leastSquares(_ rows: [[Double]], _ values: [Double]) -> [Double]? {
        guard let k = rows.first?.count else { return nil }
        var a = [[Double]](repeating: [Double](repeating: 0, count: k + 1), count: k)
        for (row, value) in zip(rows, values) {
            for i in 0..<k {
                for j in 0..<k { a[i][j] += row[i] * row[j] }
                a[i][k] += row[i] * value
            }
        }
        for i in 0..<k { a[i][i] += 1e-6 * Double(rows.count) }
        for column in 0..<k {
            guard let pivot = (column..<k).max(by: { abs(a[$0][column]) < abs(a[$1][column]) }),
                  abs(a[pivot][column]) > 1e-12 else { return nil }
            a.swapAt(column, pivot)
            for r in 0..<k where r != column {
                let f = a[r][column] / a[column][column]
                guard f != 0 else { continue }
                for c in column...k { a[r][c] -= f * a[column][c] }
            }
        }
        let solution = (0..<k).map { a[$0][k] / a[$0][$0] }
        return solution.allSatisfy(\.isFinite) ? solution : nil
    }
}
