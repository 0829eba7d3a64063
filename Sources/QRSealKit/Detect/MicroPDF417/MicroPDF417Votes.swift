/// The fragments many scan lines read of one picture, gathered: for each RAP and side, how
/// often each codeword was read beside it, and where the side RAPs' outer edges lie, so
/// that a variant's grid can be filled by vote and its corners found.
struct MicroPDF417Votes {
    /// For each key, each codeword value read beside it and how many lines read it.
    var counts: [MicroPDF417Fragment.Key: [Int: Int]] = [:]
    /// For each side RAP (left with its codeword after it, right with it before), the sum
    /// of the points where its outer edge was crossed, how many, and the sum of the lines'
    /// directions there (each a unit vector along the reading direction).
    var edges: [MicroPDF417Fragment.Key: (sum: Point, count: Int, direction: Point)] = [:]
    /// The fragments read on two neighbouring lines alike: the evidence that a symbol is there.
    var confirmed = 0
    /// The smallest and largest coordinates of every fragment's RAP, nil before the first.
    var box: (minX: Double, minY: Double, maxX: Double, maxY: Double)?
    /// The sum of the RAPs' widths over 10 (a module, in pixels) and how many.
    var moduleSum = 0.0, modules = 0

    var module: Double { modules == 0 ? 1 : moduleSum / Double(modules) }

    /// Adds the fragments of one line, which runs from `origin` along the unit vector
    /// `direction` (positions along it in pixels); `previous` holds the fragments of the
    /// line before it in its family and is replaced by these.
    mutating func add(_ fragments: [MicroPDF417Fragment], origin: Point, direction: Point,
                      previous: inout [MicroPDF417Fragment]) {
        for f in fragments {
            counts[f.key, default: [:]][f.value, default: 0] += 1
            let width = f.rapEnd - f.rapStart
            if previous.contains(where: { $0.key == f.key && $0.value == f.value && abs($0.rapStart - f.rapStart) < width / 2 }) {
                confirmed += 1
            }
            let a = Point(x: origin.x + direction.x * f.rapStart, y: origin.y + direction.y * f.rapStart)
            let b = Point(x: origin.x + direction.x * f.rapEnd, y: origin.y + direction.y * f.rapEnd)
            moduleSum += width / 10
            modules += 1
            let (lowX, highX) = (min(a.x, b.x), max(a.x, b.x)), (lowY, highY) = (min(a.y, b.y), max(a.y, b.y))
            if let old = box {
                box = (min(old.minX, lowX), min(old.minY, lowY), max(old.maxX, highX), max(old.maxY, highY))
            } else {
                box = (lowX, lowY, highX, highY)
            }
            guard !f.key.rap.isCentre else { continue }
            // A left RAP's outer edge is where it starts; a right RAP's where its stop bar
            // (one module) ends.
            let edge = f.key.after ? a : Point(x: b.x + direction.x * width / 10, y: b.y + direction.y * width / 10)
            let old = edges[f.key] ?? (Point(x: 0, y: 0), 0, Point(x: 0, y: 0))
            edges[f.key] = (Point(x: old.sum.x + edge.x, y: old.sum.y + edge.y), old.count + 1,
                            Point(x: old.direction.x + direction.x, y: old.direction.y + direction.y))
        }
        previous = fragments
    }

    /// The codeword most lines read at `keys` (merged), nil when none was read or two
    /// values tie.
    func codeword(at keys: [MicroPDF417Fragment.Key]) -> Int? {
        var merged: [Int: Int] = [:]
        for key in keys {
            for (value, count) in counts[key] ?? [:] { merged[value, default: 0] += count }
        }
        let ranked = merged.sorted { $0.value > $1.value }
        guard let best = ranked.first else { return nil }
        if ranked.count > 1 && ranked[1].value == best.value { return nil }
        return best.key
    }
}
