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
    /// whole (no letters found, too many marks, or the groups cover most of it).
    static func regions(marks: [Region], letterHeight: Double?, width: Int, height: Int) -> [Region]? {
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
        guard !boxes.isEmpty else { return nil }
        let area = boxes.reduce(0) { $0 + $1.width * $1.height }
        guard Double(area) <= maxCoverage * Double(width) * Double(height) else { return nil }
        return boxes.sorted { ($0.y, $0.x) < ($1.y, $1.x) }
    }

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
