/// Where each module of one QR code lies in the image: a perspective mapping per cell
/// between neighbouring reference points (the alignment patterns, and the corners at the
/// finder patterns), so that a curled page or a lens's distortion is followed cell by cell.
///
/// Module coordinates run from (0, 0) at the code's top-left corner to (dimension,
/// dimension); module (column, row) has its centre at (column + 0.5, row + 0.5).
struct ModuleGrid: Sendable {
    let dimension: Int
    /// The module coordinates of the reference rows and columns, ascending; the first and
    /// last cells extend to the code's edges.
    let lines: [Double]
    /// (lines.count − 1)² cells, row by row, each mapping module coordinates to pixels.
    let cells: [Homography]

    /// One mapping for the whole code.
    init(dimension: Int, mapping: Homography) {
        self.dimension = dimension
        lines = [0, Double(dimension)]
        cells = [mapping]
    }

    /// A cell between each two neighbouring reference lines: `points` holds the pixel
    /// position of every crossing of `lines`, row by row. Nil when a cell is degenerate.
    init?(dimension: Int, lines: [Double], points: [Point]) {
        let n = lines.count
        guard n >= 2, points.count == n * n else { return nil }
        var cells: [Homography] = []
        for j in 0..<(n - 1) {
            for i in 0..<(n - 1) {
                let x0 = lines[i], x1 = lines[i + 1], y0 = lines[j], y1 = lines[j + 1]
                guard let cell = Homography(from: [Point(x: x0, y: y0), Point(x: x1, y: y0), Point(x: x1, y: y1), Point(x: x0, y: y1)],
                                            to: [points[j * n + i], points[j * n + i + 1], points[(j + 1) * n + i + 1], points[(j + 1) * n + i]])
                else { return nil }
                cells.append(cell)
            }
        }
        self.dimension = dimension
        self.lines = lines
        self.cells = cells
    }

    /// The pixel position of module coordinates (x, y).
    func point(_ x: Double, _ y: Double) -> Point {
        let n = lines.count - 1
        func cell(_ v: Double) -> Int {
            var i = 0
            while i < n - 1 && v >= lines[i + 1] { i += 1 }
            return i
        }
        return cells[cell(y) * n + cell(x)].apply(x, y)
    }

    /// The gray value at each module's centre, row by row; only of the modules `wanted`
    /// names (the others left at 255), when it is given.
    func samples(in image: GrayImage, wanted: ((_ column: Int, _ row: Int) -> Bool)? = nil) -> [Double] {
        var out = [Double](repeating: 255, count: dimension * dimension)
        for row in 0..<dimension {
            for column in 0..<dimension where wanted?(column, row) ?? true {
                let p = point(Double(column) + 0.5, Double(row) + 0.5)
                out[row * dimension + column] = image.bilinear(p.x, p.y, centres: .halfway, outside: .paper)
            }
        }
        return out
    }

    /// The modules, dark (true) where a module's sample is below the mean of the samples
    /// within `radius` modules of it: the light falling on a page varies across a large code.
    func modules(in image: GrayImage, radius: Int = 4) -> [Bool] {
        thresholded(samples(in: image), radius: radius)
    }

    /// The timing patterns' modules (row 6 and column 6, between the finders' separators),
    /// each as `modules(in:radius:)` gives it, from the samples of the bands within
    /// `radius` of them alone: a grid laid on no code fails on these, at a fraction of the
    /// cost of sampling every module.
    func timingModules(in image: GrayImage, radius: Int = 4) -> (row: [Bool], column: [Bool]) {
        let n = dimension
        guard n > 16 else { return ([], []) }
        let timing = { (row: Int, column: Int) in row == 6 || column == 6 }
        let dark = thresholded(samples(in: image) { abs($0 - 6) <= radius || abs($1 - 6) <= radius }, radius: radius,
                               only: timing)
        return ((8..<(n - 8)).map { dark[6 * n + $0] }, (8..<(n - 8)).map { dark[$0 * n + 6] })
    }

    /// How many of the timing modules (`timingModules(in:radius:)`) differ from the
    /// alternation every code's timing patterns have, of how many.
    func timingErrors(in image: GrayImage) -> (wrong: Int, count: Int) {
        let n = dimension
        guard n > 16 else { return (0, 0) }
        let timing = timingModules(in: image)
        let wrong = (8..<(n - 8)).reduce(0) {
            $0 + (timing.row[$1 - 8] != ($1 % 2 == 0) ? 1 : 0) + (timing.column[$1 - 8] != ($1 % 2 == 0) ? 1 : 0)
        }
        return (wrong, 2 * (n - 16))
    }

    /// Each sample dark when below the mean of the samples within `radius` modules of it;
    /// with `only`, just the modules (row, column) it holds for, the rest left light.
    private func thresholded(_ s: [Double], radius: Int, only: ((Int, Int) -> Bool)? = nil) -> [Bool] {
        let n = dimension
        // Summed-area table of the samples, (n + 1)².
        var sums = [Double](repeating: 0, count: (n + 1) * (n + 1))
        var dark = [Bool](repeating: false, count: n * n)
        s.withUnsafeBufferPointer { s in
            sums.withUnsafeMutableBufferPointer { sums in
                for y in 0..<n {
                    var rowSum = 0.0
                    for x in 0..<n {
                        rowSum += s[y * n + x]
                        sums[(y + 1) * (n + 1) + x + 1] = sums[y * (n + 1) + x + 1] + rowSum
                    }
                }
                dark.withUnsafeMutableBufferPointer { dark in
                    for y in 0..<n {
                        let y0 = max(0, y - radius), y1 = min(n, y + radius + 1)
                        for x in 0..<n where only?(y, x) ?? true {
                            let x0 = max(0, x - radius), x1 = min(n, x + radius + 1)
                            let total = sums[y1 * (n + 1) + x1] - sums[y0 * (n + 1) + x1] - sums[y1 * (n + 1) + x0]
                                + sums[y0 * (n + 1) + x0]
                            dark[y * n + x] = s[y * n + x] < total / Double((x1 - x0) * (y1 - y0))
                        }
                    }
                }
            }
        }
        return dark
    }
}

/// The alignment patterns of QR codes: where the standard puts them, and finding one near
/// where it is expected.
enum AlignmentPatterns {
    /// The rows and columns (module indices) of the alignment pattern centres of `version`,
    /// including the ones beside the finder patterns where no pattern is drawn (ISO/IEC
    /// 18004 Annex E): from 6 to 4·version + 10 in equal even steps, the first step
    /// taking up what is left.
    static func centers(version: Int) -> [Int] {
        guard (2...40).contains(version) else { return [] }
        let count = version / 7 + 2, last = 4 * version + 10
        let step = version == 32 ? 26 : (version * 4 + count * 2 + 1) / (count * 2 - 2) * 2
        return [6] + (0..<(count - 1)).reversed().map { last - $0 * step }
    }

    /// The centre of an alignment pattern (a dark module in a light ring in a dark ring,
    /// 1:1:1 each way from the middle) within `radius` pixels of `guess` on `dark`, the one
    /// nearest `guess` when several are, or nil.
    ///
    /// `across` and `down` are one module's step along the code's rows and columns there:
    /// the whole 5 × 5 pattern is checked along them (its light ring, and its dark ring
    /// but for two modules), so that data modules rarely pass for a pattern even when the
    /// search is wide.
    static func locate(on dark: UnsafeBufferPointer<Bool>, width w: Int, height h: Int,
                       near guess: Point, module: Double, radius: Double, across: Point, down: Point) -> Point? {
        guard guess.x.isFinite, guess.y.isFinite, module > 0 else { return nil }
        let r = Int(radius.rounded(.up)), gx = Int(guess.x), gy = Int(guess.y)
        guard gx + r >= 0, gy + r >= 0, gx - r < w, gy - r < h else { return nil }
        let limit = Int(module * 2.5) + 2
        /// The middle of the light ring's outer edges along (dx, dy) through (x, y), when the
        /// runs there are in the pattern's proportions.
        func middle(_ x: Int, _ y: Int, _ dx: Int, _ dy: Int) -> Double? { measured(x, y, dx, dy).middle }
        /// `middle`, and how many pixels of the dark run through (x, y) lie beyond it along
        /// (dx, dy) (at most `limit`): every pixel of the run gives the same middle, as the
        /// runs it is measured on are the same, unless the run is longer than `limit`, when
        /// each gives none.
        func measured(_ x: Int, _ y: Int, _ dx: Int, _ dy: Int) -> (middle: Double?, ahead: Int) {
            func run(_ sx: Int, _ sy: Int, _ step: Int, dark colour: Bool) -> Int {
                var n = 0, cx = sx, cy = sy
                while n < limit, cx >= 0, cy >= 0, cx < w, cy < h, dark[cy * w + cx] == colour {
                    n += 1; cx += dx * step; cy += dy * step
                }
                return n
            }
            let back = run(x, y, -1, dark: true), ahead = run(x + dx, y + dy, 1, dark: true)
            let center = back + ahead
            let lowLight = run(x - dx * back, y - dy * back, -1, dark: false)
            let highLight = run(x + dx * (ahead + 1), y + dy * (ahead + 1), 1, dark: false)
            let lowDark = run(x - dx * (back + lowLight), y - dy * (back + lowLight), -1, dark: true)
            let highDark = run(x + dx * (ahead + 1 + highLight), y + dy * (ahead + 1 + highLight), 1, dark: true)
            let tolerance = 0.75 * module + 1
            for n in [lowLight, center, highLight] where abs(Double(n) - module) > tolerance { return (nil, ahead) }
            guard Double(min(lowDark, highDark)) >= max(1, 0.4 * module),
                  abs(Double(lowLight + center + highLight) - 3 * module) < 1.5 * module + 1 else { return (nil, ahead) }
            let origin = dx != 0 ? x : y
            let low = Double(origin - back - lowLight + 1), high = Double(origin + ahead + 1 + highLight)
            return ((low + high) / 2, ahead)
        }
        func isPattern(at p: Point) -> Bool {
            var lightMissed = 0, darkMissed = 0
            for b in -2...2 {
                for a in -2...2 {
                    let x = Int(p.x + Double(a) * across.x + Double(b) * down.x)
                    let y = Int(p.y + Double(a) * across.y + Double(b) * down.y)
                    let isDark = x >= 0 && y >= 0 && x < w && y < h && dark[y * w + x]
                    switch max(abs(a), abs(b)) {
                    case 1: if isDark { lightMissed += 1 }
                    case 2: if !isDark { darkMissed += 1 }
                    default: if !isDark { return false }
                    }
                }
            }
            return lightMissed == 0 && darkMissed <= 2
        }
        var best: (point: Point, distance: Double)?
        // Each dark run is measured once along the row and once down the column, for all
        // of its pixels (`measured`): the last pixel it covers, and its middle.
        let x0 = max(0, gx - r), x1 = min(w - 1, gx + r)
        var columns = [(last: Int, middle: Double?)](repeating: (-1, nil), count: x1 - x0 + 1)
        for y in max(0, gy - r)...min(h - 1, gy + r) {
            var row: (last: Int, middle: Double?) = (-1, nil)
            for x in x0...x1 where dark[y * w + x] {
                let d = Double((x - gx) * (x - gx) + (y - gy) * (y - gy))
                guard d <= radius * radius, d < (best?.distance ?? .infinity) else { continue }
                if x > row.last {
                    let m = measured(x, y, 1, 0)
                    row = (x + m.ahead, m.middle)
                }
                guard let cx = row.middle else { continue }
                if y > columns[x - x0].last {
                    let m = measured(x, y, 0, 1)
                    columns[x - x0] = (y + m.ahead, m.middle)
                }
                guard let cy = columns[x - x0].middle else { continue }
                // Across again through the found middle row, which a corner of the ring can fool.
                let my = min(h - 1, max(0, Int(cy))), mx = min(w - 1, max(0, Int(cx)))
                guard dark[my * w + mx], let refinedX = middle(mx, my, 1, 0), let refinedY = middle(mx, my, 0, 1),
                      abs(refinedX - cx) < module, abs(refinedY - cy) < module,
                      isPattern(at: Point(x: refinedX, y: refinedY)) else { continue }
                best = (Point(x: refinedX, y: refinedY), d)
            }
        }
        return best?.point
    }
}
