/// What a scan session reports about one symbol, as VisionKit's data scanner reports items
/// added, updated and removed.
public struct ScanEvent: Sendable, Equatable {
    public enum Kind: String, Sendable {
        /// First confirmed in view.
        case add
        /// Moved (or turned, or grew) since it was last reported.
        case update
        /// Unseen for the session's `forgetAfter`, or the scan ended.
        case remove
    }

    public let kind: Kind
    /// The symbol's number in this session, counted from 1, the same in all its events.
    public let id: Int
    /// The symbol's content, with the corners where it was last seen.
    public let detection: Detection
    /// The frame the event was decided on, and that frame's time in seconds.
    public let frame: Int
    public let time: Double

    public init(kind: Kind, id: Int, detection: Detection, frame: Int, time: Double) {
        self.kind = kind
        self.id = id
        self.detection = detection
        self.frame = frame
        self.time = time
    }
}

/// How long a symbol may go unseen before it counts as gone.
public enum ForgetAfter: Equatable, Sendable {
    /// This many frames in a row without it.
    case frames(Int)
    /// This many seconds of frame time without it.
    case seconds(Double)
}

/// Follows symbols from frame to frame by content and position.
///
/// A detection belongs to a known symbol with the same symbology and bytes; when several
/// symbols share a content, each detection goes to the nearest one (closest centres first),
/// so two identical codes side by side stay two. A symbol is confirmed once seen in
/// `confirmations` frames (one for a QR code, whose error correction already checks each
/// read; more for linear barcodes, whose checks are weak); only then is it added.
struct SymbolTracker: Sendable {
    private struct Track: Sendable {
        var id: Int?
        var detection: Detection
        /// The corners last reported (in its add or latest update).
        var reported: [Point]
        var sightings: Int
        var lastFrame: Int
        var lastTime: Double
    }

    let forgetAfter: ForgetAfter
    /// Frames a linear barcode must be read in before it is added.
    let linearConfirmations: Int
    /// How far a corner may move, as a share of the symbol's size (and at least 3 pixels),
    /// before an update is reported.
    let movementTolerance: Double

    private var tracks: [Track] = []
    private var nextID = 1
    private var lastFrame = 0
    private var lastTime = 0.0

    init(forgetAfter: ForgetAfter, linearConfirmations: Int, movementTolerance: Double) {
        self.forgetAfter = forgetAfter
        self.linearConfirmations = max(1, linearConfirmations)
        self.movementTolerance = movementTolerance
    }

    /// The confirmed symbols in view, by id.
    var inView: [(id: Int, detection: Detection)] {
        tracks.compactMap { t in t.id.map { ($0, t.detection) } }.sorted { $0.id < $1.id }
    }

    /// Takes one frame's detections; returns its events: adds and updates in the
    /// detections' order, then removes by id.
    mutating func update(with detections: [Detection], frame: Int, time: Double) -> [ScanEvent] {
        lastFrame = frame
        lastTime = time
        let assignment = match(detections)
        var events: [ScanEvent] = []
        var seen = Set<Int>()
        for (index, detection) in detections.enumerated() {
            let t: Int
            if let existing = assignment[index] {
                t = existing
                tracks[t].detection = detection
                tracks[t].sightings += 1
            } else {
                tracks.append(Track(id: nil, detection: detection, reported: detection.corners,
                                    sightings: 1, lastFrame: frame, lastTime: time))
                t = tracks.count - 1
            }
            tracks[t].lastFrame = frame
            tracks[t].lastTime = time
            seen.insert(t)
            if let id = tracks[t].id {
                if moved(tracks[t].reported, detection) {
                    tracks[t].reported = detection.corners
                    events.append(ScanEvent(kind: .update, id: id, detection: detection, frame: frame, time: time))
                }
            } else if tracks[t].sightings >= confirmations(detection.symbology) {
                tracks[t].id = nextID
                tracks[t].reported = detection.corners
                events.append(ScanEvent(kind: .add, id: nextID, detection: detection, frame: frame, time: time))
                nextID += 1
            }
        }
        var kept: [Track] = []
        var removed: [ScanEvent] = []
        for (index, track) in tracks.enumerated() {
            if seen.contains(index) || !isForgotten(track, frame: frame, time: time) {
                kept.append(track)
            } else if let id = track.id {
                removed.append(ScanEvent(kind: .remove, id: id, detection: track.detection, frame: frame, time: time))
            }
        }
        tracks = kept
        return events + removed.sorted { $0.id < $1.id }
    }

    /// Removes every confirmed symbol still in view, as at the end of a scan.
    mutating func finish() -> [ScanEvent] {
        let events = inView.map {
            ScanEvent(kind: .remove, id: $0.id, detection: $0.detection, frame: lastFrame, time: lastTime)
        }
        tracks = []
        return events
    }

    private func confirmations(_ symbology: Symbology) -> Int {
        symbology.isMatrix ? 1 : linearConfirmations
    }

    private func isForgotten(_ track: Track, frame: Int, time: Double) -> Bool {
        switch forgetAfter {
        case .frames(let n): return frame - track.lastFrame >= n
        case .seconds(let s): return time - track.lastTime >= s
        }
    }

    /// For each detection, the index of the track it continues, if any.
    private func match(_ detections: [Detection]) -> [Int: Int] {
        var pairs: [(distance: Double, detection: Int, track: Int)] = []
        for (d, detection) in detections.enumerated() {
            for (t, track) in tracks.enumerated()
            where track.detection.symbology == detection.symbology && track.detection.bytes == detection.bytes {
                let a = track.detection.center, b = detection.center
                pairs.append(((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y), d, t))
            }
        }
        var assignment: [Int: Int] = [:]
        var taken = Set<Int>()
        for pair in pairs.sorted(by: { ($0.distance, $0.detection, $0.track) < ($1.distance, $1.detection, $1.track) })
        where assignment[pair.detection] == nil && !taken.contains(pair.track) {
            assignment[pair.detection] = pair.track
            taken.insert(pair.track)
        }
        return assignment
    }

    /// Whether `detection`'s corners are far enough from `reported` to report a move.
    private func moved(_ reported: [Point], _ detection: Detection) -> Bool {
        let corners = detection.corners
        guard reported.count == corners.count else { return true }
        let xs = corners.map(\.x), ys = corners.map(\.y)
        let size = max((xs.max() ?? 0) - (xs.min() ?? 0), (ys.max() ?? 0) - (ys.min() ?? 0))
        let tolerance = max(3, movementTolerance * size)
        return zip(reported, corners).contains { a, b in
            ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot() > tolerance
        }
    }
}
