import Foundation
import QRSealKit

/// `scan --text` and `--text-only`: text recognised in each image beside its codes, through
/// recognizers made once and lent to the threads that scan images side by side.
final class TextScan: @unchecked Sendable {
    static let options = [
        OptionSpec(long: "text", help: "Also recognise text (Tesseract), printed by lines as SOURCE: text: LINE; live, on still frames, once stable."),
        OptionSpec(long: "text-only", help: "Recognise text and read no codes."),
        OptionSpec(long: "lang", value: "LIST",
                   help: "Text languages, joined by + (default eng; installed ones: qrseal doctor)."),
        OptionSpec(long: "min-confidence", value: "N",
                   help: "Leave out recognised words below confidence N, 0 to 100 (default 0)."),
        OptionSpec(long: "text-layout", value: "auto|page|sparse",
                   help: "How text is laid out: page (columns and lines), sparse (a few words scattered over a photo), "
                       + "or auto (sparse when the picture holds few letters; the default for images; live frames default to sparse).",
                   completes: .choices(["auto", "page", "sparse"])),
        OptionSpec(long: "text-time-limit", value: "SECONDS",
                   help: "Stop recognising an image's text after SECONDS and report it as an error "
                       + "(default 20, and 4 more per million pixels)."),
    ]

    let textOnly: Bool
    private let languages: [String]
    private let layout: TextLayout
    private let dataPath: String
    private let minConfidence: Double
    private let maxPixels: Int
    private let timeBudget: Double?
    private let lock = NSCondition()
    private var idle: [TextRecognizer] = []
    /// How many recognizers are still starting, each on its own thread, and the failure of
    /// the first that failed.
    private var starting = 0
    private var startFailure: CLIError?

    /// Nil unless the command line asks for text; a missing language is reported here,
    /// before any image is read.
    static func make(_ args: ParsedArguments, console: Console, maxPixels: Int) throws(CLIError) -> TextScan? {
        guard args.has("text") || args.has("text-only") else {
            if let name = ["lang", "min-confidence", "text-layout", "text-time-limit"].first(where: { args.value($0) != nil }) {
                throw .usage("--\(name) applies to text recognition only", hint: "add --text or --text-only")
            }
            return nil
        }
        let live = args.has("camera") || args.value("device") != nil || args.value("stream") != nil
        let layout = try args.choice("text-layout", of: TextLayout.self) ?? (live ? .sparse : .automatic)
        let languages = (args.value("lang") ?? "eng").split(separator: "+", omittingEmptySubsequences: false).map(String.init)
        let scan = TextScan(textOnly: args.has("text-only"), languages: languages,
                            dataPath: dataPath(console), minConfidence: Double(try args.integer("min-confidence", in: 0...100, default: 0)),
                            maxPixels: args.value("max-pixels") != nil ? maxPixels : min(maxPixels, TextRecognizer.defaultMaxPixels),
                            layout: layout,
                            timeBudget: try args.value("text-time-limit").map(Self.seconds))
        // A missing language or library is reported now; Tesseract itself (its language
        // data, loaded in about the time a camera frame's recognition takes) starts on a
        // thread of its own while the first image is read, decoded, scanned and prepared;
        // for still images a second one beside it, which reads half of a page of many
        // lines (`recognize`) or the next image, so that neither waits for a start.
        do { try TextRecognizer.checkLanguages(languages, dataPath: scan.dataPath) } catch { throw CLIError(error) }
        // Data files that started cleanly in the engine's helper once are not checked again.
        TextRecognizer.checkedStarts = Locations(console: console).cacheDirectory.map { $0 + "/tesseract-starts" }
        scan.start(live ? 1 : 2)
        return scan
    }

    /// Where the language data is: `TESSDATA_PREFIX` (the tessdata folder itself, as
    /// Tesseract 5 reads it), else Debian's folder.
    static func dataPath(_ console: Console) -> String {
        console.environment["TESSDATA_PREFIX"].flatMap { $0.isEmpty ? nil : $0 } ?? TextRecognizer.defaultDataPath
    }

    /// `--text-time-limit`: seconds above 0, as `30` or `2.5`.
    static func seconds(_ text: String) throws(CLIError) -> Double {
        guard let s = Double(text), s.isFinite, s >= 0.001, s <= 86_400 else {
            throw .usage("--text-time-limit must be a number of seconds from 0.001 to 86400, such as 30 or 2.5, not '\(text)'")
        }
        return s
    }

    private init(textOnly: Bool, languages: [String], dataPath: String, minConfidence: Double, maxPixels: Int,
                 layout: TextLayout, timeBudget: Double?) {
        self.timeBudget = timeBudget
        self.textOnly = textOnly
        self.languages = languages
        self.layout = layout
        self.dataPath = dataPath
        self.minConfidence = minConfidence
        self.maxPixels = maxPixels
    }

    /// The text blocks of one image, on whichever thread calls it, the codes found in it
    /// left out; a failure names `source`.
    func recognize(_ image: GrayImage, codes: [Detection], source: String) throws(CLIError) -> [TextBlock] {
        let prepared: PreparedText
        do { prepared = try TextRecognizer.prepare(image, excluding: codes.map(\.quietZone), maxPixels: maxPixels) } catch {
            throw CLIError(error, source: source)
        }
        let recognizer = try take()
        defer { give(recognizer) }
        // A page read in pieces shares them with a second recognizer, an idle one or one
        // started for it on the helper's thread while this one reads.
        var helper: TextHelper?
        if prepared.pieces(layout: layout) > 1 {
            helper = { [self] read in
                let other: TextRecognizer
                do { other = try take() } catch { return }
                read(other)
                give(other)
            }
        }
        do { return try recognizer.recognize(prepared, helper: helper) } catch { throw CLIError(error, source: source) }
    }

    /// A session recognising the text of live frames on a thread of its own, with one of
    /// the recognizers made here.
    func liveSession(pacing: TextSession.Pacing) throws(CLIError) -> TextSession {
        TextSession(recognizer: try take(), options: .init(pacing: pacing))
    }

    /// Waits for the recognizers still starting, so that the process can end:
    /// Tesseract's globals are destroyed at exit, under a thread still inside its start (an
    /// image that fails to decode takes no recognizer, and the scan would end at once).
    func finish() {
        lock.lock()
        while starting > 0 { lock.wait() }
        lock.unlock()
    }

    /// Whether a recognizer is still starting.
    var isStarting: Bool {
        lock.lock()
        defer { lock.unlock() }
        return starting > 0
    }

    /// Starts `count` recognizers, each on a thread of its own; `take` and `finish` wait for them.
    private func start(_ count: Int) {
        starting = count
        for _ in 0..<count {
            let thread = Thread { [self] in
                let made = Result { () throws(CLIError) in try recognizer() }
                lock.lock()
                switch made {
                case .success(let recognizer): idle.append(recognizer)
                case .failure(let error): startFailure = startFailure ?? error
                }
                starting -= 1
                lock.broadcast()
                lock.unlock()
            }
            thread.name = "qrseal text start"
            thread.start()
        }
    }

    /// An idle recognizer, one being started once it has, or a new one.
    private func take() throws(CLIError) -> TextRecognizer {
        lock.lock()
        while starting > 0, idle.isEmpty { lock.wait() }
        let ready = idle.popLast()
        let failure = startFailure
        lock.unlock()
        if let ready { return ready }
        if let failure { throw failure }
        return try recognizer()
    }

    private func give(_ recognizer: TextRecognizer) {
        lock.lock()
        idle.append(recognizer)
        lock.broadcast()
        lock.unlock()
    }

    private func recognizer() throws(CLIError) -> TextRecognizer {
        do {
            let recognizer = try TextRecognizer(languages: languages, dataPath: dataPath, layout: layout,
                                                minConfidence: minConfidence, maxPixels: maxPixels)
            recognizer.timeBudget = timeBudget
            return recognizer
        } catch {
            throw CLIError(error)
        }
    }
}

extension CLIError {
    /// Text recognition's failure, with the package to install for missing language data;
    /// a failure on one image starts with its name.
    init(_ error: TextRecognitionError, source: String? = nil) {
        let message = (source.map { $0 + ": " } ?? "") + error.description
        switch error {
        case let .missingLanguage(_, package):
            self.init(message: error.description,
                      hints: ["install it: apt-get install \(package) (or set TESSDATA_PREFIX to a tessdata folder that has it)"])
        case .library(let error):
            self.init(error)
        case let .initFailed(languages, _):
            let packages = languages.split(separator: "+").map { TextRecognitionError.package(forLanguage: String($0)) }
            self.init(message: message, hints: ["a data file may be damaged: reinstall it: apt-get install --reinstall "
                                                + packages.joined(separator: " ")])
        case let .notADataFile(path, _):
            let name = (path as NSString).lastPathComponent.replacingOccurrences(of: ".traineddata", with: "")
            self.init(message: message, hints: ["reinstall it: apt-get install --reinstall "
                                                + TextRecognitionError.package(forLanguage: name)])
        case .engine:
            self.init(message: message, hints: [Diagnostics.engineHint])
        case .badLanguage:
            self.init(message: error.description, hints: ["give language codes joined by +, e.g. --lang eng+deu"], status: .usage)
        case .imageTooLarge:
            self.init(message: message, hints: ["crop the picture to the text, or raise the limit with --max-pixels N"])
        case .timeLimitExceeded:
            self.init(message: message, hints: ["give it longer with --text-time-limit SECONDS, or crop the picture to the text"])
        default:
            self.init(message: message)
        }
    }
}
