import FoundationEssentials
import Glibc

/// Recognises text in live frames beside a `ScanSession`, as Live Text does: on a few frames
/// only, where the picture changed, once it holds still; and reports each block once it is
/// stable, as add / update / remove events.
///
/// ```swift
/// let text = TextSession(recognizer: try TextRecognizer(layout: .sparse))
/// while let frame = try source.nextFrame() {
///     let codes = session.process(frame)                       // never waits for text
///     let blocks = text.process(frame, codes: session.inView.map(\.detection))
/// }
/// let last = text.finish()
/// ```
///
/// Each frame is reduced to the means of its 8×8 cells (`CellImage`, about a millisecond at
/// 720p). A frame whose cells differ from the last frame's (codes' areas left out: a code
/// held up moves all the time) is moving, and is not recognised. A still frame is recognised
/// where its cells differ from those of the last recognition there, in one rectangle grown
/// to hold the blocks it touches; when nothing changed but a block is not settled yet (seen
/// once, changed once, missed once), its area is recognised again, at most
/// `Options.settleRecognitions` times per still picture. The caller passes the codes'
/// outlines (with `--text-only` too: a code's modules are not letters, and it moves).
///
/// Recognition runs on a thread of its own, one image at a time. With `.realTime` pacing
/// `process` never waits for it: a frame due while it is busy is skipped, and the change is
/// recognised on the next still frame after it. With `.everyFrame` pacing (a recording) a
/// frame due while it is busy waits, so that the frames recognised, and the events, depend
/// only on the frames.
public final class TextSession {
    public enum Pacing: Sendable, Equatable {
        /// Never wait for recognition (a camera, or a stream piped in as it is captured).
        case realTime
        /// Recognise every frame that is due, waiting for the one before (a recording).
        case everyFrame
    }

    public struct Options: Sendable, Equatable {
        public var pacing: Pacing
        /// Recognitions alike in a row that make a block (or a change to it) stable, and
        /// recognitions in a row without it that make it gone.
        public var confirmations: Int
        /// Grey levels by which a cell's mean must change to count as changed.
        public var changeThreshold: Int
        /// Recognitions of an unchanged picture to settle what is not yet stable.
        public var settleRecognitions: Int
        /// Blocks below this confidence (0–100) are left out: in a camera's picture, what
        /// Tesseract reads at a low confidence is mostly texture taken for letters.
        public var minBlockConfidence: Double

        public init(pacing: Pacing = .realTime, confirmations: Int = 2, changeThreshold: Int = 12,
                    settleRecognitions: Int = 3, minBlockConfidence: Double = 40) {
            self.pacing = pacing
            self.confirmations = max(1, confirmations)
            self.changeThreshold = max(1, changeThreshold)
            self.settleRecognitions = max(0, settleRecognitions)
            self.minBlockConfidence = minBlockConfidence
        }
    }

    public let options: Options
    /// Recognitions made so far.
    public private(set) var recognitions = 0
    /// The first recognition that failed, if one did (its frame is left out).
    public private(set) var failure: TextRecognitionError?

    private let worker: TextWorker
    private var tracker: TextTracker
    private var previous: CellImage?
    private var previousCodes: Set<Int> = []
    /// Each cell as the last recognition covering it saw it.
    private var reference: CellImage?
    private var settling = 0

    /// `recognizer` is the session's from now on: it is used on the session's own thread,
    /// with a local threshold (`useLocalThreshold`), which camera frames need.
    public init(recognizer: TextRecognizer, options: Options = Options()) {
        recognizer.useLocalThreshold()
        self.options = options
        worker = TextWorker(recognizer: recognizer)
        tracker = TextTracker(confirmations: options.confirmations)
    }

    /// A session with a recognizer taken from `pool` (one still starting is waited for),
    /// which it keeps: it is not given back.
    public convenience init(pool: TextRecognizerPool, options: Options = Options()) throws(TextRecognitionError) {
        self.init(recognizer: try pool.take(), options: options)
    }

    deinit { worker.stop() }

    /// The stable blocks in view, by id.
    public var inView: [(id: Int, block: TextBlock)] { tracker.inView }

    /// Looks at one frame, `codes` the symbols found in it (left out, with their quiet zones,
    /// of both the change measure and recognition); returns the events of the recognitions
    /// finished since the last call, dated by the frames they recognised.
    public func process(_ frame: Frame, codes: [Detection] = []) -> [TextEvent] {
        var events = collect(wait: false)
        let cells = CellImage(frame.image)
        let zones = codes.map(\.quietZone)
        let codeCells = Set(zones.flatMap(cells.cells(in:)))
        let ignored = codeCells.union(previousCodes)
        let moving = !cells.changed(from: previous, threshold: options.changeThreshold, ignoring: ignored).isEmpty
        previous = cells
        previousCodes = codeCells
        guard !moving else { return events }
        if worker.isBusy {
            guard options.pacing == .everyFrame else { return events }
            events += collect(wait: true)
        }
        let changed = cells.changed(from: reference, threshold: options.changeThreshold, ignoring: ignored)
        let frameRegion = Region(x: 0, y: 0, width: frame.image.width, height: frame.image.height)
        var region: Region
        if let dirty = cells.region(of: changed) {
            region = dirty
            settling = 0
        } else if tracker.isUnsettled, settling < options.settleRecognitions, let first = tracker.unsettledBoxes.first {
            region = tracker.unsettledBoxes.reduce(first) { $0.union($1) }
            settling += 1
        } else {
            return events
        }
        region = grown(region, within: frameRegion)
        if reference == nil { reference = cells }
        for i in cells.cells(in: region) { reference!.cells[i] = cells.cells[i] }
        worker.submit(TextWorker.Job(image: frame.image.cropped(to: region),
                                     blanks: zones.map { Region(x: $0.x - region.x, y: $0.y - region.y, width: $0.width, height: $0.height) },
                                     region: region, frame: frame.number, time: frame.time))
        recognitions += 1
        return events
    }

    /// Ends the session: waits for the recognition under way, then removes every stable block.
    public func finish() -> [TextEvent] {
        collect(wait: true) + tracker.finish()
    }

    /// `region` grown by two cells on each side, then to hold every block it touches, within the frame.
    private func grown(_ region: Region, within frame: Region) -> Region {
        let margin = 2 * CellImage.cell
        var out = Region(x: region.x - margin, y: region.y - margin, width: region.width + 2 * margin,
                         height: region.height + 2 * margin)
        var growing = true
        while growing {
            growing = false
            for box in tracker.boxes where box.intersects(out) && out.union(box) != out {
                out = out.union(box)
                growing = true
            }
        }
        return out.clipped(toWidth: frame.width, height: frame.height) ?? frame
    }

    /// The events of a finished recognition, if one finished (waiting for it when asked).
    private func collect(wait: Bool) -> [TextEvent] {
        guard let done = worker.take(wait: wait) else { return [] }
        switch done.result {
        case .success(let blocks):
            // A printed sealed message is kept whatever its confidence: authentication checks it.
            let placed = blocks.filter { !$0.text.isEmpty && ($0.confidence >= options.minBlockConfidence || $0.sealedArmor != nil) }.map { $0.offset(by: done.region.x, done.region.y) }
            return tracker.update(with: placed, in: done.region, frame: done.frame, time: done.time)
        case .failure(let error):
            if failure == nil { failure = error }
            return []
        }
    }
}

/// The thread a `TextSession` recognises on, with its own recognizer: one job at a time,
/// handed over and taken back under a lock.
final class TextWorker: @unchecked Sendable {
    struct Job {
        let image: GrayImage
        /// Rectangles painted white before recognition: the codes in view.
        let blanks: [Region]
        let region: Region
        let frame: Int
        let time: Double
    }

    struct Done {
        let region: Region
        let frame: Int
        let time: Double
        let result: Result<[TextBlock], TextRecognitionError>
    }

    private let recognizer: TextRecognizer
    private let condition = Condition()
    private var job: Job?
    private var done: Done?
    private var outstanding = false
    private var stopping = false

    init(recognizer: TextRecognizer) {
        self.recognizer = recognizer
        Threads.start(name: "qrseal text") { [self] in run() }
    }

    /// Whether a job was given and its result not yet taken.
    var isBusy: Bool {
        condition.lock()
        defer { condition.unlock() }
        return outstanding
    }

    func submit(_ job: Job) {
        condition.lock()
        precondition(!outstanding, "one recognition at a time")
        self.job = job
        outstanding = true
        condition.broadcast()
        condition.unlock()
    }

    /// The finished job's result, if there is one; with `wait`, waits for the job under way.
    func take(wait: Bool) -> Done? {
        condition.lock()
        defer { condition.unlock() }
        while wait, outstanding, done == nil { condition.wait() }
        guard let finished = done else { return nil }
        done = nil
        outstanding = false
        return finished
    }

    /// Lets the thread end once its job is done.
    func stop() {
        condition.lock()
        stopping = true
        condition.broadcast()
        condition.unlock()
    }

    private func run() {
        while true {
            condition.lock()
            while job == nil, !stopping { condition.wait() }
            guard let next = job else { condition.unlock(); return }
            job = nil
            condition.unlock()
            let result = Result { () throws(TextRecognitionError) in try recognizer.recognize(next.image, excluding: next.blanks) }
            condition.lock()
            done = Done(region: next.region, frame: next.frame, time: next.time, result: result)
            condition.broadcast()
            condition.unlock()
        }
    }
}

extension TextBlock {
    /// This block moved `dx` pixels right and `dy` down: from a crop's pixels to the frame's.
    func offset(by dx: Int, _ dy: Int) -> TextBlock {
        guard dx != 0 || dy != 0 else { return self }
        func move(_ r: Region) -> Region { Region(x: r.x + dx, y: r.y + dy, width: r.width, height: r.height) }
        return TextBlock(lines: lines.map { line in
            TextLine(words: line.words.map { TextWord(text: $0.text, confidence: $0.confidence, box: move($0.box)) },
                     confidence: line.confidence, box: move(line.box))
        }, confidence: confidence, box: move(box))
    }
}
