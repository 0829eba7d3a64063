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
    /// The fragments read on two neighbouring lines alike.
    var confirmed = 0
    /// Where fragments were confirmed, by key: the line (its index in its family) and the
    /// RAP's start along it, the first few of each.
    var sightings: [MicroPDF417Fragment.Key: [(line: Int, at: Double)]] = [:]
    /// The index of the line being added in its family, set by the caller.
    var line = 0
    /// Whether the codewords are counted, or only the evidence (`confirmed`, `sightings`)
    /// gathered: what a first look at a picture needs.
    var tally = true
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
        defer { previous = fragments }
        // Both lines' fragments lie in the order of their RAPs along the line: the previous
        // line's near each one are found by a pointer that only moves forward.
        var first = 0
        for f in fragments {
            let width = f.rapEnd - f.rapStart
            while first < previous.count && previous[first].rapStart < f.rapStart - width / 2 { first += 1 }
            var seenAbove = false
            var k = first
            while k < previous.count && previous[k].rapStart < f.rapStart + width / 2 {
                if previous[k].key == f.key && previous[k].value == f.value {
                    seenAbove = true
                    break
                }
                k += 1
            }
            if seenAbove {
                confirmed += 1
                if sightings[f.key, default: []].count < 4 { sightings[f.key, default: []].append((line, f.rapStart)) }
            }
            moduleSum += width / 10
            modules += 1
            guard tally else { continue }
            counts[f.key, default: [:]][f.value, default: 0] += 1
            let a = Point(x: origin.x + direction.x * f.rapStart, y: origin.y + direction.y * f.rapStart)
            let b = Point(x: origin.x + direction.x * f.rapEnd, y: origin.y + direction.y * f.rapEnd)
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
    }

    /// How many confirmed fragments begin a chain of three rows: the fragment of the next
    /// row or the one after it (the RAP's next number, the next cluster, the same side)
    /// confirmed on a nearby line at about the same place, and that one's in turn. The
    /// evidence that a symbol is there: a linear code's bars repeat one fragment down all
    /// its lines, and texture or another two-dimensional code seldom gives a fragment
    /// twice, let alone two successors in order.
    var successions: Int {
        var count = 0
        // The successors of `key` sighted near `place`, and where.
        func successors(of key: MicroPDF417Fragment.Key, near place: (line: Int, at: Double)) -> [(MicroPDF417Fragment.Key, (line: Int, at: Double))] {
            var out: [(MicroPDF417Fragment.Key, (line: Int, at: Double))] = []
            for step in 1...2 {
                let next = MicroPDF417Fragment.Key(
                    rap: .init(isCentre: key.rap.isCentre, number: MicroPDF417Variant.address(key.rap.number, row: step)),
                    after: key.after, cluster: (key.cluster + 3 * step) % 9)
                guard let below = sightings[next] else { continue }
                for b in below where b.line != place.line && abs(b.line - place.line) <= 24 && abs(b.at - place.at) < 3 * module {
                    out.append((next, b))
                }
            }
            return out
        }
        for (key, seen) in sightings {
            let chained = seen.contains { a in
                successors(of: key, near: a).contains { next, b in
                    // The third row lies on the same side of the second as the second of the first.
                    successors(of: next, near: b).contains { (b.line - a.line) * ($0.1.line - b.line) > 0 }
                }
            }
            if chained { count += 1 }
        }
        return count
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
