import FoundationEssentials
import Dispatch
import Glibc
import QRSealKit

/// `qrseal scan`: every symbol in each image, printed as lines, raw payloads or JSON;
/// sealed messages opened with the keys given.
struct ScanCommand {
    typealias Style = OutcomePresenter.Style

    let sources: [String]
    /// Reads what the images hold, and keeps, opens and files it.
    let intake: Intake
    var presenter: OutcomePresenter
    /// Where --annotate writes the annotated copy of the one image scanned.
    let annotation: Output?
    /// Set with --text or --text-only.
    let text: TextScan?
    /// Set when the command line asks for a camera or a stream instead of image files.
    let live: LiveScan?
    private var ask = PassphraseAsk()

    init(_ args: ParsedArguments, console: Console) throws(CLIError) {
        let maxPixels = try args.integer("max-pixels", in: 1...(1 << 40), default: ImageDecoder.defaultMaxPixels)
        live = try LiveScan.make(args, console: console)
        guard !args.positionals.isEmpty || live != nil else {
            throw .usage("no image to scan", hint: "give one or more image files, or - for standard input")
        }
        sources = args.positionals
        if args.has("raw") && args.has("json") { throw .usage("--raw and --json cannot be used together") }
        let style: Style = args.has("json") ? .json : (args.has("raw") ? .raw : .human)
        let decoder = ImageDecoder(maxPixels: maxPixels)
        let locations = Locations(console: console)
        var detector = Detector(symbologies: try Self.symbologies(args))
        try DetectOptions.configure(args, &detector)
        // What no output may replace: the images, the key files and the inbox.
        let inputs = args.positionals + args.keyFiles + (args.has("no-store") ? [] : [try locations.inboxPath(args)])
        annotation = try DetectOptions.annotation(args, inputs: inputs)
        let reader = Reader(decoder: decoder, detector: detector, opener: try args.opener(),
                            keys: try KeySources(args, console: console).keys + locations.keyringKeys(console: console))
        let keeping = try locations.keeping(args)
        intake = Intake(reader: reader, keeping: keeping, oncePerSession: live != nil)
        presenter = OutcomePresenter(style: style, writer: PayloadWriter(force: args.has("force"), inputs: inputs),
                                     outputDirectory: try args.outputDirectory(), partsAreKept: intake.keepsItems)
        // Last, as it starts Tesseract on a thread of its own, which `run` lets finish.
        text = try TextScan.make(args, console: console, maxPixels: maxPixels)
    }

    private static func symbologies(_ args: ParsedArguments) throws(CLIError) -> Set<Symbology> {
        guard let list = args.value("symbology") else { return Symbology.defaultSet }
        var set: Set<Symbology> = []
        for name in list.split(separator: ",", omittingEmptySubsequences: false) {
            let key = name.trimmingSpaces().lowercased()
            guard let s = Symbology(rawValue: key) else {
                throw .usage("unknown symbology '\(name)'",
                             hint: "choose from " + Symbology.allCases.map(\.rawValue).joined(separator: ","))
            }
            set.insert(s)
        }
        return set
    }

    mutating func run(console: Console) -> ExitStatus {
        // The process must not end inside Tesseract's start.
        defer { text?.finish() }
        if let live { return live.run(intake: intake, presenter: presenter, text: text, console: console) }
        var found = 0
        // Files are read, decoded and scanned on every core, one after another as cores
        // come free; what they hold is opened, kept and printed in order. Only the
        // annotated image's bytes are kept past its scan.
        let sources = sources, scanner = intake.reader, keepBytes = annotation != nil, text = text
        // Asked once: Foundation reads the cgroup's files for it on every call. Twice as many
        // files as cores are in hand at once: a file's worker waits while it is read and
        // decoded and while its passes wait on zxing-cpp's helper, and with one per core
        // the cores stood idle meanwhile (the shared corpus in one call: 1.95-2.2 s, now
        // 1.77-1.82 s on two cores, peak memory on the 12-megapixel sheets unchanged). Not
        // with text recognition, which reads in this process and would start a Tesseract
        // recognizer, and hold its memory, for every file in hand.
        let cores = ProcessInfo.processInfo.activeProcessorCount
        inOrder(count: sources.count, width: text == nil ? 2 * cores : cores, { i in
            let source = sources[i]
            let loaded = Result { () throws(CLIError) in
                source == "-" ? try StandardInput.image(console, limit: Files.maxInputBytes)
                    : try Files.read(source, console: console)
            }
            // Each page or frame is scanned as it is decoded, on every core while the next is
            // decoded (a PDF's pages are drawn one after another); at most as many wait as
            // there are cores, so that few are held at once. The last picture, the only one
            // of most files, is scanned on this worker's own thread: handed to Dispatch, it
            // waited there while the pictures of the other files in hand held Dispatch's few
            // threads in zxing-cpp's helper, and the cores stood idle a tenth of the time
            // (the shared corpus in one call: 1.76-1.81 cores busy, now 1.94-1.96).
            let pictures = Result { () throws(RasterError) -> [ScannedPicture] in
                let results = ScannedPictures(), group = DispatchGroup()
                let slots = DispatchSemaphore(value: cores)
                defer { group.wait() }
                let scan = { @Sendable (image: GrayImage, part: ImagePart?, index: Int) in
                    let name = ScannedPicture.name(source, part)
                    let report = text?.textOnly == true ? DetectorReport(detections: []) : scanner.detector.examine(image)
                    let recognised = text.map { text in
                        Result { () throws(CLIError) in try text.recognize(image, codes: report.detections, source: name) }
                    }
                    results.set(index, ScannedPicture(part: part, report: report, text: recognised))
                }
                var last: (image: GrayImage, part: ImagePart?, index: Int)?
                try scanner.decoder.decodeEach((try? loaded.get()) ?? []) { image, part in
                    if let earlier = last {
                        slots.wait()
                        DispatchQueue.global().async(group: group) {
                            defer { slots.signal() }
                            scan(earlier.image, earlier.part, earlier.index)
                        }
                    }
                    last = (image, part, results.reserve())
                }
                if let last { scan(last.image, last.part, last.index) }
                group.wait()
                return results.all
            }
            return (keepBytes ? loaded : loaded.map { _ in [] }, pictures)
        }) { (i: Int, scanned: (Result<[UInt8], CLIError>, Result<[ScannedPicture], RasterError>)) in
            var outcomes: [Outcome] = []
            do throws(CLIError) {
                let bytes = try scanned.0.get()
                let pictures: [ScannedPicture]
                do throws(RasterError) { pictures = try scanned.1.get() } catch { throw CLIError(message: "\(sources[i]): \(error.description)") }
                var textFailure: CLIError?
                var inFile = 0
                for picture in pictures {
                    let source = IntakeSource.file(sources[i], part: picture.part?.description)
                    for _ in 0..<Diagnostics.report(picture.report.failures, source: source.name, console: console) {
                        presenter.countFailure()
                    }
                    var blocks: [TextBlock] = []
                    if let recognised = picture.text {
                        do throws(CLIError) { blocks = try recognised.get() } catch { textFailure = textFailure ?? error }
                    }
                    let shown = present(intake.take(picture.report.detections, from: source) + intake.take(blocks, from: source),
                                        console: console)
                    // Only the first picture is annotated (--annotate takes one image).
                    if picture.part == nil || picture.part?.number == 1 { outcomes += shown }
                    inFile += shown.count
                }
                found += inFile
                if let textFailure { throw textFailure }
                if inFile == 0 { presenter.nothingFound(sources[i], text: text != nil, console: console) }
                if let annotation {
                    try DetectOptions.annotate(bytes, items: outcomes, decoder: intake.reader.decoder, to: annotation,
                                               console: console)
                }
            } catch {
                presenter.countFailure()
                Diagnostics.report(error, console: console, source: sources[i])
            }
        }
        // zbar opens when a pass first needs it; without it the images were read by zxing-cpp alone.
        if let missing = SharedLibrary.zbar.failure {
            presenter.countFailure()
            Diagnostics.report(CLIError(missing), console: console)
        }
        presenter.printPending(console: console)
        presenter.tally.printHints(console: console)
        return presenter.tally.status(otherwise: found > 0 ? .success : .nothingFound)
    }

    /// The pictures of one file as their scans end, in any order, kept in the file's order.
    final class ScannedPictures: @unchecked Sendable {
        private let lock = Lock()
        private var pictures: [ScannedPicture?] = []

        /// A place for the next picture.
        func reserve() -> Int {
            lock.withLock { pictures.append(nil); return pictures.count - 1 }
        }

        func set(_ index: Int, _ picture: ScannedPicture) {
            lock.withLock { pictures[index] = picture }
        }

        /// Every picture, once all were set.
        var all: [ScannedPicture] { lock.withLock { pictures.compactMap { $0 } } }
    }

    /// What one page or frame of a file gave: its codes, and its text when asked for.
    struct ScannedPicture: @unchecked Sendable {
        let part: ImagePart?
        let report: DetectorReport
        let text: Result<[TextBlock], CLIError>?

        /// How messages name a picture: the file, and the page or frame of a file of several.
        static func name(_ source: String, _ part: ImagePart?) -> String {
            IntakeSource.file(source, part: part?.description).name
        }
    }

    /// Asks for a passphrase when a message needs one, then shows each outcome: pieces of
    /// larger messages first, then codes, then text. A prompt that fails is reported and
    /// what was read is still shown.
    private mutating func present(_ taken: [Outcome], console: Console) -> [Outcome] {
        var outcomes = taken
        do { outcomes = try ask.reopen(taken, intake: intake, console: console) } catch {
            presenter.countFailure()
            Diagnostics.report(error, console: console)
        }
        let pieces = outcomes.filter(\.classification.isPiece), others = outcomes.filter { !$0.classification.isPiece }
        for outcome in pieces + others { presenter.present(outcome, console: console) }
        return outcomes
    }
}
