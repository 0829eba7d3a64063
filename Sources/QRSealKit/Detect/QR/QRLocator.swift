import FoundationEssentials
import Glibc

/// Our own QR locator and rectifier, for dense and curved codes that the engines' own
/// detectors (zxing-cpp 1.4's above all) sample wrongly.
///
/// Finder patterns come from `FinderCensus`, re-measured across, down and along both
/// diagonals, and are grouped into triples (`FinderTriple`). For each triple, best first:
/// the version is estimated from the finders' spacing and module size and, from version 7,
/// confirmed by the version information beside the top-right or bottom-left finder; the
/// bottom-right alignment pattern corrects the first perspective mapping; then every
/// alignment pattern is looked for where its found neighbours predict it, growing out from
/// the top-left, so that the grid follows a curl (`ModuleGrid`). Each module is sampled at
/// its centre and thresholded against its neighbourhood, and the modules are rendered as a
/// clean image that zxing-cpp's quick search decodes: the engine's Reed–Solomon check
/// decides what is read, and its corners are mapped back through the grid. When it reads
/// nothing, the grid is laid once more on the edges between the modules themselves
/// (`ModuleGrid.phaseFitted`), which follows a page's waves between the alignment patterns.
///
/// Work is bounded by counts, never by time: at most `maxTriples` triples, three grids
/// each (and the fitted grid of each), `maxDecodes` engine calls (only for grids whose timing patterns mostly hold),
/// and the patterns of a code read are not tried again. A triple is dropped before its
/// alignment patterns are looked for when the timing patterns beside its finders do not
/// alternate (`timingHoldsNearFinders`): a texture's finder-like patterns cost little.
struct QRLocator {
    static let maxTriples = 24
    static let maxDecodes = 10
    /// A grid is fitted to the module edges (`ModuleGrid.phaseFitted`) only when at most one
    /// in this many of its timing modules is wrong.
    static let fittedTimingShare = 10
    /// Pixels per module and quiet-zone modules of the rendered image.
    static let scale = 3, quietZone = 4

    let image: GrayImage
    /// How far a finder's runs may stray from 1:1:3:1:1, in modules (see `FinderCensus`).
    var slack = 0.5
    /// `image` as `Binarizer.binarized(_:)` gives it, when the caller has made it already.
    var dark: [Bool]? = nil
    /// The census of `dark` at `slack`, when the caller has taken it already.
    var census: FinderCensus? = nil
    /// Triples an earlier run on the same copy tried to the end and read nothing from,
    /// shared with later runs (the wide locator after the narrow one), which skip them.
    var fruitless: FruitlessTriples? = nil
    /// Told why zxing-cpp gave no answer on a rendering of a grid, when it gave none.
    var failures: EngineFailures? = nil

    /// Every QR code read through a located grid, corners in `image`'s pixels.
    func read() -> [Candidate] {
        let w = image.width, h = image.height
        guard w >= 21, h >= 21 else { return [] }
        let dark = self.dark ?? Binarizer.binarized(image)
        let census = self.census ?? FinderCensus(dark: dark, width: w, height: h, slack: slack)
        return dark.withUnsafeBufferPointer { dark in
            // A pattern that one scan row crossed is too small for a code the engines miss,
            // or noise.
            let patterns = census.patterns.prefix { $0.hits >= 2 }.prefix(FinderTriple.maxPatterns).compactMap {
                $0.refined(on: dark, width: w, height: h, slack: slack)
            }.filter { 7 * $0.module < Double(min(w, h)) }
            var codes: [Candidate] = []
            var used: [Point] = []
            var decodes = 0
            for triple in FinderTriple.triples(patterns, limit: Self.maxTriples) {
                guard decodes < Self.maxDecodes else { break }
                if triple.patterns.contains(where: { p in used.contains { $0.distance(to: p.center) < 2 * p.module } }) { continue }
                if fruitless?.contains(triple) == true { continue }
                if let found = read(triple, on: dark, decodes: &decodes) {
                    codes += found
                    used += triple.patterns.map(\.center)
                } else if decodes < Self.maxDecodes {
                    // Tried to the end, not cut short by the decodes left: the same triple
                    // gives nothing on this copy however often it is tried.
                    fruitless?.insert(triple)
                }
            }
            return codes
        }
    }

    /// The codes read through `triple`'s grid, trying the version its spacing suggests and
    /// then its neighbours, unless the version information settles it.
    func read(_ triple: FinderTriple, on dark: UnsafeBufferPointer<Bool>, decodes: inout Int) -> [Candidate]? {
        var tried: Set<Int> = []
        for estimate in triple.dimensionEstimates.prefix(3) {
            guard decodes < Self.maxDecodes else { return nil }
            var dimension = estimate
            guard var mapping = firstMapping(triple, dimension: dimension, on: dark) else { continue }
            var confirmed = false
            if dimension >= 45, !holdsModel1(mapping, dimension: dimension),
               let version = versionInformation(mapping, dimension: dimension, triple: triple) {
                let named = 17 + 4 * version
                if named != dimension {
                    // Trust the BCH-checked version only near the estimate.
                    guard abs(named - estimate) <= 12, let corrected = firstMapping(triple, dimension: named, on: dark)
                    else { continue }
                    dimension = named
                    mapping = corrected
                }
                confirmed = true
            }
            guard tried.insert(dimension).inserted else { continue }
            // Unless its version information vouched for it, a triple of finder-like
            // patterns of a texture (or a wrong estimate of the size) is dropped before its
            // alignment patterns are looked for: near the finders the first mapping is
            // close even on a curled page, and a code's timing patterns hold there.
            guard confirmed || timingHoldsNearFinders(mapping, dimension: dimension) else { continue }
            let grid = alignedGrid(triple, dimension: dimension, mapping: mapping, on: dark)
            guard let found = decode(grid) else { continue }
            decodes += 1
            if !found.isEmpty { return found }
            // Between the reference points a page's waves may still bend the rows by half a
            // module: the grid laid on the module edges themselves (`phaseFitted`), once.
            // Only for a grid whose timing patterns nearly hold: a code's do, bent or not,
            // while a texture's grid that passed `decode`'s looser check misses far more.
            let timing = grid.timingErrors(in: image)
            if decodes < Self.maxDecodes, timing.wrong * Self.fittedTimingShare <= timing.count,
               let fitted = grid.phaseFitted(in: image), let again = decode(fitted) {
                decodes += 1
                if !again.isEmpty { return again }
            }
            // A Model 1 symbol has no alignment pattern to correct the first mapping with.
            if holdsModel1(mapping, dimension: dimension), let model1 = model1InPerspective(triple, dimension: dimension) {
                return model1
            }
            if confirmed { return nil }
        }
        return nil
    }

    /// The mapping of module coordinates through the three finder centres and the
    /// bottom-right alignment pattern when one is found (else the fourth corner of the
    /// parallelogram).
    func firstMapping(_ t: FinderTriple, dimension: Int, on dark: UnsafeBufferPointer<Bool>) -> Homography? {
        let d = Double(dimension), near = 3.5, far = d - 3.5
        let tl = t.topLeft.center, tr = t.topRight.center, bl = t.bottomLeft.center
        let corner = Point(x: tr.x + bl.x - tl.x, y: tr.y + bl.y - tl.y)
        let square = [Point(x: near, y: near), Point(x: far, y: near), Point(x: far, y: far), Point(x: near, y: far)]
        guard let parallelogram = Homography(from: square, to: [tl, tr, corner, bl]) else { return nil }
        guard dimension >= 25 else { return parallelogram }
        let module = t.patterns.map(\.module).reduce(0, +) / 3
        let at = d - 6.5
        let (across, down) = parallelogram.steps(at, at)
        guard let alignment = AlignmentPatterns.locate(on: dark, width: image.width, height: image.height,
                                                       near: parallelogram.apply(at, at), module: module,
                                                       radius: module * (4 + d / 40), across: across, down: down)
        else { return parallelogram }
        return Homography(from: [square[0], square[1], Point(x: at, y: at), square[3]], to: [tl, tr, alignment, bl]) ?? parallelogram
    }


    /// The grid through every alignment pattern found, each looked for where the ones
    /// found before it predict it; where one is not found, its neighbours' positions (or
    /// `mapping`) stand in.
    func alignedGrid(_ t: FinderTriple, dimension: Int, mapping: Homography,
                             on dark: UnsafeBufferPointer<Bool>) -> ModuleGrid {
        let centers = AlignmentPatterns.centers(version: (dimension - 17) / 4)
        let whole = ModuleGrid(dimension: dimension, mapping: mapping)
        guard centers.count >= 3 else { return whole }
        let n = centers.count, lines = centers.map { Double($0) + 0.5 }
        let module = t.patterns.map(\.module).reduce(0, +) / 3
        var points = [Point](repeating: Point(x: 0, y: 0), count: n * n)
        var found = [Bool](repeating: false, count: n * n)
        func projected(_ i: Int, _ j: Int) -> Point { mapping.apply(lines[i], lines[j]) }
        for j in 0..<n {
            for i in 0..<n {
                let k = j * n + i
                // Beside the finders no pattern is drawn: the first mapping is exact there.
                if (i == 0 && j == 0) || (i == n - 1 && j == 0) || (i == 0 && j == n - 1) {
                    points[k] = projected(i, j)
                    found[k] = true
                    continue
                }
                let guess: Point
                if i > 0 && j > 0 {
                    // The fourth corner of the parallelogram of the three before.
                    let a = points[k - 1], b = points[k - n], c = points[k - n - 1]
                    guess = Point(x: a.x + b.x - c.x, y: a.y + b.y - c.y)
                } else if i + j >= 2 {
                    // Along the first row or column: on from the two before, the step scaled
                    // as the reference lines are spaced (the first step is shorter).
                    let (a, b) = i > 0 ? (points[k - 1], points[k - 2]) : (points[k - n], points[k - 2 * n])
                    let index = i + j
                    let ratio = (lines[index] - lines[index - 1]) / (lines[index - 1] - lines[index - 2])
                    guess = Point(x: a.x + (a.x - b.x) * ratio, y: a.y + (a.y - b.y) * ratio)
                } else {
                    guess = projected(i, j)
                }
                // The first step from a corner relies on the first mapping alone: look wider.
                let radius = (i + j == 1 ? 4 : 2) * module + 1
                let (across, down) = mapping.steps(lines[i], lines[j])
                if let p = AlignmentPatterns.locate(on: dark, width: image.width, height: image.height,
                                                    near: guess, module: module, radius: radius, across: across, down: down) {
                    points[k] = p
                    found[k] = true
                } else {
                    points[k] = guess
                }
            }
        }
        // Once more for those not found, from the bottom right back, each predicted from
        // whatever was found around it: on from two in its row or column on either side,
        // or the fourth corner of a found parallelogram; a curl that bends towards one
        // edge is followed in from the other.
        func at(_ i: Int, _ j: Int) -> Point? {
            i >= 0 && j >= 0 && i < n && j < n && found[j * n + i] ? points[j * n + i] : nil
        }
        for k in stride(from: n * n - 1, through: 0, by: -1) where !found[k] {
            let i = k % n, j = k / n
            var guesses: [Point] = []
            for (di, dj) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                guard let a = at(i + di, j + dj), let b = at(i + 2 * di, j + 2 * dj) else { continue }
                let index = di != 0 ? i : j, step = di != 0 ? di : dj
                guard index + 2 * step >= 0, index + 2 * step < n else { continue }
                let ratio = (lines[index] - lines[index + step]) / (lines[index + step] - lines[index + 2 * step])
                guesses.append(Point(x: a.x + (a.x - b.x) * ratio, y: a.y + (a.y - b.y) * ratio))
            }
            for (di, dj) in [(1, 1), (-1, 1), (1, -1), (-1, -1)] {
                guard let a = at(i + di, j), let b = at(i, j + dj), let c = at(i + di, j + dj) else { continue }
                guesses.append(Point(x: a.x + b.x - c.x, y: a.y + b.y - c.y))
            }
            let (across, down) = mapping.steps(lines[i], lines[j])
            for guess in guesses.prefix(4) {
                if let p = AlignmentPatterns.locate(on: dark, width: image.width, height: image.height,
                                                    near: guess, module: module, radius: 2 * module + 1, across: across, down: down) {
                    points[k] = p
                    found[k] = true
                    break
                }
            }
        }
        // Then from a smooth surface through every pattern found (`CurlSurface`): each one
        // still missing is looked for where the surface puts it, and one found far from it
        // (a stretch of data taken for a pattern) is looked for there again and replaced
        // only by a pattern found nearer; twice, the surface fitted anew in between. What
        // is still missing sits on the surface.
        let corners: Set<Int> = [0, n - 1, (n - 1) * n]
        func onSurface(_ surface: CurlSurface, _ k: Int) -> Point {
            let at = Point(x: lines[k % n], y: lines[k / n]), base = mapping.apply(at), offset = surface.offset(at)
            return Point(x: base.x + offset.x, y: base.y + offset.y)
        }
        var surface: CurlSurface?
        // Only for a grid most of whose patterns were found: a triple of finder-like noise
        // finds few, and a surface through them would only cost searches.
        let foundCount = found.filter { $0 }.count - corners.count
        for _ in 0..<2 where foundCount * 2 >= n * n - corners.count {
            let offsets = (0..<(n * n)).filter { found[$0] }.map { k -> (at: Point, offset: Point) in
                let at = Point(x: lines[k % n], y: lines[k / n]), base = mapping.apply(at)
                return (at, Point(x: points[k].x - base.x, y: points[k].y - base.y))
            }
            guard let fitted = CurlSurface(offsets, dimension: dimension) else { break }
            surface = fitted
            var changed = false
            for k in 0..<(n * n) where !corners.contains(k) {
                let predicted = onSurface(fitted, k)
                let away = found[k] ? points[k].distance(to: predicted) : .infinity
                guard away > 1.5 * module else { continue }
                let (across, down) = mapping.steps(lines[k % n], lines[k / n])
                if let p = AlignmentPatterns.locate(on: dark, width: image.width, height: image.height,
                                                    near: predicted, module: module, radius: 2 * module + 1, across: across, down: down),
                   p.distance(to: predicted) < away - module {
                    points[k] = p
                    found[k] = true
                    changed = true
                }
            }
            if !changed { break }
        }
        if let surface {
            for k in 0..<(n * n) where !found[k] { points[k] = onSurface(surface, k) }
        }
        // The corners beside the finders again, now from the finder's centre and the three
        // patterns found nearest (a mapping through those four points), which follows a curl
        // there better than the first mapping does.
        let d = Double(dimension)
        for (i, j, center, finder) in [(0, 0, t.topLeft.center, Point(x: 3.5, y: 3.5)),
                                       (n - 1, 0, t.topRight.center, Point(x: d - 3.5, y: 3.5)),
                                       (0, n - 1, t.bottomLeft.center, Point(x: 3.5, y: d - 3.5))] {
            let di = i == 0 ? 1 : -1, dj = j == 0 ? 1 : -1
            let neighbours = [(i + di, j), (i + di, j + dj), (i, j + dj)]
            guard neighbours.allSatisfy({ found[$0.1 * n + $0.0] }),
                  let local = Homography(from: [finder] + neighbours.map { Point(x: lines[$0.0], y: lines[$0.1]) },
                                         to: [center] + neighbours.map { points[$0.1 * n + $0.0] }) else { continue }
            points[j * n + i] = local.apply(lines[i], lines[j])
        }
        // Without a surface, patterns not found sit where their found neighbours on both
        // sides put them.
        for j in 1..<(n - 1) where surface == nil {
            for i in 1..<(n - 1) where !found[j * n + i] {
                let k = j * n + i
                var estimates: [Point] = []
                if found[k - 1] && found[k + 1] { estimates.append(points[k - 1].midpoint(points[k + 1])) }
                if found[k - n] && found[k + n] { estimates.append(points[k - n].midpoint(points[k + n])) }
                guard let first = estimates.first else { continue }
                points[k] = estimates.count == 2 ? first.midpoint(estimates[1]) : first
            }
        }
        return ModuleGrid(dimension: dimension, lines: lines, points: points) ?? whole
    }

    /// The code `grid`'s modules hold, read by zxing-cpp from a clean rendering of them, with
    /// its corners mapped back into the image; when zxing-cpp reads nothing there, the QR
    /// Code Model 1 symbol they hold (`QRModel1`), which it does not know.
    /// Nil, without calling the engine, when the grid misses its timing patterns.
    func decode(_ grid: ModuleGrid) -> [Candidate]? {
        let n = grid.dimension, s = Self.scale, q = Self.quietZone
        // A grid that misses the timing patterns by more than a fifth is no code, or laid
        // wrongly: not worth sampling every module, nor the engine's time. The timing
        // modules come from the bands around them alone, and are the same as a full
        // sampling gives.
        let timing = grid.timingErrors(in: image)
        guard timing.wrong * 5 <= 2 * timing.count else { return nil }
        var modules = grid.modules(in: image)
        let sampled = modules
        Self.drawFunctionPatterns(&modules, dimension: n)
        let side = (n + 2 * q) * s
        var pixels = [UInt8](repeating: 255, count: side * side)
        for row in 0..<n {
            for column in 0..<n where modules[row * n + column] {
                for y in 0..<s {
                    let start = ((row + q) * s + y) * side + (column + q) * s
                    for x in 0..<s { pixels[start + x] = 0 }
                }
            }
        }
        var zxing = ZXingEngine(symbologies: [.qr])
        zxing.failures = failures
        zxing.tryHarder = false
        zxing.tryRotate = false
        zxing.tryDownscale = false
        let version = (n - 17) / 4
        let read = zxing.scan(GrayImage(width: side, height: side, pixels: pixels)).filter { $0.symbology == .qr }.map {
            var c = $0
            c.corners = c.corners.map { grid.point($0.x / Double(s) - Double(q), $0.y / Double(s) - Double(q)) }
            c.version = version
            return c
        }
        guard read.isEmpty, let model1 = QRModel1.read(sampled, dimension: n) else { return read }
        return [Self.candidate(model1, grid: grid)]
    }

    /// The candidate of a Model 1 read, its corners those of `grid` in the order the
    /// symbol reads (a mirrored one's top-right corner is the grid's bottom-left).
    static func candidate(_ read: QRModel1.Read, grid: ModuleGrid) -> Candidate {
        let d = Double(grid.dimension)
        let corners = (read.mirrored ? [(0, 0), (0, d), (d, d), (d, 0)] : [(0, 0), (d, 0), (d, d), (0, d)]).map {
            grid.point($0.0, $0.1)
        }
        var candidate = Candidate(symbology: .qr, bytes: read.bytes, corners: corners, version: read.version,
                                  errorCorrection: read.level)
        candidate.structuredAppend = read.structuredAppend
        candidate.isSoundlyChecked = read.isSoundlyChecked
        candidate.model = 1
        return candidate
    }
}

extension QRLocator {
    /// Draws the patterns every code of this size has, whatever was sampled there (finders
    /// with their separators, timing patterns, alignment patterns and the dark module): a
    /// blurred finder must not stop the engine from finding the code, and they carry no data.
    static func drawFunctionPatterns(_ modules: inout [Bool], dimension n: Int) {
        func set(_ column: Int, _ row: Int, _ dark: Bool) {
            if column >= 0, row >= 0, column < n, row < n { modules[row * n + column] = dark }
        }
        for (fx, fy) in [(0, 0), (n - 7, 0), (0, n - 7)] {
            for y in -1...7 {
                for x in -1...7 {
                    let ring = max(abs(x - 3), abs(y - 3))
                    set(fx + x, fy + y, ring != 2 && ring != 4)
                }
            }
        }
        for i in 8..<(n - 8) {
            set(i, 6, i % 2 == 0)
            set(6, i, i % 2 == 0)
        }
        let centers = AlignmentPatterns.centers(version: (n - 17) / 4)
        for cy in centers {
            for cx in centers where !(cx == 6 && cy == 6) && !(cx == 6 && cy == n - 7) && !(cx == n - 7 && cy == 6) {
                for y in -2...2 {
                    for x in -2...2 { set(cx + x, cy + y, max(abs(x), abs(y)) != 1) }
                }
            }
        }
        set(8, n - 8, true)
    }
}

extension Homography {
    /// One module's step across and one down at module coordinates (x, y).
    func steps(_ x: Double, _ y: Double) -> (across: Point, down: Point) {
        let p = apply(x, y), right = apply(x + 1, y), below = apply(x, y + 1)
        return (Point(x: right.x - p.x, y: right.y - p.y), Point(x: below.x - p.x, y: below.y - p.y))
    }
}

extension Point {
    func midpoint(_ other: Point) -> Point { Point(x: (x + other.x) / 2, y: (y + other.y) / 2) }
}
