import Glibc

/// Turns frames into add / update / remove events for the symbols in them: frames →
/// detect → track. It knows nothing of where the frames come from: a camera, a stream, or
/// pictures a caller makes.
///
/// ```swift
/// var session = ScanSession(options: .init(forgetAfter: .seconds(1)))
/// while let frame = try source.nextFrame() {
///     for event in session.process(frame) { … }
/// }
/// for event in session.finish() { … }   // removes for what was still in view
/// ```
///
/// The engines' cost grows with the pixels (and, for zbar, with sensor noise), so frames
/// above `Options.reducedPixels` (larger than 1080p) are searched at half size, halved again
/// while still above it, and at full size on every `fullSizeEvery`-th frame for codes too
/// small to read reduced. A frame identical to the one before is not searched
/// again. Both choices depend only on the frames, so the events never depend on the
/// machine's speed.
public struct ScanSession: Sendable {
    public struct Options: Sendable, Equatable {
        /// How long a symbol may go unseen before it is removed.
        public var forgetAfter: ForgetAfter
        /// Where to look in each frame; nil for the whole frame. Corners are reported in the
        /// whole frame's pixels either way.
        public var regionOfInterest: Region?
        /// Frames a linear barcode must be read in before it is added (QR codes: one).
        public var linearConfirmations: Int
        /// How far a corner must move, as a share of the symbol's size (at least 3 pixels),
        /// for an update.
        public var movementTolerance: Double
        /// Frames (or regions of interest) with more pixels than this are searched at half
        /// size, halved again while still larger, except on full-size frames. The default
        /// keeps frames up to 1920x1080 whole.
        public var reducedPixels: Int
        /// Every this many frames (from the first), a large frame is searched at full size;
        /// 1 searches every frame at full size.
        public var fullSizeEvery: Int

        public init(forgetAfter: ForgetAfter = .seconds(1), regionOfInterest: Region? = nil,
                    linearConfirmations: Int = 2, movementTolerance: Double = 0.03,
                    reducedPixels: Int = 2_100_000, fullSizeEvery: Int = 4) {
            self.forgetAfter = forgetAfter
            self.regionOfInterest = regionOfInterest
            self.linearConfirmations = linearConfirmations
            self.movementTolerance = movementTolerance
            self.reducedPixels = reducedPixels
            self.fullSizeEvery = max(1, fullSizeEvery)
        }
    }

    /// Finds the symbols in each frame (its symbologies and effort apply to every frame).
    public var detector: Detector
    public let options: Options
    private var tracker: SymbolTracker
    /// The last frame searched, whether at full size, and what was found in it.
    private var previous: (image: GrayImage, fullSize: Bool, found: [Detection])?
    /// Why a library in the engine gave no answer on some frame so far, each once, in the
    /// order first seen (`Detector.examine(_:)`).
    public private(set) var failures: [EngineFailure] = []

    public init(detector: Detector = Detector(), options: Options = Options()) {
        self.detector = detector
        self.options = options
        tracker = SymbolTracker(forgetAfter: options.forgetAfter, linearConfirmations: options.linearConfirmations,
                                movementTolerance: options.movementTolerance)
    }

    /// Detects the symbols in `frame` (inside the region of interest) and returns the events
    /// they cause: adds and updates in reading order, then removes by id.
    public mutating func process(_ frame: Frame) -> [ScanEvent] {
        let fullSize = (frame.number - 1) % options.fullSizeEvery == 0
        let found: [Detection]
        if let previous, previous.fullSize || !fullSize, Self.identical(previous.image, frame.image) {
            found = previous.found
        } else {
            let report = examine(frame.image, fullSize: fullSize)
            found = report.detections
            failures += report.failures.filter { !failures.contains($0) }
            previous = (frame.image, fullSize, found)
        }
        return track(found, frame: frame.number, time: frame.time)
    }

    /// The events for detections made elsewhere, in frame `frame` at `time` seconds.
    public mutating func track(_ detections: [Detection], frame: Int, time: Double) -> [ScanEvent] {
        tracker.update(with: detections, frame: frame, time: time)
    }

    /// Ends the session: a remove for every symbol still in view, at the last frame.
    public mutating func finish() -> [ScanEvent] { tracker.finish() }

    /// The symbols in view now, by id.
    public var inView: [(id: Int, detection: Detection)] { tracker.inView }

    /// The symbols in `image`, inside the region of interest, with corners in `image`'s
    /// pixels; searched at full size, or reduced when `fullSize` is false and it is large.
    public func detect(in image: GrayImage, fullSize: Bool = true) -> [Detection] {
        examine(image, fullSize: fullSize).detections
    }

    /// What `detect(in:fullSize:)` finds, and why a library in the engine gave no answer.
    public func examine(_ image: GrayImage, fullSize: Bool = true) -> DetectorReport {
        var region = Region(x: 0, y: 0, width: image.width, height: image.height)
        if let wanted = options.regionOfInterest {
            guard let clipped = wanted.clipped(toWidth: image.width, height: image.height) else {
                return DetectorReport(detections: [])
            }
            region = clipped
        }
        var searched = image.cropped(to: region)
        var scale = 1.0
        while !fullSize, searched.width * searched.height > options.reducedPixels, let half = searched.halved() {
            searched = half
            scale *= 2
        }
        let report = detector.examine(searched)
        guard region.x != 0 || region.y != 0 || scale != 1 else { return report }
        let toFrame = PixelMapping(a: scale, c: Double(region.x), e: scale, f: Double(region.y))
        return DetectorReport(detections: report.detections.map { $0.mapped(through: toFrame) }, failures: report.failures)
    }

    /// Whether two frames have the same pixels (`memcmp`, a fraction of a millisecond).
    private static func identical(_ a: GrayImage, _ b: GrayImage) -> Bool {
        guard a.width == b.width, a.height == b.height, !a.pixels.isEmpty else { return a.pixels == b.pixels }
        return a.pixels.withUnsafeBytes { x in
            b.pixels.withUnsafeBytes { y in memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0 }
        }
    }
}
