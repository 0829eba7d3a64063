/// The parts of a sparse picture worth giving Tesseract: rectangles around groups of
/// letter-like marks near each other (words, lines, a label's block), each with a margin.
///
/// A camera frame with a few words on it is mostly ground, and Tesseract's sparse-text mode
/// spends most of its time on that ground (thresholding it, sorting its blobs into lines and
/// recognising mottles as letters). Recognising only these rectangles reads the same words in
/// a fraction of the time. Marks join a group when their boxes, grown by their own height
/// across and half of it up and down, meet; a group made only of specks (under half the
/// letters' median height) is ground, and left out.
struct TextRegions {
    /// More marks than this and grouping them costs more than it saves: the picture is read whole.
    static let maxMarks = 3000
    /// Rectangles covering more than this share of the picture: read it whole.
    static let maxCoverage = 0.5

    /// The rectangles, top to bottom, then left to right; nil when the picture should be read
    /// whole (no letters found, too many marks, or, when `limited`, the groups cover most of it).
    static func regions(marks: [Region], letterHeight: Double?, width: Int, height: Int, limited: Bool = true) -> [Region]? {
        guard let letterHeight, !marks.isEmpty, marks.count <= maxMarks, width > 0, height > 0 else { return nil }
        let sorted = marks.sorted { $0.x < $1.x }
        var parent = Array(0..<sorted.count)
        func root(_ i: Int) -> Int {
            var i = i
            while parent[i] != i { parent[i] = parent[parent[i]]; i = parent[i] }
            return i
        }
        let tallest = sorted.map(\.height).max()!
        for i in sorted.indices {
            let a = sorted[i]
            // Sorted by left edge: no mark further right than the widest possible gap can join.
            var j = i + 1
            while j < sorted.count, sorted[j].x <= a.x + a.width + max(a.height, tallest) {
                let b = sorted[j]
                let across = max(a.height, b.height)
                let upDown = across / 2
                if b.x <= a.x + a.width + across, a.x <= b.x + b.width + across,
                   b.y <= a.y + a.height + upDown, a.y <= b.y + b.height + upDown {
                    let ra = root(i), rb = root(j)
                    if ra != rb { parent[ra] = rb }
                }
                j += 1
            }
        }
        var groups: [Int: (box: Region, tallest: Int)] = [:]
        for i in sorted.indices {
            let r = root(i), m = sorted[i]
            if let g = groups[r] {
                groups[r] = (g.box.union(m), max(g.tallest, m.height))
            } else {
                groups[r] = (m, m.height)
            }
        }
        var boxes: [Region] = []
        for group in groups.values where Double(group.tallest) >= letterHeight / 2 {
            // A margin of a letter's height at least: Tesseract needs ground around the ink
            // to threshold it, and punctuation or accents smaller than a mark lie there.
            let margin = max(8, group.tallest)
            let grown = Region(x: group.box.x - margin, y: group.box.y - margin,
                               width: group.box.width + 2 * margin, height: group.box.height + 2 * margin)
            if let inside = grown.clipped(toWidth: width, height: height) { boxes.append(inside) }
        }
        // Grown rectangles that now overlap become one, so that no word is read twice.
        var merging = true
        while merging {
            merging = false
            outer: for i in boxes.indices {
                for j in boxes.indices where j > i && boxes[i].intersects(boxes[j]) {
                    boxes[i] = boxes[i].union(boxes[j])
                    boxes.remove(at: j)
                    merging = true
                    break outer
                }
            }
        }
        guard !boxes.isEmpty, !coverMost(boxes, width: width, height: height) || !limited else { return nil }
        return boxes.sorted { ($0.y, $0.x) < ($1.y, $1.x) }
    }

    /// Whether `boxes` cover more than `maxCoverage` of a `width` × `height` picture.
    static func coverMost(_ boxes: [Region], width: Int, height: Int) -> Bool {
        let area = boxes.reduce(0) { $0 + $1.width * $1.height }
        return Double(area) > maxCoverage * Double(width) * Double(height)
    }

    /// `region` cut in two across the blank rows between its lines nearest its middle, so
    /// that two recognizers can read its halves side by side, top first; `region` alone
    /// when it holds one line, or when fewer than `minBandLetters` of `letters` (boxes of
    /// marks, in the same pixels) lie in either half (a piece that small costs more to
    /// hand over than it saves).
    static func bands(of region: Region, letters: [Region]) -> [Region] {
        let inside = letters.filter { r in
            let cx = r.x + r.width / 2, cy = r.y + r.height / 2
            return cx >= region.x && cx < region.x + region.width && cy >= region.y && cy < region.y + region.height
        }
        guard inside.count >= 2 * minBandLetters else { return [region] }
        var inked = [Bool](repeating: false, count: region.height)
        for r in inside {
            for y in max(r.y, region.y)..<min(r.y + r.height, region.y + region.height) { inked[y - region.y] = true }
        }
        guard let first = inked.firstIndex(of: true), let last = inked.lastIndex(of: true) else { return [region] }
        // The blank runs between the first and the last inked row, by their middles.
        var cuts: [Int] = []
        var y = first
        while y <= last {
            if inked[y] { y += 1; continue }
            let start = y
            while y <= last, !inked[y] { y += 1 }
            cuts.append((start + y) / 2)
        }
        let middle = (first + last) / 2
        for cut in cuts.sorted(by: { abs($0 - middle) < abs($1 - middle) }) {
            let above = inside.filter { $0.y + $0.height / 2 < region.y + cut }.count
            guard above >= minBandLetters, inside.count - above >= minBandLetters else { continue }
            return [Region(x: region.x, y: region.y, width: region.width, height: cut),
                    Region(x: region.x, y: region.y + cut, width: region.width, height: region.height - cut)]
        }
        return [region]
    }

    /// The fewest letters each half of a rectangle cut in two must hold (`bands(of:letters:)`):
    /// about a line of a dozen words.
    static let minBandLetters = 60

    /// Whether no two of `regions` share a row: each below the one before, in one reading order.
    static func isStacked(_ regions: [Region]) -> Bool {
        var bottom = Int.min
        for r in regions.sorted(by: { $0.y < $1.y }) {
            guard r.y >= bottom else { return false }
            bottom = r.y + r.height
        }
        return true
    }
}
