/// Our Aztec reader's first step: the bull's-eyes, found along the rows and confirmed down
/// the column and both diagonals (`AztecReader.bullseyes()`).
extension AztecReader {
    struct Centre {
        var x: Double, y: Double, module: Double
        /// The boundaries of the runs along the row through the centre: `left[k]` and
        /// `right[k]` are the x at which run k (0 the centre, 1 the first light ring …) ends.
        var left: [Int], right: [Int]
        /// A light centre: the symbol is printed light on dark.
        var light = false
    }

    /// The centres of the bull's-eyes, each once, at most `maxBullseyes`.
    func bullseyes() -> [Centre] {
        let w = image.width, h = image.height
        guard w >= 11, h >= 11, dark.count == w * h, runs.width == w, runs.height == h else { return [] }
        var found: [Centre] = []
        var rejectedRows = [Int32](repeating: 0, count: 2 * w)
        rejectedRows.withUnsafeMutableBufferPointer { rejected in
        runs.bounds.withUnsafeBufferPointer { bounds in
        dark.withUnsafeBufferPointer { dark in
            // A bull's-eye's centre module is at least two pixels high in an image this
            // large, so every other row finds it.
            for y in stride(from: 0, to: h, by: min(w, h) >= Self.everyOtherRowFrom ? 2 : 1) {
                // The start of each run in this row, and the colour of the first.
                let starts = UnsafeBufferPointer(rebasing: bounds[runs.first[y]..<runs.first[y + 1]])
                let count = starts.count - 1
                let firstDark = runs.firstDark[y]
                // Run i spans starts[i]..<starts[i+1]; it is dark when i is even and the row
                // starts dark, or odd and it starts light. Centres of both colours are looked
                // for, light ones for symbols printed light on dark.
                var i = 4
                while i + 4 < count {
                    defer { i += 1 }
                    // Most runs fail at once: each of the seven must be 0.3 to 1.8 of a seventh,
                    // and the first that is not ends the test.
                    let total = Int(starts[i + 4] - starts[i - 3])
                    guard total >= 7 else { continue }
                    var k = i - 3
                    while k <= i + 3 {
                        let run = 70 * Int(starts[k + 1] - starts[k])
                        guard run >= 3 * total && run <= 18 * total else { break }
                        k += 1
                    }
                    guard k > i + 3, Self.looksLikeRings(InlineArray { Int(starts[i - 2 + $0] - starts[i - 3 + $0]) })
                    else { continue }
                    let cx = Double(starts[i] + starts[i + 1]) / 2
                    if found.contains(where: { abs($0.x - cx) < $0.module * 2 && abs($0.y - Double(y)) < $0.module * 2 }) {
                        continue
                    }
                    let light = (i % 2 == 0) != firstDark
                    guard let centre = confirm(x: Int(cx), y: y, light: light, dark: dark, rejected: rejected) else { continue }
                    if found.contains(where: { abs($0.x - centre.x) < $0.module * 2 && abs($0.y - centre.y) < $0.module * 2 }) {
                        continue
                    }
                    found.append(centre)
                    if found.count >= Self.maxBullseyes { return }
                }
            }
        }
        }
        }
        return found
    }

    /// Whether seven runs (light, dark, light, dark centre, light, dark, light) could be a
    /// bull's-eye's middle: each about the seventh of their sum, each dark and light pair
    /// about two sevenths (thick or thin dark modules change the runs, not the pairs), and
    /// the two sides alike.
    static func looksLikeRings(_ r: InlineArray<7, Int>) -> Bool {
        var total = 0
        for k in 0..<7 { total += r[k] }
        guard total >= 7 else { return false }
        let m = Double(total) / 7
        for k in 0..<7 where Double(r[k]) < 0.3 * m || Double(r[k]) > 1.8 * m { return false }
        for k in 0..<6 {
            let pair = Double(r[k] + r[k + 1])
            if pair < 1.4 * m || pair > 2.6 * m { return false }
        }
        for k in 0..<3 where abs(Double(r[k] - r[6 - k])) > 0.6 * m + 1 { return false }
        return true
    }

    /// The steps from (x, y) up and down its column at which the centre run and the next
    /// three end (`up[k]` rows above, `down[k]` rows below): the centre and three rings, all
    /// that `confirm` looks at, so the run beyond, which may reach far into a light margin,
    /// is not walked. Nil when the image's edge comes first on either side.
    private func column(x: Int, y: Int, dark: UnsafeBufferPointer<Bool>) -> (up: InlineArray<4, Int>, down: InlineArray<4, Int>)? {
        let w = image.width, h = image.height
        func side(_ sign: Int) -> InlineArray<4, Int>? {
            var ends = InlineArray<4, Int>(repeating: 0)
            var found = 0
            var colour = dark[y * w + x]
            var t = 0
            while found < 4 {
                t += 1
                let py = y + sign * t
                guard py >= 0, py < h else { return nil }
                if dark[py * w + x] != colour {
                    ends[found] = t
                    found += 1
                    colour.toggle()
                }
            }
            return ends
        }
        guard let up = side(-1), let down = side(1) else { return nil }
        return (up, down)
    }

    /// The runs along a line through (x, y), stepping (dx, dy): the boundaries, in steps
    /// from (x, y), at which the centre run and up to `count` further runs end on each side
    /// (`before[k]` negative). A run cut by the image's edge ends there, and is the last.
    private func runs(x: Int, y: Int, dx: Int, dy: Int, count: Int,
                      dark: UnsafeBufferPointer<Bool>) -> (before: [Int], after: [Int]) {
        let w = image.width, h = image.height
        func side(_ sign: Int) -> [Int] {
            var ends: [Int] = []
            var colour = dark[y * w + x]
            var t = 0
            while ends.count <= count {
                t += 1
                let px = x + sign * t * dx, py = y + sign * t * dy
                guard px >= 0, py >= 0, px < w, py < h else {
                    ends.append(sign * t)
                    break
                }
                if dark[py * w + px] != colour {
                    ends.append(sign * t)
                    colour.toggle()
                }
            }
            return ends
        }
        return (side(-1), side(1))
    }

    /// The bull's-eye whose centre run a row crosses at (x, y), if its column shows the
    /// same rings; its centre and module size from both.
    /// `rejected[2x] ..< rejected[2x + 1]` are the rows of a run down column x that showed
    /// no rings: the column test depends only on that run, not on the row crossing it, so it
    /// is not made again on the rows below.
    private func confirm(x: Int, y: Int, light: Bool, dark: UnsafeBufferPointer<Bool>,
                         rejected: UnsafeMutableBufferPointer<Int32>) -> Centre? {
        let w = image.width
        guard dark[y * w + x] != light, y < rejected[2 * x] || y >= rejected[2 * x + 1],
              let (up, down) = column(x: x, y: y, dark: dark) else { return nil }
        // The centre run and three rings on each side, outermost above first.
        let vertical = InlineArray<7, Int> { k in
            switch k {
            case 0..<3: up[3 - k] - up[2 - k]
            case 3: up[0] + down[0] - 1
            default: down[k - 3] - down[k - 4]
            }
        }
        guard Self.looksLikeRings(vertical) else {
            rejected[2 * x] = Int32(y - up[0] + 1)
            rejected[2 * x + 1] = Int32(y + down[0])
            return nil
        }
        let cy = y + (down[0] + 1 - up[0]) / 2
        // The row again, through the column's centre.
        guard dark[cy * w + x] != light else { return nil }
        let row = runs(x: x, y: cy, dx: 1, dy: 0, count: 6, dark: dark)
        guard row.before.count >= 5, row.after.count >= 5 else { return nil }
        let horizontal = Self.widths(row)
        let middle = row.before.count - 1
        let inner = InlineArray<7, Int> { horizontal[middle - 3 + $0] }
        guard Self.looksLikeRings(inner) else { return nil }
        let cx = Double(x) + Double(row.before[0] + 1 + row.after[0]) / 2
        var sums = (vertical: 0, horizontal: 0)
        for k in 0..<7 { sums = (sums.vertical + vertical[k], sums.horizontal + inner[k]) }
        let mv = Double(sums.vertical) / 7, mh = Double(sums.horizontal) / 7
        guard mv < 2.5 * mh, mh < 2.5 * mv else { return nil }
        let centre = Centre(x: cx + 0.5, y: Double(cy) + 0.5, module: (mv + mh) / 2,
                            left: row.before.map { x + $0 }, right: row.after.map { x + $0 }, light: light)
        // The first light ring closes round the centre, whichever way the symbol is turned:
        // where a row and a column merely cross alternating modules (a full-range symbol's
        // reference grid), it runs off into the data instead.
        guard ringCorners(seedX: (centre.left[0] + centre.left[1] + 1) / 2, centre: centre,
                          radius: centre.module * 3 + 2) != nil else { return nil }
        return centre
    }

    /// The run widths along a line, outermost before to outermost after, the centre's in the middle.
    private static func widths(_ r: (before: [Int], after: [Int])) -> [Int] {
        let n = r.before.count
        var out: [Int] = []
        for k in stride(from: n - 1, to: 0, by: -1) { out.append(r.before[k - 1] - r.before[k]) }
        out.append(r.after[0] - r.before[0] - 1)
        for k in 1..<r.after.count { out.append(r.after[k] - r.after[k - 1]) }
        return out
    }
}
