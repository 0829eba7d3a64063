import FoundationEssentials
import Glibc

/// Our own MicroPDF417 reader (ISO/IEC 24728): MicroPDF417 has no start or stop pattern,
/// only row address patterns (RAPs) beside its codewords, which neither zbar nor libZXing 1.4
/// reads. Scan lines along the rows and along the columns, both ways, read each RAP with the
/// codeword beside it (`MicroPDF417Lines`); the codewords are gathered by vote under their
/// RAP's number (`MicroPDF417Votes`), and each variant's grid is filled from them and
/// decoded through its Reed–Solomon check codewords (`MicroPDF417Symbol`). A symbol turned a
/// few degrees is read by lines at angles around its rows, over the region its first
/// fragments came from.
struct MicroPDF417Reader {
    let image: GrayImage
    /// The image binarized as `Binarizer.binarized(_:)` makes it: true is dark.
    let dark: [Bool]
    /// The runs of `dark` along each row.
    let runs: RowRuns

    /// Fragments followed by their next row's (`MicroPDF417Votes.successions`) that make a
    /// family of lines worth decoding, and reading at angles around it.
    static let leastSuccessions = 2
    /// The first look at a picture reads every this many rows and columns: a row two
    /// modules high still shows on two lines of it from modules of 1.5 pixels.
    static let lookStep = 2
    /// The angles (degrees) either side of the rows' or the columns' direction at which
    /// lines are laid when the straight ones read fragments but no symbol.
    static let turns: [Double] = stride(from: 1.5, through: 12, by: 1.5).flatMap { [-$0, $0] }
    /// How many bar regions, largest first, `readTurned` looks in.
    static let turnedRegions = 3
    /// Degrees within which a bar region lies along the rows or the columns.
    static let onAxis = 4.0
    /// The modules the largest symbol spans, across its rows and along them: four columns
    /// wide (three RAPs of 10 modules, four codewords of 17 and the stop bar, 99 modules),
    /// and 44 rows of at least 2 modules high (ISO/IEC 24728, Table 1).
    static let largestSpan = 99.0

    init(image: GrayImage, dark: [Bool]? = nil, runs: RowRuns? = nil) {
        self.image = image
        let dark = dark ?? Binarizer.binarized(image)
        self.dark = dark
        self.runs = runs ?? RowRuns(dark: dark, width: image.width, height: image.height)
    }

    /// The MicroPDF417 symbol read, corners in the image's pixels; at most one.
    func read() -> [(candidate: Candidate, symbol: MicroPDF417Symbol)] {
        let w = image.width, h = image.height
        guard max(w, h) >= 20, min(w, h) >= 4, dark.count == w * h, runs.width == w, runs.height == h else { return [] }
        for across in [false, true] {
            // A first look gathers only the evidence; the codewords are counted on a second.
            var look = MicroPDF417Votes()
            look.tally = false
            if across { readColumns(into: &look, step: Self.lookStep) } else { readRows(into: &look, step: Self.lookStep) }
            guard look.successions >= Self.leastSuccessions else { continue }
            var votes = MicroPDF417Votes()
            if across { readColumns(into: &votes) } else { readRows(into: &votes) }
            if let read = decoded(votes) { return [read] }
            // Lines at small angles to the straight ones, over the region the fragments came from.
            guard let box = votes.box else { continue }
            let pad = 30 * votes.module
            let region = (minX: max(0, box.minX - pad), minY: max(0, box.minY - pad),
                          maxX: min(Double(w), box.maxX + pad), maxY: min(Double(h), box.maxY + pad))
            // Nearest angles first, decoding after each pair: the votes of lines far off the
            // rows add more noise than codewords.
            for pair in stride(from: 0, to: Self.turns.count - 1, by: 2) {
                for turn in Self.turns[pair...(pair + 1)] { readLines(at: (across ? 90 : 0) + turn, in: region, into: &votes) }
                if let read = decoded(votes) { return [read] }
            }
        }
        return []
    }

    /// The symbol `votes` make, with its corners; nil when none checks.
    func decoded(_ votes: MicroPDF417Votes) -> (candidate: Candidate, symbol: MicroPDF417Symbol)? {
        guard let symbol = MicroPDF417Symbol.decode(votes), let corners = Self.corners(symbol.variant, votes) else { return nil }
        var candidate = Candidate(symbology: .microPDF417, bytes: symbol.text.bytes, corners: corners,
                                  engineText: symbol.text.text, declaresCharacterSet: symbol.text.declaresCharacterSet)
        candidate.isSoundlyChecked = symbol.isSoundlyChecked
        return (candidate, symbol)
    }

    // MARK: - Lines

    /// Every `step`-th row, read both ways, from its runs.
    func readRows(into votes: inout MicroPDF417Votes, step: Int = 1) {
        var forward: [MicroPDF417Fragment] = [], backward: [MicroPDF417Fragment] = []
        var widths: [Double] = [], found: [MicroPDF417Fragment] = [], sums: [Double] = []
        let width = Double(image.width)
        for y in stride(from: 0, to: image.height, by: max(1, step)) {
            let a = runs.first[y], b = runs.first[y + 1]
            guard b - a >= 15 else {
                forward = []
                backward = []
                continue
            }
            widths.removeAll(keepingCapacity: true)
            for i in a..<(b - 1) { widths.append(Double(runs.bounds[i + 1] - runs.bounds[i])) }
            let firstDark = runs.firstDark[y], lastDark = firstDark == (widths.count % 2 == 1)
            let row = Double(y) + 0.5
            votes.line = y
            read(widths, firstDark: firstDark, origin: Point(x: 0, y: row), direction: Point(x: 1, y: 0),
                 found: &found, sums: &sums, previous: &forward, votes: &votes)
            widths.reverse()
            read(widths, firstDark: lastDark, origin: Point(x: width, y: row), direction: Point(x: -1, y: 0),
                 found: &found, sums: &sums, previous: &backward, votes: &votes)
        }
    }

    /// Every `step`-th column, read both ways.
    func readColumns(into votes: inout MicroPDF417Votes, step: Int = 1) {
        let w = image.width, h = image.height
        var forward: [MicroPDF417Fragment] = [], backward: [MicroPDF417Fragment] = []
        var widths: [Double] = [], found: [MicroPDF417Fragment] = [], sums: [Double] = []
        dark.withUnsafeBufferPointer { dark in
            for x in stride(from: 0, to: w, by: max(1, step)) {
                widths.removeAll(keepingCapacity: true)
                let firstDark = dark[x]
                var colour = firstDark, length = 0
                for y in 0..<h {
                    if dark[y * w + x] == colour {
                        length += 1
                    } else {
                        widths.append(Double(length))
                        colour.toggle()
                        length = 1
                    }
                }
                widths.append(Double(length))
                let column = Double(x) + 0.5
                votes.line = x
                read(widths, firstDark: firstDark, origin: Point(x: column, y: 0), direction: Point(x: 0, y: 1),
                     found: &found, sums: &sums, previous: &forward, votes: &votes)
                widths.reverse()
                read(widths, firstDark: colour, origin: Point(x: column, y: Double(h)), direction: Point(x: 0, y: -1),
                     found: &found, sums: &sums, previous: &backward, votes: &votes)
            }
        }
    }

    /// Lines at `degrees` (0 along the rows, 90 down the columns) one pixel apart across
    /// `region` (clipped to the image), each sampled a pixel at a time from the binarized
    /// image where it crosses the region, and read both ways.
    func readLines(at degrees: Double, in box: (minX: Double, minY: Double, maxX: Double, maxY: Double),
                   into votes: inout MicroPDF417Votes) {
        let w = image.width, h = image.height
        let minX = max(0, box.minX), minY = max(0, box.minY)
        let maxX = min(Double(w), box.maxX), maxY = min(Double(h), box.maxY)
        guard degrees.isFinite, minX.isFinite, minY.isFinite, maxX.isFinite, maxY.isFinite,
              maxX - minX >= 20, maxY - minY >= 4 else { return }
        let angle = degrees * .pi / 180
        let d = Point(x: cos(angle), y: sin(angle)), normal = Point(x: -sin(angle), y: cos(angle))
        let cx = (minX + maxX) / 2, cy = (minY + maxY) / 2
        let half = Int((((maxX - minX) * (maxX - minX) + (maxY - minY) * (maxY - minY)).squareRoot() / 2).rounded(.up))
        // The stretch of a line's parameter s (from the centre's foot, along d) inside [low, high)
        // of one coordinate, given the coordinate at s = 0 and its rate.
        func slab(_ at0: Double, _ rate: Double, _ low: Double, _ high: Double) -> (Double, Double) {
            if abs(rate) < 1e-12 { return at0 >= low && at0 < high ? (-.infinity, .infinity) : (1, 0) }
            let a = (low - at0) / rate, b = (high - 1e-9 - at0) / rate
            return (min(a, b), max(a, b))
        }
        var forward: [MicroPDF417Fragment] = [], backward: [MicroPDF417Fragment] = []
        var widths: [Double] = [], found: [MicroPDF417Fragment] = [], sums: [Double] = []
        dark.withUnsafeBufferPointer { dark in
            for t in -half...half {
                votes.line = t
                let fx = cx + Double(t) * normal.x, fy = cy + Double(t) * normal.y
                let (ax, bx) = slab(fx, d.x, minX, maxX), (ay, by) = slab(fy, d.y, minY, maxY)
                let first = Int(max(ax, ay, Double(-half)).rounded(.up)), last = Int(min(bx, by, Double(half)).rounded(.down))
                guard last - first >= 40 else {
                    forward = []
                    backward = []
                    continue
                }
                widths.removeAll(keepingCapacity: true)
                var colour = false, length = 0, firstDark = false
                for s in first...last {
                    let x = min(max(Int(fx + Double(s) * d.x), 0), w - 1), y = min(max(Int(fy + Double(s) * d.y), 0), h - 1)
                    let here = dark[y * w + x]
                    if s == first {
                        colour = here
                        firstDark = here
                        length = 1
                    } else if here == colour {
                        length += 1
                    } else {
                        widths.append(Double(length))
                        colour = here
                        length = 1
                    }
                }
                widths.append(Double(length))
                guard widths.count >= 15 else {
                    forward = []
                    backward = []
                    continue
                }
                let origin = Point(x: fx + Double(first) * d.x, y: fy + Double(first) * d.y)
                let end = Point(x: fx + Double(last + 1) * d.x, y: fy + Double(last + 1) * d.y)
                read(widths, firstDark: firstDark, origin: origin, direction: d, found: &found, sums: &sums, previous: &forward, votes: &votes)
                widths.reverse()
                read(widths, firstDark: colour, origin: end, direction: Point(x: -d.x, y: -d.y),
                     found: &found, sums: &sums, previous: &backward, votes: &votes)
            }
        }
    }

    /// Symbols turned off the axes, where bar regions (`BarRegions`) were found (found here
    /// when nil): lines across the bars of each region, and at small angles to that, over
    /// the box around it and the regions whose bars lie the same way (a symbol's left and
    /// right RAPs, whose bars run its whole height, often make two regions of their own),
    /// grown, once a RAP is read there, to what the largest symbol could fill around it.
    func readTurned(_ given: [BarRegion]?) -> [(candidate: Candidate, symbol: MicroPDF417Symbol)] {
        let w = image.width, h = image.height
        guard max(w, h) >= 20, min(w, h) >= 4, dark.count == w * h else { return [] }
        let regions = (given ?? BarRegions.find(in: image)).filter {
            $0.x.isFinite && $0.y.isFinite && $0.angle.isFinite && $0.across.isFinite && $0.along.isFinite
        }
        // Whether two regions' bars lie within 10° of each other, either way round.
        func alike(_ a: BarRegion, _ b: BarRegion) -> Bool {
            let difference = abs(remainder(a.angle - b.angle, .pi))
            return difference < 10 * .pi / 180
        }
        // Regions whose bars lie within a few degrees of the rows or columns are the pass
        // along them's (`read()`, which also tries angles around them).
        let offAxis = regions.filter { abs(remainder($0.angle, .pi / 2)) > Self.onAxis * .pi / 180 }
        for region in offAxis.prefix(Self.turnedRegions) {
            var box = (minX: Double.infinity, minY: Double.infinity, maxX: -Double.infinity, maxY: -Double.infinity)
            for other in regions where alike(region, other) {
                let reach = max(other.across, other.along) * 1.5 + 8
                box = (min(box.minX, other.x - reach), min(box.minY, other.y - reach),
                       max(box.maxX, other.x + reach), max(box.maxY, other.y + reach))
            }
            let degrees = region.angle * 180 / .pi
            var look = MicroPDF417Votes()
            look.tally = false
            readLines(at: degrees, in: box, into: &look)
            if look.successions < Self.leastSuccessions {
                // A RAP read with a codeword beside it, but no succession of rows: the region
                // may be that RAP's bars alone (a photo's blur leaves the codewords' bars too
                // short to show as one), and the symbol reach from it, either way, as far as
                // the largest one spans at the module the RAPs read measure. The evidence is
                // looked for again over that box.
                guard look.modules > 0 else { continue }
                let reach = Self.largestSpan * look.module
                box = (min(box.minX, region.x - reach), min(box.minY, region.y - reach),
                       max(box.maxX, region.x + reach), max(box.maxY, region.y + reach))
                look = MicroPDF417Votes()
                look.tally = false
                readLines(at: degrees, in: box, into: &look)
                guard look.successions >= Self.leastSuccessions else { continue }
            }
            var votes = MicroPDF417Votes()
            readLines(at: degrees, in: box, into: &votes)
            if let read = decoded(votes) { return [read] }
            for pair in stride(from: 0, to: Self.turns.count - 1, by: 2) {
                for turn in Self.turns[pair...(pair + 1)] { readLines(at: degrees + turn, in: box, into: &votes) }
                if let read = decoded(votes) { return [read] }
            }
        }
        return []
    }

    /// Reads one line's fragments into `votes`.
    private func read(_ widths: [Double], firstDark: Bool, origin: Point, direction: Point,
                      found: inout [MicroPDF417Fragment], sums: inout [Double], previous: inout [MicroPDF417Fragment],
                      votes: inout MicroPDF417Votes) {
        found.removeAll(keepingCapacity: true)
        widths.withUnsafeBufferPointer {
            MicroPDF417Lines.fragments(widths: $0, firstDark: firstDark, sums: &sums, into: &found)
        }
        votes.add(found, origin: origin, direction: direction, previous: &previous)
    }

    // MARK: - Corners

    /// The symbol's corners, top-left, top-right, bottom-right, bottom-left as read: lines
    /// fitted through the outer edges of its left and of its right RAPs, row by row, taken
    /// half a row beyond the first and the last. Nil when neither side was seen in two rows.
    static func corners(_ variant: MicroPDF417Variant, _ votes: MicroPDF417Votes) -> [Point]? {
        // Each side's edge points by row.
        func side(_ left: Bool) -> [(row: Double, point: Point)] {
            (0..<variant.rows).compactMap { row in
                let key = MicroPDF417Fragment.Key(
                    rap: .init(isCentre: false, number: MicroPDF417Variant.address(left ? variant.left : variant.right, row: row)),
                    after: left, cluster: variant.cluster(row: row))
                guard let edge = votes.edges[key], edge.count > 0 else { return nil }
                return (Double(row), Point(x: edge.sum.x / Double(edge.count), y: edge.sum.y / Double(edge.count)))
            }
        }
        // The least-squares line point(row) = a + b · row.
        func fit(_ points: [(row: Double, point: Point)]) -> (a: Point, b: Point)? {
            guard points.count >= 2 else { return nil }
            let n = Double(points.count)
            let mr = points.reduce(0) { $0 + $1.row } / n
            let mx = points.reduce(0) { $0 + $1.point.x } / n, my = points.reduce(0) { $0 + $1.point.y } / n
            let srr = points.reduce(0) { $0 + ($1.row - mr) * ($1.row - mr) }
            guard srr > 0 else { return nil }
            let bx = points.reduce(0) { $0 + ($1.row - mr) * ($1.point.x - mx) } / srr
            let by = points.reduce(0) { $0 + ($1.row - mr) * ($1.point.y - my) } / srr
            return (Point(x: mx - bx * mr, y: my - by * mr), Point(x: bx, y: by))
        }
        // A symbol's width in modules: the RAPs, the codewords and the stop bar.
        let widthModules = Double(10 * (variant.columns >= 3 ? 3 : 2) + 17 * variant.columns + 1)
        let module = votes.module
        let leftLine = fit(side(true)), rightLine = fit(side(false))
        // A side not seen is the other moved across the symbol, along the lines' direction.
        func moved(_ line: (a: Point, b: Point), by sign: Double) -> (a: Point, b: Point) {
            let b = line.b, length = (b.x * b.x + b.y * b.y).squareRoot()
            guard length > 0 else { return line }
            // Perpendicular to the side, towards the symbol's right when reading it.
            let across = Point(x: b.y / length, y: -b.x / length)
            let shift = sign * widthModules * module
            return (Point(x: line.a.x + across.x * shift, y: line.a.y + across.y * shift), b)
        }
        guard let left = leftLine ?? rightLine.map({ moved($0, by: -1) }),
              let right = rightLine ?? leftLine.map({ moved($0, by: 1) }) else { return nil }
        func at(_ line: (a: Point, b: Point), _ row: Double) -> Point {
            Point(x: line.a.x + line.b.x * row, y: line.a.y + line.b.y * row)
        }
        let top = -0.5, bottom = Double(variant.rows) - 0.5
        return [at(left, top), at(right, top), at(right, bottom), at(left, bottom)]
    }
}
