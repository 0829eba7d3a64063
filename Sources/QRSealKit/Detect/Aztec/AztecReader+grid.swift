extension AztecReader {
    /// `grid` (image-aligned module coordinates to pixels) refitted to the reference grid of
    /// a full-range symbol of `size` modules lying in placement `k`: the rows and columns at
    /// every 16th module from the centre alternate dark and light (dark on even modules).
    /// The crossings are found ring by ring outwards, each near where the mapping fitted to
    /// those already found puts it, so that an error the bull's-eye's small square would
    /// multiply across a large symbol is taken out step by step. Nil when too few crossings
    /// show the grid.
    func followingReferenceGrid(_ grid: Homography, placement k: Int, size: Int) -> Homography? {
        let rings = (size / 2) / 16
        guard rings >= 1 else { return nil }
        // The bull's-eye's own square, which the first mapping was made from.
        var from: [Point] = [], to: [Point] = []
        for (x, y) in [(-5.0, -5.0), (5.0, -5.0), (5.0, 5.0), (-5.0, 5.0)] {
            from.append(Point(x: x, y: y))
            to.append(grid.apply(x, y))
        }
        var mapping = grid
        for ring in 1...rings {
            for i in -ring...ring {
                for j in -ring...ring where max(abs(i), abs(j)) == ring {
                    let (u, v) = Self.place(k, 16 * i, 16 * j)
                    guard let offset = bestCrossing(u: Double(u), v: Double(v), mapping: mapping, size: size, k: k, i: i, j: j)
                    else { continue }
                    from.append(Point(x: Double(u), y: Double(v)))
                    to.append(mapping.apply(Double(u) + offset.x, Double(v) + offset.y))
                }
            }
            guard from.count >= 8, let fitted = Homography.fitted(from: from, to: to) else { return nil }
            mapping = fitted
        }
        return mapping
    }

    /// The shift, in modules, that best lines the crossing at (u, v) up with the alternating
    /// modules along its row and column inside the symbol, or nil when none does well.
    private func bestCrossing(u: Double, v: Double, mapping: Homography, size: Int, k: Int, i: Int, j: Int) -> Point? {
        let half = size / 2
        func isDark(_ x: Double, _ y: Double) -> Bool {
            let p = mapping.apply(x, y)
            guard p.x.isFinite, p.y.isFinite, p.x >= 0, p.y >= 0, p.x < Double(image.width), p.y < Double(image.height)
            else { return false }
            return dark[Int(p.y) * image.width + Int(p.x)] != inverted
        }
        var best: (score: Int, shift: Point)?
        var checked = 0
        let steps = stride(from: -1.0, through: 1.0, by: 0.25).map { $0 }
        for dx in steps {
            for dy in steps {
                var score = 0
                checked = 0
                for t in -6...6 {
                    // Only modules inside the symbol, of both lines through the crossing.
                    if abs(16 * i + t) <= half {
                        let (a, b) = Self.place(k, t, 0)
                        checked += 1
                        if isDark(u + Double(a) + dx, v + Double(b) + dy) == (t % 2 == 0) { score += 1 }
                    }
                    if abs(16 * j + t) <= half {
                        let (a, b) = Self.place(k, 0, t)
                        checked += 1
                        if isDark(u + Double(a) + dx, v + Double(b) + dy) == (t % 2 == 0) { score += 1 }
                    }
                }
                if best == nil || score > best!.score { best = (score, Point(x: dx, y: dy)) }
            }
        }
        guard let found = best, checked >= 10, 10 * found.score >= 8 * checked else { return nil }
        return found.shift
    }
}

extension Homography {
    /// The mapping that takes `from` to `to` with the least squared error (the direct linear
    /// method with the last coefficient 1), for four or more pairs; nil when they are degenerate.
    static func fitted(from: [Point], to: [Point]) -> Homography? {
        guard from.count == to.count, from.count >= 4 else { return nil }
        var normal = [[Double]](repeating: [Double](repeating: 0, count: 9), count: 8)
        for (p, q) in zip(from, to) {
            let rows: [[Double]] = [[p.x, p.y, 1, 0, 0, 0, -p.x * q.x, -p.y * q.x, q.x],
                                    [0, 0, 0, p.x, p.y, 1, -p.x * q.y, -p.y * q.y, q.y]]
            for r in rows {
                for a in 0..<8 { for b in 0..<9 { normal[a][b] += r[a] * r[b] } }
            }
        }
        // Gaussian elimination with partial pivoting on the 8 × 8 system.
        for c in 0..<8 {
            guard let pivot = (c..<8).max(by: { abs(normal[$0][c]) < abs(normal[$1][c]) }), abs(normal[pivot][c]) > 1e-12
            else { return nil }
            normal.swapAt(c, pivot)
            for r in 0..<8 where r != c {
                let f = normal[r][c] / normal[c][c]
                if f != 0 { for b in c..<9 { normal[r][b] -= f * normal[c][b] } }
            }
        }
        var result = Homography(squareTo: [Point(x: 0, y: 0), Point(x: 1, y: 0), Point(x: 1, y: 1), Point(x: 0, y: 1)])
        result.m = (0..<8).map { normal[$0][8] / normal[$0][$0] } + [1]
        guard result.m.allSatisfy(\.isFinite) else { return nil }
        return result
    }
}
