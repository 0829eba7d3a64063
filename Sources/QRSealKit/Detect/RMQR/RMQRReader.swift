import FoundationEssentials
import Glibc

/// Finds and reads rMQR symbols (`RMQRSymbol`) in a binarized image, from the finder
/// patterns of its census (`FinderCensus`).
///
/// An rMQR symbol has one finder pattern, which the census counts like a QR code's. For
/// each pattern crossed by at least `FinderCensus.leastGroupedHits` rows (the most often
/// crossed first, at most `maxPatterns`) and outside every code read before, the reader
/// tries four turns and a few small angles about it and keeps the one whose finder and the
/// timing pattern along the top edge beside it match best; the format information beside
/// the finder then names the size. The sub-pattern is looked for about where that size
/// puts it, and the two patterns' centres fix the grid, which is sampled and decoded. Each
/// step throws out most of what is not an rMQR symbol (a QR code's finder, texture), and
/// only a read every Reed–Solomon block vouches for is reported.
struct RMQRReader {
    let image: GrayImage
    let dark: [Bool]
    let census: FinderCensus

    /// How many patterns are tried, most often crossed first: a picture of texture can
    /// imitate thousands.
    static let maxPatterns = 48

    /// The fewest of the `orientationProbes` that must match for a turn to be tried
    /// further.
    static let leastOrientationMatches = 56

    /// One symbol read: what it holds and its corners in the image's pixels.
    struct Found {
        let symbol: RMQRSymbol.Read
        let corners: [Point]
    }

    init(image: GrayImage, dark: [Bool], census: FinderCensus) {
        self.image = image
        self.dark = dark
        self.census = census
    }

    /// The symbols read from the patterns that `skipping` (inside a code read before: a QR
    /// code's finders) leaves.
    func read(skipping: (Point) -> Bool = { _ in false }) -> [Found] {
        guard dark.count == image.width * image.height else { return [] }
        var found: [Found] = []
        var tried = 0
        for pattern in census.patterns.prefix(while: { $0.hits >= FinderCensus.leastGroupedHits })
        where !skipping(pattern.center) {
            guard tried < Self.maxPatterns else { break }
            tried += 1
            guard pattern.module >= 1, !found.contains(where: { $0.corners.encloses(pattern.center) }) else { continue }
            if let symbol = read(at: pattern) { found.append(symbol) }
        }
        return found
    }

    /// A frame of module coordinates on the image: module (x, y)'s top-left corner lies at
    /// `origin + x · across + y · down`.
    struct Frame {
        var origin: Point
        var across: Point
        var down: Point

        func point(_ x: Double, _ y: Double) -> Point {
            Point(x: origin.x + x * across.x + y * down.x, y: origin.y + x * across.y + y * down.y)
        }

        /// The frame whose module (3.5, 3.5) lies at `center`, turned by `angle`, `module`
        /// pixels a side.
        init(finder center: Point, module: Double, angle: Double) {
            across = Point(x: module * cos(angle), y: module * sin(angle))
            down = Point(x: -module * sin(angle), y: module * cos(angle))
            origin = Point(x: center.x - 3.5 * (across.x + down.x), y: center.y - 3.5 * (across.y + down.y))
        }

        /// The frame of a `width` × `height` symbol whose finder's centre is at `finder`, its
        /// sub-pattern's at `sub`, and whose rows step by `down`.
        init(finder: Point, sub: Point, down: Point, width w: Int, height h: Int) {
            let columns = Double(w - 6), rows = Double(h - 6)
            self.down = down
            across = Point(x: (sub.x - finder.x - rows * down.x) / columns, y: (sub.y - finder.y - rows * down.y) / columns)
            origin = Point(x: finder.x - 3.5 * (across.x + down.x), y: finder.y - 3.5 * (across.y + down.y))
        }

        /// The frame that puts module centre `a` at `pa` and `b` at `pb`, square modules.
        init(_ a: Point, at pa: Point, _ b: Point, at pb: Point) {
            // (pb − pa) = s·e^{iφ} · (b − a), in complex numbers.
            let dx = b.x - a.x, dy = b.y - a.y, px = pb.x - pa.x, py = pb.y - pa.y
            let norm = dx * dx + dy * dy
            let re = (px * dx + py * dy) / norm, im = (py * dx - px * dy) / norm
            across = Point(x: re, y: im)
            down = Point(x: -im, y: re)
            origin = Point(x: pa.x - a.x * across.x - a.y * down.x, y: pa.y - a.x * across.y - a.y * down.y)
        }
    }

    /// Whether the module whose centre is (x + 0.5, y + 0.5) in `frame` is dark; off the
    /// image counts as light.
    func isDark(_ frame: Frame, _ x: Int, _ y: Int) -> Bool {
        isDark(frame.point(Double(x) + 0.5, Double(y) + 0.5))
    }

    /// Whether most of five points of the module (its centre and four a quarter of a
    /// module towards its corners) are dark: noise and a JPEG's ringing flip single pixels.
    func isMostlyDark(_ frame: Frame, _ x: Int, _ y: Int) -> Bool {
        let cx = Double(x) + 0.5, cy = Double(y) + 0.5
        var count = isDark(frame.point(cx, cy)) ? 1 : 0
        for (dx, dy) in [(-0.25, -0.25), (0.25, -0.25), (0.25, 0.25), (-0.25, 0.25)] where isDark(frame.point(cx + dx, cy + dy)) {
            count += 1
        }
        return count >= 3
    }

    func isDark(_ p: Point) -> Bool {
        guard p.x.isFinite, p.y.isFinite, p.x >= 0, p.y >= 0 else { return false }
        let x = Int(p.x), y = Int(p.y)
        guard x < image.width, y < image.height else { return false }
        return dark[y * image.width + x]
    }

    /// The modules whose colour every size draws the same around the finder: the finder,
    /// the separator down its right side and the top edge's timing pattern as far as
    /// column 17 (the first alignment pattern is further along).
    static let orientationProbes: [(x: Int, y: Int, dark: Bool)] = {
        var probes: [(x: Int, y: Int, dark: Bool)] = []
        for y in 0..<7 {
            for x in 0..<7 { probes.append((x, y, max(abs(x - 3), abs(y - 3)) != 2)) }
            probes.append((7, y, false))
        }
        for x in 8...17 { probes.append((x, 0, x % 2 == 0)) }
        return probes
    }()

    /// The small angles tried about each of the four turns, in radians.
    static let angles: [Double] = stride(from: -12.0, through: 12.0, by: 2.0).map { $0 * .pi / 180 }

    /// The symbol whose finder is `pattern`, when one reads.
    func read(at pattern: FinderCensus.Pattern) -> Found? {
        // Every turn and angle scored by its probes; the best few tried further.
        var scored: [(score: Int, angle: Double)] = []
        for turn in 0..<4 {
            for delta in Self.angles {
                let angle = Double(turn) * .pi / 2 + delta
                let frame = Frame(finder: pattern.center, module: pattern.module, angle: angle)
                let score = Self.orientationProbes.reduce(0) { $0 + (isDark(frame, $1.x, $1.y) == $1.dark ? 1 : 0) }
                if score >= Self.leastOrientationMatches { scored.append((score, angle)) }
            }
        }
        for (_, angle) in scored.sorted(by: { $0.score > $1.score }).prefix(3) {
            // The format information beside the finder names the size (width and height
            // are not needed to find that copy). The census measures the finder's module
            // along pixel rows, a few percent off when blur or noise moved its edges, which
            // puts the last bits a third of a module astray: a few sizes are tried.
            var tried = Set<Int>()
            for scale in Self.moduleScales {
                let frame = Frame(finder: pattern.center, module: pattern.module * scale, angle: angle)
                guard let format = RMQRSymbol.formatData(finderSide: true, width: 0, height: 0, isDark: { isMostlyDark(frame, $0, $1) }),
                      format.data & 31 < RMQRSymbol.sizes.count, tried.insert(format.data & 31).inserted else { continue }
                let size = RMQRSymbol.sizes[format.data & 31]
                if let found = read(frame, width: size.width, height: size.height, finder: pattern.center) { return found }
            }
        }
        return nil
    }

    /// The module sizes tried, as shares of the census's.
    static let moduleScales = [1, 0.95, 1.05, 0.9, 1.1]

    /// The symbol of `width` × `height` modules whose finder's centre is at `finder` in
    /// `frame`, its sub-pattern looked for near where the frame puts it.
    func read(_ frame: Frame, width w: Int, height h: Int, finder: Point) -> Found? {
        let subCenter = Point(x: Double(w) - 2.5, y: Double(h) - 2.5)
        guard let sub = subPattern(near: frame.point(subCenter.x, subCenter.y), frame: frame, width: w, height: h) else { return nil }
        let function = RMQRSymbol.functionModules(width: w, height: h)
        let known = (0..<(w * h)).filter { function[$0] != nil && !RMQRSymbol.isFormatModule($0 % w, $0 / w, width: w, height: h) }
        func misses(_ grid: Frame) -> Int {
            known.reduce(0) { $0 + (isDark(grid, $1 % w, $1 / w) != function[$1] ? 1 : 0) }
        }
        // The modules' height and slant, which the two centres leave open (a symbol seen
        // from aside is squeezed or sheared one way): those whose function patterns match best.
        let square = Frame(Point(x: 3.5, y: 3.5), at: finder, subCenter, at: sub)
        var best = (misses: Int.max, down: square.down)
        for step in -8...8 {
            for turn in -4...4 {
                let scale = 1 + Double(step) * 0.025, angle = Double(turn) * 0.75 * .pi / 180
                let down = Point(x: scale * (square.down.x * cos(angle) - square.down.y * sin(angle)),
                                 y: scale * (square.down.x * sin(angle) + square.down.y * cos(angle)))
                let count = misses(Frame(finder: finder, sub: sub, down: down, width: w, height: h))
                if count < best.misses { best = (count, down) }
            }
        }
        // The function patterns must mostly agree before the data is decoded.
        guard 8 * best.misses <= known.count else { return nil }
        // Nudges of the sub-pattern's centre by a quarter of a module, nearest first.
        var nudges: [(Double, Double)] = []
        for dy in -1...1 { for dx in -1...1 { nudges.append((Double(dx) / 4, Double(dy) / 4)) } }
        nudges.sort { $0.0 * $0.0 + $0.1 * $0.1 < $1.0 * $1.0 + $1.1 * $1.1 }
        for (dx, dy) in nudges {
            let target = Point(x: sub.x + (dx * square.across.x + dy * square.down.x),
                               y: sub.y + (dx * square.across.y + dy * square.down.y))
            let grid = Frame(finder: finder, sub: target, down: best.down, width: w, height: h)
            let modules = (0..<(w * h)).map { isMostlyDark(grid, $0 % w, $0 / w) }
            if let symbol = RMQRSymbol.read(modules, width: w, height: h) {
                let corners = [grid.point(0, 0), grid.point(Double(w), 0), grid.point(Double(w), Double(h)), grid.point(0, Double(h))]
                return Found(symbol: symbol, corners: corners)
            }
        }
        return nil
    }

    /// The centre of the sub-pattern near `guess` (in a window of `frame`'s modules that
    /// grows with the symbol's width), where its 5 × 5 modules and the timing patterns
    /// leading to it match best, the nearest of equals.
    func subPattern(near guess: Point, frame: Frame, width w: Int, height h: Int) -> Point? {
        var probes: [(x: Int, y: Int, dark: Bool)] = []
        for y in -2...2 {
            for x in -2...2 { probes.append((x, y, max(abs(x), abs(y)) != 1)) }
        }
        // Along the bottom edge to the left and up the right edge (columns and rows of the
        // symbol counted from the sub-pattern's centre, which is at (w − 3, h − 3)).
        for k in 3...8 {
            probes.append((-k, 2, (w - 3 - k) % 2 == 0))
            probes.append((2, -k, (h - 3 - k) % 2 == 0))
        }
        func score(_ ox: Double, _ oy: Double) -> Int {
            let center = Point(x: guess.x + ox * frame.across.x + oy * frame.down.x,
                               y: guess.y + ox * frame.across.y + oy * frame.down.y)
            var score = 0
            for p in probes {
                let q = Point(x: center.x + Double(p.x) * frame.across.x + Double(p.y) * frame.down.x,
                              y: center.y + Double(p.x) * frame.across.y + Double(p.y) * frame.down.y)
                if isDark(q) == p.dark { score += 1 }
            }
            return score
        }
        // The finder's module, measured on its rings, may be a few percent off, and the
        // angle a degree or two: the guess strays further the longer the symbol. Half a
        // module at a time over the window, then a quarter about the best.
        var best: (score: Int, distance: Double, x: Double, y: Double)?
        func consider(_ ox: Double, _ oy: Double) {
            let value = score(ox, oy), distance = ox * ox + oy * oy
            if best.map({ value > $0.score || value == $0.score && distance < $0.distance }) ?? true {
                best = (value, distance, ox, oy)
            }
        }
        let reachX = Int(2 * (3 + 0.06 * Double(w))), reachY = Int(2 * (3 + 0.04 * Double(w)))
        for j in -reachY...reachY {
            for i in -reachX...reachX { consider(Double(i) / 2, Double(j) / 2) }
        }
        if let coarse = best {
            for j in -1...1 {
                for i in -1...1 where i != 0 || j != 0 { consider(coarse.x + Double(i) / 4, coarse.y + Double(j) / 4) }
            }
        }
        guard let best, best.score * 10 >= probes.count * 9 else { return nil }
        return Point(x: guess.x + best.x * frame.across.x + best.y * frame.down.x,
                     y: guess.y + best.x * frame.across.y + best.y * frame.down.y)
    }
}

extension RMQRSymbol {
    /// Whether (x, y) holds format information in a `width` × `height` symbol.
    static func isFormatModule(_ x: Int, _ y: Int, width w: Int, height h: Int) -> Bool {
        (x >= 8 && x <= 10 && y >= 1 && y <= 5) || (x == 11 && y >= 1 && y <= 3)
            || (x >= w - 8 && x <= w - 6 && y >= h - 6 && y <= h - 2) || (y == h - 6 && x >= w - 5 && x <= w - 3)
    }
}
