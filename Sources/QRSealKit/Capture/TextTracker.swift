/// What a live text session reports about one block of text, as `ScanEvent` does for a symbol.
public struct TextEvent: Sendable, Equatable {
    /// `add` once the block is stable, `update` when its text (or place) changed and the
    /// change is stable too, `remove` once it is gone.
    public let kind: ScanEvent.Kind
    /// The block's number in this session, counted from 1 (apart from the symbols' ids).
    public let id: Int
    /// The block as last recognised, boxes in the frame's pixels.
    public let block: TextBlock
    /// The frame whose recognition decided the event, and that frame's time in seconds.
    public let frame: Int
    public let time: Double
    /// Whether the block's text is new: in an add, and in an update whose text changed
    /// (not in one where the block only moved).
    public let textChanged: Bool

    public init(kind: ScanEvent.Kind, id: Int, block: TextBlock, frame: Int, time: Double, textChanged: Bool) {
        self.kind = kind
        self.id = id
        self.block = block
        self.frame = frame
        self.time = time
        self.textChanged = textChanged
    }
}

/// Follows text blocks from one recognition to the next by text and position.
///
/// A block is added once seen alike (text similarity ≥ `alike`) in `confirmations`
/// recognitions in a row; a block whose text changes in place is updated once the new text
/// is seen alike as often; a block no recognition of its area finds `confirmations` times in
/// a row is removed. A recognition may cover only part of the frame: blocks outside it are
/// left as they are.
struct TextTracker: Sendable {
    private struct Track: Sendable {
        var id: Int?
        /// The block last recognised.
        var block: TextBlock
        /// The block last reported (in its add or latest update).
        var reported: TextBlock?
        /// Recognitions in a row that read `block`'s text alike (before the add), or that
        /// read a text unlike the reported one and alike each other (after it).
        var sightings: Int
        /// Recognitions in a row of its area that did not find it.
        var misses: Int
    }

    let confirmations: Int
    /// Text similarity (0–1) at or above which two readings count as the same text.
    let alike: Double

    private var tracks: [Track] = []
    private var nextID = 1
    private var lastFrame = 0
    private var lastTime = 0.0

    init(confirmations: Int = 2, alike: Double = 0.85) {
        self.confirmations = max(1, confirmations)
        self.alike = alike
    }

    /// The stable blocks in view, by id.
    var inView: [(id: Int, block: TextBlock)] {
        tracks.compactMap { t in t.id.map { ($0, t.reported ?? t.block) } }.sorted { $0.id < $1.id }
    }

    /// Whether another recognition of an unchanged picture could decide something: a block
    /// not yet stable, a change not yet confirmed, a block missed but not yet removed.
    var isUnsettled: Bool {
        tracks.contains { $0.id == nil || $0.misses > 0 || $0.sightings > 0 }
    }

    /// The boxes of the blocks `isUnsettled` is waiting on.
    var unsettledBoxes: [Region] {
        tracks.filter { $0.id == nil || $0.misses > 0 || $0.sightings > 0 }.map(\.block.box)
    }

    /// The boxes of every block followed, stable or not.
    var boxes: [Region] { tracks.map(\.block.box) }

    /// Takes the blocks of one recognition of `region` (boxes in frame pixels); returns its
    /// events: adds and updates in the blocks' order, then removes by id.
    mutating func update(with blocks: [TextBlock], in region: Region, frame: Int, time: Double) -> [TextEvent] {
        lastFrame = frame
        lastTime = time
        let assignment = match(blocks)
        var events: [TextEvent] = []
        var seen = Set<Int>()
        for (index, block) in blocks.enumerated() {
            guard let t = assignment[index] else {
                tracks.append(Track(id: nil, block: block, reported: nil, sightings: 1, misses: 0))
                seen.insert(tracks.count - 1)
                if confirmations == 1 { events.append(add(tracks.count - 1, frame: frame, time: time)) }
                continue
            }
            seen.insert(t)
            let previous = tracks[t].block
            tracks[t].block = block
            tracks[t].misses = 0
            guard let reported = tracks[t].reported, let id = tracks[t].id else {
                tracks[t].sightings = similarity(previous.text, block.text) >= alike ? tracks[t].sightings + 1 : 1
                if tracks[t].sightings >= confirmations { events.append(add(t, frame: frame, time: time)) }
                continue
            }
            if similarity(reported.text, block.text) >= alike {
                tracks[t].sightings = 0
                if moved(reported.box, block.box) {
                    tracks[t].reported = block
                    events.append(TextEvent(kind: .update, id: id, block: block, frame: frame, time: time, textChanged: false))
                }
                continue
            }
            // A text unlike the one reported: an update once it is read alike often enough.
            let again = tracks[t].sightings > 0 && similarity(previous.text, block.text) >= alike
            tracks[t].sightings = again ? tracks[t].sightings + 1 : 1
            if tracks[t].sightings >= confirmations {
                tracks[t].sightings = 0
                tracks[t].reported = block
                events.append(TextEvent(kind: .update, id: id, block: block, frame: frame, time: time, textChanged: true))
            }
        }
        var kept: [Track] = []
        var removed: [TextEvent] = []
        for (index, var track) in tracks.enumerated() {
            if seen.contains(index) || !track.block.box.intersects(region) {
                kept.append(track)
                continue
            }
            track.misses += 1
            if track.id == nil {
                continue   // never stable: dropped at its first miss
            }
            if track.misses < confirmations {
                kept.append(track)
            } else if let id = track.id {
                removed.append(TextEvent(kind: .remove, id: id, block: track.reported ?? track.block, frame: frame, time: time,
                                           textChanged: false))
            }
        }
        tracks = kept
        return events + removed.sorted { $0.id < $1.id }
    }

    /// Removes every stable block still in view, as at the end of a scan.
    mutating func finish() -> [TextEvent] {
        let events = inView.map { TextEvent(kind: .remove, id: $0.id, block: $0.block, frame: lastFrame, time: lastTime, textChanged: false) }
        tracks = []
        return events
    }

    private mutating func add(_ t: Int, frame: Int, time: Double) -> TextEvent {
        tracks[t].id = nextID
        tracks[t].reported = tracks[t].block
        tracks[t].sightings = 0
        nextID += 1
        return TextEvent(kind: .add, id: tracks[t].id!, block: tracks[t].block, frame: frame, time: time, textChanged: true)
    }

    /// For each block, the index of the track it continues: pairs whose boxes overlap (by a
    /// third of the smaller box at least) or whose texts are alike and near, best first.
    private func match(_ blocks: [TextBlock]) -> [Int: Int] {
        var pairs: [(score: Double, block: Int, track: Int)] = []
        for (b, block) in blocks.enumerated() {
            for (t, track) in tracks.enumerated() {
                let overlap = block.box.overlap(with: track.block.box)
                let near = block.box.distance(to: track.block.box) <= Double(max(block.box.height, track.block.box.height))
                guard overlap >= 0.33 || near else { continue }
                let same = similarity(block.text, track.block.text)
                guard overlap >= 0.33 || same >= alike else { continue }
                pairs.append((overlap + same, b, t))
            }
        }
        var assignment: [Int: Int] = [:]
        var taken = Set<Int>()
        for pair in pairs.sorted(by: { ($1.score, $0.block, $0.track) < ($0.score, $1.block, $1.track) })
        where assignment[pair.block] == nil && !taken.contains(pair.track) {
            assignment[pair.block] = pair.track
            taken.insert(pair.track)
        }
        return assignment
    }

    /// Whether a box moved by more than half its height (or grew or shrank as much) since reported.
    private func moved(_ a: Region, _ b: Region) -> Bool {
        let tolerance = max(4, min(a.height, b.height) / 2)
        return abs(a.x - b.x) > tolerance || abs(a.y - b.y) > tolerance
            || abs(a.x + a.width - b.x - b.width) > tolerance || abs(a.y + a.height - b.y - b.height) > tolerance
    }
}

/// How alike two texts are, 0 to 1: one less their edit distance (in Unicode scalars, white
/// space runs counted as one space) over the longer one's length.
func similarity(_ a: String, _ b: String) -> Double {
    func scalars(_ s: String) -> [Unicode.Scalar] {
        var out: [Unicode.Scalar] = []
        for c in s.unicodeScalars {
            let space = c.properties.isWhitespace
            if space, out.last == " " || out.isEmpty { continue }
            out.append(space ? " " : c)
        }
        if out.last == " " { out.removeLast() }
        return out
    }
    let x = scalars(a), y = scalars(b)
    guard !x.isEmpty || !y.isEmpty else { return 1 }
    guard !x.isEmpty, !y.isEmpty else { return 0 }
    var row = Array(0...y.count)
    for i in 1...x.count {
        var diagonal = row[0]
        row[0] = i
        for j in 1...y.count {
            let above = row[j]
            row[j] = min(row[j] + 1, row[j - 1] + 1, diagonal + (x[i - 1] == y[j - 1] ? 0 : 1))
            diagonal = above
        }
    }
    return 1 - Double(row[y.count]) / Double(max(x.count, y.count))
}

extension Region {
    /// Whether the two rectangles share any pixel.
    func intersects(_ other: Region) -> Bool {
        x < other.x + other.width && other.x < x + width && y < other.y + other.height && other.y < y + height
    }

    /// The area both cover over the smaller one's area, 0 to 1.
    func overlap(with other: Region) -> Double {
        let w = min(x + width, other.x + other.width) - max(x, other.x)
        let h = min(y + height, other.y + other.height) - max(y, other.y)
        guard w > 0, h > 0 else { return 0 }
        return Double(w * h) / Double(max(1, min(width * height, other.width * other.height)))
    }

    /// The gap between the two rectangles in pixels (0 when they touch or overlap).
    func distance(to other: Region) -> Double {
        let dx = max(0, max(x, other.x) - min(x + width, other.x + other.width))
        let dy = max(0, max(y, other.y) - min(y + height, other.y + other.height))
        return Double(dx * dx + dy * dy).squareRoot()
    }

    /// The smallest rectangle holding both.
    func union(_ other: Region) -> Region {
        let left = min(x, other.x), top = min(y, other.y)
        return Region(x: left, y: top, width: max(x + width, other.x + other.width) - left,
                      height: max(y + height, other.y + other.height) - top)
    }
}
