import FoundationEssentials
import Dispatch
import Glibc
import QRSealKit

/// Frames from a camera or a stream, read, shown and scanned off the main thread: one thread
/// reads frames (at the stream's own pace) and never waits for the others; one turns the
/// newest into a picture when the last one has been shown; one finds and tracks codes in the
/// newest frame, one recognises text in it; and a queue hands what they read to the intake. Each posts what
/// it has to the main loop, which never waits for any of them: a frame that arrives while the
/// detector is busy is shown but not scanned, as on a phone.
final class LiveFeed: @unchecked Sendable {
    enum Source: Sendable, Equatable {
        /// A V4L2 camera, asked for frames of a size (its default when nil).
        case camera(String, size: CameraSize?)
        case stream(String)
    }

    struct CameraSize: Sendable, Equatable {
        let width: Int, height: Int
    }

    /// What the feed tells the page, always on the main thread.
    enum Update {
        /// The source opened: its frame size.
        case opened(width: Int, height: Int)
        /// A frame to show, at the size the preview shows it.
        case frame(number: Int, PreviewImage)
        /// Codes added, moved or removed, as tracked.
        case codes([ScanEvent])
        /// What the intake made of a code or a text block.
        case outcome(Outcome, trackID: Int?)
        /// Text blocks added, moved, changed or removed.
        case text([TextEvent])
        /// What to tell the user while nothing is read, or nil.
        case guidance(FrameQuality.Guidance?)
        /// The stream ended.
        case ended(frames: Int)
        /// The source failed (could not open, or broke).
        case failed(CaptureError)
        /// Text recognition cannot run (no Tesseract data); codes still are.
        case textUnavailable(String)
        /// A reader failed on a frame (its helper crashed, timed out, or cannot start): said
        /// once, as reading goes on with the others.
        case readerFailed(String)
    }

    /// What the user set on the page; read by the workers at each frame.
    struct Settings: Sendable {
        var readsText = false
        var symbologies = Symbology.defaultSet
        var region: Region?
        var paused = false
        /// The size the preview is drawn at, in pixels: frames are shrunk to fit it off the
        /// main loop. Nil: shown whole.
        var previewSize: (width: Int, height: Int)?
    }

    let source: Source
    private let deliver: (Update) -> Void
    private let intake: Intake
    private let intakeQueue = DispatchQueue(label: "qrseal-desktop.intake")
    private let lock = Condition()
    private var settings = Settings()
    private var stopped = false
    /// The newest frame not yet taken by each worker.
    private var forCodes: Frame?
    private var forText: Frame?
    private var forDisplay: Frame?
    /// The codes last in view, to leave out of the text.
    private var codesInView: [Detection] = []
    /// Whether a frame posted for display has not been shown yet (then the next is not posted).
    private var previewPending = false
    private let textPool: TextRecognizerPool?

    init(source: Source, intake: Intake, textPool: TextRecognizerPool?, deliver: @escaping (Update) -> Void) {
        self.source = source
        self.intake = intake
        self.textPool = textPool
        self.deliver = deliver
    }

    func start() {
        let workers: [(name: String, reads: Bool, body: () -> Void)] = [
            ("frames", false, readFrames), ("display", false, showFrames), ("codes", true, scanCodes), ("text", true, scanText),
        ]
        for (name, reads, body) in workers {
            let work = UncheckedBox(body)
            Threads.start(name: "qrseal-\(name)") {
                if reads { Self.yieldToMainLoop() }
                work.value()
            }
        }
    }

    /// The readers run at a lower priority than the main loop and the frames and display
    /// threads (as do the helper processes they start): on two busy cores the preview and the
    /// controls come first, and a frame not read in time is read at the next.
    /// (On Linux a nice value belongs to a thread, and `0` names the calling one.)
    private static func yieldToMainLoop() {
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 5)
    }

    /// Ends the workers; the reader ends at its next frame (or its next wait's check).
    func stop() {
        lock.lock()
        stopped = true
        lock.broadcast()
        lock.unlock()
    }

    func update(_ change: (inout Settings) -> Void) {
        lock.lock()
        change(&settings)
        lock.broadcast()
        lock.unlock()
    }

    /// Called by the page once it has shown a frame.
    func frameShown() {
        lock.lock()
        previewPending = false
        lock.broadcast()
        lock.unlock()
    }

    /// Runs `work` with the intake on its queue, and `done` with its answer on the main thread.
    func withIntake<T>(_ work: @escaping (Intake) -> T, done: @escaping (T) -> Void) {
        let box = UncheckedBox((work, done, intake))
        intakeQueue.async {
            let answer = UncheckedBox(box.value.0(box.value.2))
            MainLoop.post { box.value.1(answer.value) }
        }
    }

    private var isStopped: Bool {
        lock.lock()
        defer { lock.unlock() }
        return stopped
    }

    private func post(_ update: Update) {
        let box = UncheckedBox(update)
        MainLoop.post { [weak self] in self?.deliver(box.value) }
    }

    // MARK: The reader

    private func readFrames() {
        let frames: FrameSource
        do throws(CaptureError) {
            switch source {
            case .camera(let path, let size):
                let camera = try CameraSource(path: path, size: size.map { ($0.width, $0.height) },
                                              shouldStop: { [weak self] in self?.isStopped ?? true })
                camera.keepsColor = true
                frames = camera
            case .stream(let path):
                let stop: StopCheck = { [weak self] in self?.isStopped ?? true }
                let input = path == "-" ? FileInput(descriptor: 0, shouldStop: stop) : try FileInput(path: path, shouldStop: stop)
                let reader = try YUV4MPEGReader(input: input)
                reader.keepsColor = true
                frames = reader
            }
        } catch {
            post(.failed(error))
            return
        }
        post(.opened(width: frames.width, height: frames.height))
        // A recording plays at its frame rate; a pipe or a camera delivers at theirs.
        let paced: Bool
        if case .stream(let path) = source, path != "-" { paced = true } else { paced = false }
        let start = ContinuousClock.now
        var count = 0
        while !isStopped {
            let frame: Frame?
            do { frame = try frames.nextFrame() } catch {
                if error != .stopped { post(.failed(error)) }
                return
            }
            guard let frame else { break }
            count = frame.number
            if paced {
                let due = start + .milliseconds(Int64(frame.time * 1000))
                let now = ContinuousClock.now
                if due > now { Threads.sleep(due - now) }
            }
            lock.lock()
            if !settings.paused {
                forDisplay = frame
                forCodes = frame
                if settings.readsText { forText = frame }
                lock.broadcast()
            }
            lock.unlock()
        }
        if !isStopped { post(.ended(frames: count)) }
    }

    /// Shows the newest frame once the one before it has been shown: a slow display skips
    /// frames rather than holding up the reader.
    private func showFrames() {
        while let (frame, settings) = next(\.forDisplay) {
            let picture = PreviewImage(frame, fitting: settings.previewSize)
            lock.lock()
            previewPending = true
            lock.unlock()
            post(.frame(number: frame.number, picture))
            lock.lock()
            while previewPending && !stopped { lock.wait() }
            lock.unlock()
        }
    }

    /// The newest frame for a worker, waiting for one; nil once stopped.
    private func next(_ slot: ReferenceWritableKeyPath<LiveFeed, Frame?>) -> (Frame, Settings)? {
        lock.lock()
        defer { lock.unlock() }
        while !stopped && self[keyPath: slot] == nil { lock.wait() }
        guard !stopped, let frame = self[keyPath: slot] else { return nil }
        self[keyPath: slot] = nil
        return (frame, settings)
    }

    // MARK: Codes

    private func scanCodes() {
        var detector = intake.reader.detector
        detector.effort = .fast
        var options = ScanSession.Options()
        var session = ScanSession(detector: detector, options: options)
        var lastGuidance: FrameQuality.Guidance?
        var lastRead = 0.0
        var reportedFailures = 0
        while let (frame, settings) = next(\.forCodes) {
            if settings.region != options.regionOfInterest || settings.symbologies != session.detector.symbologies {
                // A new region or set of kinds starts tracking afresh: what was in view is removed.
                post(.codes(session.finish()))
                options.regionOfInterest = settings.region
                detector.symbologies = settings.symbologies
                session = ScanSession(detector: detector, options: options)
            }
            let events = session.process(frame)
            if reportedFailures == 0, let failure = session.failures.first {
                reportedFailures = 1
                post(.readerFailed(failure.description))
            }
            lock.lock()
            codesInView = session.inView.map(\.detection)
            lock.unlock()
            if !events.isEmpty { post(.codes(events)) }
            if !session.inView.isEmpty { lastRead = frame.time }
            // Guidance once nothing has been read for a second, from what the frame measures.
            let guidance = frame.time - lastRead > 1 ? FrameQuality(frame.image).guidance : nil
            if guidance != lastGuidance { post(.guidance(guidance)); lastGuidance = guidance }
            let added = events.filter { $0.kind == .add }
            guard !added.isEmpty else { continue }
            let name = sourceName
            let intake = UncheckedBox(self.intake)
            intakeQueue.async { [weak self] in
                for event in added {
                    let outcome = intake.value.take([event.detection], from: name)[0]
                    self?.post(.outcome(outcome, trackID: event.id))
                }
            }
        }
    }

    /// The source as the inbox records it.
    var sourceName: IntakeSource {
        switch source {
        case .camera(let path, _): return IntakeSource(name: path, recorded: path, kind: .camera)
        case .stream(let path):
            let recorded = path == "-" ? "-" : URL(fileURLWithPath: path).standardizedFileURL.path
            return IntakeSource(name: path, recorded: recorded, kind: .stream)
        }
    }

    // MARK: Text

    private func scanText() {
        guard let textPool else { return }
        var session: TextSession?
        while let (frame, settings) = next(\.forText) {
            guard settings.readsText else { continue }
            if session == nil {
                do { session = try TextSession(pool: textPool) } catch {
                    post(.textUnavailable(error.description))
                    return
                }
            }
            lock.lock()
            let codes = codesInView
            lock.unlock()
            let events = session!.process(frame, codes: codes)
            if !events.isEmpty { post(.text(events)) }
        }
    }
}
