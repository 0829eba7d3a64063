import FoundationEssentials
import Glibc
import QRSealKit

/// `qrseal scan --camera` / `--stream`: frames from a V4L2 camera or a YUV4MPEG2 stream go
/// through one `ScanSession`; `LiveEvents` hands what it reports to the intake and shows the outcomes. The scan
/// ends with the stream, after --once's first code, at --timeout, or on Ctrl-C or SIGTERM,
/// with a summary on standard error.
///
/// `--camera` is a flag and the device is `--device PATH`: the parser's options either
/// always or never take a value, and an optional value (`--camera [DEVICE]`) would make
/// `--camera photo.png` ambiguous. `--device` alone implies `--camera`.
struct LiveScan {
    static let options: [OptionSpec] = [
        OptionSpec(long: "camera", help: "Scan live from a V4L2 camera (/dev/video0 unless --device names one) until stopped."),
        OptionSpec(long: "device", value: "PATH", help: "The camera to scan from (default /dev/video0); implies --camera."),
        OptionSpec(long: "size", value: "WxH",
                   help: "Ask the camera for frames of this size (default 1280x720; it picks the nearest it has)."),
        OptionSpec(long: "stream", value: "FILE|-", help: "Scan the frames of a YUV4MPEG2 stream from FILE or standard input."),
        OptionSpec(long: "once", help: "Live scans: stop after the first code read, or once the first message in parts is complete."),
        OptionSpec(long: "timeout", value: "SECONDS", help: "Live scans: stop after SECONDS (exit 1 if nothing was read)."),
        OptionSpec(long: "forget-after", value: "N|DURATION",
                   help: "Live scans: report a code removed once unseen for N frames or a DURATION such as 500ms or 2s (default 1s)."),
        OptionSpec(long: "roi", value: "X,Y,W,H", help: "Live scans: look only inside this rectangle of each frame, in pixels."),
        OptionSpec(long: "beep", help: "Live scans: ring the terminal bell when a new code is read."),
    ]
    static let defaultDevice = "/dev/video0"

    enum Source {
        case camera(String, size: (width: Int, height: Int)?)
        case stream(String)
    }

    let source: Source
    let once: Bool
    let timeout: Duration?
    let beep: Bool
    let sessionOptions: ScanSession.Options
    let maxPixels: Int
    /// Whether --effort was given; live frames default to the fast effort otherwise.
    let effortGiven: Bool

    /// A live scan when the arguments ask for one, else nil; live-only options without a
    /// camera or stream are a usage error.
    static func make(_ args: ParsedArguments, console: Console) throws(CLIError) -> LiveScan? {
        let camera = args.has("camera") || args.value("device") != nil
        guard camera || args.value("stream") != nil else {
            let flag = ["once", "beep"].first(where: args.has)
            if let name = flag ?? ["size", "timeout", "forget-after", "roi"].first(where: { args.value($0) != nil }) {
                throw .usage("--\(name) applies to live scans only", hint: "add --camera or --stream FILE")
            }
            return nil
        }
        if args.value("stream") == "-", console.inputIsTerminal {
            throw .usage("--stream - reads frames from standard input, which is a terminal",
                         hint: "pipe a stream in: ffmpeg -f v4l2 -i /dev/video0 -f yuv4mpegpipe - | qrseal scan --stream -")
        }
        return try LiveScan(args, camera: camera)
    }

    private init(_ args: ParsedArguments, camera: Bool) throws(CLIError) {
        if camera, args.value("stream") != nil { throw .usage("--camera and --stream cannot be used together") }
        if !args.positionals.isEmpty {
            throw .usage("a live scan reads no image files (\(args.positionals[0]))",
                         hint: "scan images in a separate 'qrseal scan IMAGE...'")
        }
        if let stream = args.value("stream") {
            if args.value("size") != nil {
                throw .usage("--size applies to --camera only", hint: "a stream's frames have the size its header gives")
            }
            source = .stream(stream)
        } else {
            source = .camera(args.value("device") ?? Self.defaultDevice, size: try args.value("size").map(Self.size))
        }
        once = args.has("once")
        beep = args.has("beep")
        timeout = try args.value("timeout").map(Self.seconds)
        var options = ScanSession.Options()
        if let text = args.value("forget-after") { options.forgetAfter = try Self.forgetAfter(text) }
        if let text = args.value("roi") { options.regionOfInterest = try Self.region(text) }
        sessionOptions = options
        maxPixels = try args.integer("max-pixels", in: 1...(1 << 40), default: ImageDecoder.defaultMaxPixels)
        effortGiven = args.value("effort") != nil
    }

    // MARK: Option values

    static func size(_ text: String) throws(CLIError) -> (width: Int, height: Int) {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), (1...16384).contains(w), (1...16384).contains(h) else {
            throw .usage("--size must be WIDTHxHEIGHT in pixels, such as 1280x720, not '\(text)'")
        }
        return (w, h)
    }

    static func seconds(_ text: String) throws(CLIError) -> Duration {
        guard let s = Double(text), s.isFinite, s > 0, s <= 31_536_000 else {
            throw .usage("--timeout must be a number of seconds above 0, such as 30 or 2.5, not '\(text)'")
        }
        return .milliseconds(Int64((s * 1000).rounded(.up)))
    }

    static func forgetAfter(_ text: String) throws(CLIError) -> ForgetAfter {
        let usage = CLIError.usage("--forget-after must be a number of frames (30) or a duration (500ms, 1s, 2m), not '\(text)'")
        if let n = Int(text) {
            guard (1...1_000_000).contains(n) else { throw usage }
            return .frames(n)
        }
        guard let ms = TimeArguments.duration(text), (1...3_600_000).contains(ms) else { throw usage }
        return .seconds(Double(ms) / 1000)
    }

    static func region(_ text: String) throws(CLIError) -> Region {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map {
            Int($0.trimmingSpaces())
        }
        guard parts.count == 4, let x = parts[0], let y = parts[1], let w = parts[2], let h = parts[3],
              x >= 0, y >= 0, w > 0, h > 0, x <= 1 << 20, y <= 1 << 20, w <= 1 << 20, h <= 1 << 20 else {
            throw .usage("--roi must be X,Y,WIDTH,HEIGHT in pixels, such as 320,180,640,360, not '\(text)'")
        }
        return Region(x: x, y: y, width: w, height: h)
    }

    // MARK: Running

    /// The device or stream as messages name it.
    var name: String {
        switch source {
        case .camera(let path, _): return path
        case .stream(let path): return path
        }
    }

    /// How a live scan's text is paced: a recording (a regular file) is recognised wherever
    /// due, so that what it reads does not depend on the machine's speed; a camera or a
    /// pipe never makes the codes wait for text.
    var textPacing: TextSession.Pacing {
        guard case .stream(let path) = source, path != "-", let info = SystemFiles.status(path),
              info.st_mode & S_IFMT == S_IFREG else { return .realTime }
        return .everyFrame
    }

    func run(intake: Intake, presenter: OutcomePresenter, text: TextScan?, console: Console) -> ExitStatus {
        var detector = intake.reader.detector
        if !effortGiven { detector.effort = .fast }
        let mask = StopSignals.begin()
        defer { StopSignals.end(mask) }
        let start = ContinuousClock.now
        let deadline = timeout.map { start + $0 }
        let shouldStop: StopCheck = { StopSignals.signal != 0 || deadline.map { ContinuousClock.now >= $0 } ?? false }
        var events = LiveEvents(source: IntakeSource(name: name, recorded: inboxSource, kind: sourceKind), beep: beep,
                                intake: intake, presenter: presenter)
        var frames = 0, lastTime = 0.0
        var ending = "end of stream"
        var failure: CLIError?
        var opened = false
        var session = ScanSession(detector: detector, options: sessionOptions)
        var warned = 0
        var textSession: TextSession?
        let readCodes = text?.textOnly != true
        do throws(CLIError) {
            let frameSource = try open(shouldStop: shouldStop, console: console)
            opened = true
            if let roi = sessionOptions.regionOfInterest, frameSource.width > 0,
               roi.clipped(toWidth: frameSource.width, height: frameSource.height) == nil {
                throw CLIError.usage("--roi \(roi.x),\(roi.y),\(roi.width),\(roi.height) lies outside the "
                                     + "\(frameSource.width)x\(frameSource.height) frames of \(name)")
            }
            textSession = try text?.liveSession(pacing: textPacing)
            while let frame = try next(frameSource) {
                frames = frame.number
                lastTime = frame.time
                // With --text-only the codes are still found, only to be left out of the text.
                let codeEvents = session.process(frame)
                if readCodes { for event in codeEvents { events.handle(event, console: console) } }
                // Each once, as it first happens: a library's crash on one frame is no reason to stop.
                let errors = Diagnostics.report(Array(session.failures.dropFirst(warned)), source: name, console: console)
                for _ in 0..<errors { events.countFailure() }
                warned = session.failures.count
                if let textSession {
                    for event in textSession.process(frame, codes: session.inView.map(\.detection)) {
                        events.handle(event, console: console)
                    }
                }
                if once && events.messagesComplete > 0 { ending = "stopped at the first complete message"; break }
                if once && events.added > 0 && events.presenter.pending.isEmpty && events.presenter.completed == 0 {
                    ending = "stopped at the first code"; break
                }
                if once && events.textAdded > 0 { ending = "stopped at the first text"; break }
                if shouldStop() { break }
            }
        } catch {
            failure = error
        }
        // What is still in view is removed as the scan ends, however it ends.
        if let textSession {
            for event in textSession.finish() { events.handle(event, console: console) }
            if let error = textSession.failure {
                events.countFailure()
                Diagnostics.report(CLIError(error), console: console, source: name)
            }
        }
        for event in session.finish() where readCodes { events.handle(event, console: console) }
        if StopSignals.signal != 0 {
            ending = "stopped by " + StopSignals.name(StopSignals.signal)
        } else if let deadline, ContinuousClock.now >= deadline, failure == nil, ending == "end of stream" {
            ending = "timed out after \(Self.text(timeout!))"
        }
        if let failure { Diagnostics.report(failure, console: console, source: name); ending = "stopped by the error above" }
        events.presenter.printPending(console: console)
        events.presenter.tally.printHints(console: console)
        guard opened, failure?.status != .usage else { return failure?.status ?? .nothingFound }
        console.printError("qrseal: \(DisplayText.escape(name)): \(ending) after \(frames) frame\(frames == 1 ? "" : "s") "
                           + "(\(Self.text(.milliseconds(Int64(lastTime * 1000))))): " + summary(events))
        if let failure { return failure.status }
        return events.presenter.tally.status(otherwise: events.added + events.textAdded > 0 ? .success : .nothingFound)
    }

    /// "3 codes read, 2 text blocks read, 4 kept in the inbox", or "nothing read".
    private func summary(_ events: LiveEvents) -> String {
        var read: [String] = []
        if events.added > 0 { read.append("\(events.added) code\(events.added == 1 ? "" : "s") read") }
        if events.textAdded > 0 { read.append("\(events.textAdded) text block\(events.textAdded == 1 ? "" : "s") read") }
        guard !read.isEmpty else { return "nothing read" }
        var text = read.joined(separator: ", ")
        if events.intake.keepsItems { text += ", \(events.kept) kept in the inbox" }
        return text
    }

    private static func text(_ duration: Duration) -> String {
        let ms = duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
        return ms % 1000 == 0 ? "\(ms / 1000) s" : NumberText.oneDecimal(Double(ms) / 1000) + " s"
    }

    private var sourceKind: InboxItem.SourceKind {
        if case .camera = source { return .camera }
        return .stream
    }

    private var inboxSource: String {
        switch source {
        case .camera(let path, _): return path
        case .stream(let path): return path == "-" ? "-" : URL(fileURLWithPath: path).standardizedFileURL.path
        }
    }

    /// The next frame; nil at the end of a stream or when asked to stop while waiting.
    private func next(_ source: FrameSource) throws(CLIError) -> Frame? {
        do {
            return try source.nextFrame()
        } catch .stopped {
            return nil
        } catch {
            throw CaptureMessages.error(error, name: name, isCamera: sourceKind == .camera)
        }
    }

    private func open(shouldStop: @escaping StopCheck, console: Console) throws(CLIError) -> FrameSource {
        do {
            switch source {
            case let .camera(path, size):
                let camera = try CameraSource(path: path, size: size, shouldStop: shouldStop)
                console.printError("qrseal: \(DisplayText.escape(path)): \(DisplayText.escape(camera.card)), \(camera.width)x\(camera.height) "
                                   + "\(camera.pixelFormat.rawValue); press Ctrl-C to stop")
                return camera
            case .stream(let path):
                let input: ByteInput = path == "-" ? FileInput(descriptor: 0, shouldStop: shouldStop)
                    : try FileInput(path: path, shouldStop: shouldStop)
                return try YUV4MPEGReader(input: input, maxPixels: maxPixels)
            }
        } catch .stopped {
            return EmptySource()
        } catch {
            throw CaptureMessages.error(error, name: name, isCamera: sourceKind == .camera)
        }
    }
}

/// What a scan stopped before its first frame reads from.
private final class EmptySource: FrameSource {
    let width = 0, height = 0
    func nextFrame() throws(CaptureError) -> Frame? { nil }
}
