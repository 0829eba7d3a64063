extension QRLocator {
    /// How far, in modules either way, the bottom-right corner of a Model 1 symbol is looked
    /// for from where the finders' parallelogram puts it, and in what steps.
    static let model1CornerReach = 4.0, model1CornerStep = 0.5

    /// The QR Code Model 1 symbol through `triple` seen in perspective, which has no
    /// alignment pattern to place its bottom-right corner: the corner is moved over a grid
    /// of positions around the parallelogram's, and the mappings whose fixed modules there
    /// (the extension patterns on the right and bottom edges, the corner's pattern and the
    /// quiet zone beyond) agree best are decoded, the best first. Nil when none reads.
    func model1InPerspective(_ t: FinderTriple, dimension n: Int) -> [Candidate]? {
        let d = Double(n), near = 3.5, far = d - 3.5
        let tl = t.topLeft.center, tr = t.topRight.center, bl = t.bottomLeft.center
        let square = [Point(x: near, y: near), Point(x: far, y: near), Point(x: far, y: far), Point(x: near, y: far)]
        let corner = Point(x: tr.x + bl.x - tl.x, y: tr.y + bl.y - tl.y)
        guard let parallelogram = Homography(from: square, to: [tl, tr, corner, bl]) else { return nil }
        func value(_ mapping: Homography, _ column: Int, _ row: Int) -> Double {
            let p = mapping.apply(Double(column) + 0.5, Double(row) + 0.5)
            return image.bilinear(p.x, p.y, centres: .halfway, outside: .paper)
        }
        let threshold = (value(parallelogram, 3, 3) + value(parallelogram, 1, 3)) / 2
        let known = Self.model1FixedModules(dimension: n)
        let (across, down) = parallelogram.steps(far, far)
        let steps = Int(Self.model1CornerReach / Self.model1CornerStep)
        var scored: [(agreement: Int, shift: Double, mapping: Homography)] = []
        for j in -steps...steps {
            for i in -steps...steps {
                let a = Double(i) * Self.model1CornerStep, b = Double(j) * Self.model1CornerStep
                let moved = Point(x: corner.x + a * across.x + b * down.x, y: corner.y + a * across.y + b * down.y)
                guard let mapping = Homography(from: square, to: [tl, tr, moved, bl]) else { continue }
                let agreement = known.reduce(0) { $0 + ((value(mapping, $1.x, $1.y) < threshold) == $1.dark ? 1 : 0) }
                scored.append((agreement, a * a + b * b, mapping))
            }
        }
        let best = scored.sorted { ($0.agreement, -$0.shift) > ($1.agreement, -$1.shift) }
        for candidate in best.prefix(3) {
            let grid = ModuleGrid(dimension: n, mapping: candidate.mapping)
            if let read = QRModel1.read(grid.modules(in: image), dimension: n) { return [Self.candidate(read, grid: grid)] }
        }
        return nil
    }

    /// The modules of a Model 1 symbol of `dimension` that do not depend on its data near its
    /// bottom-right corner: the extension patterns (a light column inside a dark one on the
    /// right edge, a light row above a dark one on the bottom edge), the corner's three light
    /// modules round a dark one, and the quiet zone's first column and row beside them.
    static func model1FixedModules(dimension n: Int) -> [(x: Int, y: Int, dark: Bool)] {
        let version = (n - 17) / 4, rightRows = version + 2
        var known: [(x: Int, y: Int, dark: Bool)] = [(n - 1, n - 1, true), (n - 2, n - 1, false),
                                                     (n - 1, n - 2, false), (n - 2, n - 2, false)]
        for i in stride(from: 2, to: rightRows - 1, by: 2) {
            for dy in 0..<4 { known += [(n - 2, n - 1 - 4 * i - dy, false), (n - 1, n - 1 - 4 * i - dy, true)] }
        }
        for group in stride(from: 1, to: version, by: 2) {
            for dx in 0..<4 { known += [(n - 5 - 4 * group - dx, n - 2, false), (n - 5 - 4 * group - dx, n - 1, true)] }
        }
        for k in 1...12 { known += [(n, n - k, false), (n - k, n, false)] }
        return known
    }

    /// Whether the format information sampled through `mapping` (as it is or mirrored, each
    /// module thresholded midway between the top-left finder's dark core and light ring) is
    /// QR Code Model 1's, which has no version information: its data modules lie there.
    func holdsModel1(_ mapping: Homography, dimension n: Int) -> Bool {
        guard QRModel1.versions.contains((n - 17) / 4) else { return false }
        func value(_ column: Int, _ row: Int) -> Double {
            let p = mapping.apply(Double(column) + 0.5, Double(row) + 0.5)
            return image.bilinear(p.x, p.y, centres: .halfway, outside: .paper)
        }
        let threshold = (value(3, 3) + value(1, 3)) / 2
        guard value(1, 3) - value(3, 3) > 10 else { return false }
        return [false, true].contains { transposed in
            QRModel1.formatData(dimension: n) { x, y in (transposed ? value(y, x) : value(x, y)) < threshold } != nil
        }
    }
}
