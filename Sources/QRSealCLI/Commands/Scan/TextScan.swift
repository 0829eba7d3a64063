import FoundationEssentials
import Glibc
import QRSealKit

/// `scan --text` and `--text-only`: text recognised in each image beside its codes, through
/// recognizers made once and lent to the threads that scan images side by side.
final class TextScan: Sendable {
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
    /// The recognizers, started here and lent to the threads that scan.
    private let pool: TextRecognizerPool

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
        let pool = TextRecognizerPool(languages: languages, dataPath: dataPath(console), layout: layout,
                                      minConfidence: Double(try args.integer("min-confidence", in: 0...100, default: 0)),
                                      maxPixels: args.value("max-pixels") != nil ? maxPixels : min(maxPixels, TextRecognizer.defaultMaxPixels),
                                      timeBudget: try args.value("text-time-limit").map(Self.seconds))
        // A missing language or library is reported now; Tesseract itself (its language
        // data, loaded in about the time a camera frame's recognition takes) starts on a
        // thread of its own while the first image is read, decoded, scanned and prepared;
        // for still images a second one beside it, which reads half of a page of many
        // lines (`recognize`) or the next image, so that neither waits for a start.
        do { try TextRecognizer.checkLanguages(languages, dataPath: pool.dataPath) } catch { throw CLIError(error) }
        // Data files that started cleanly in the engine's helper once are not checked again.
        TextRecognizer.checkedStarts = Locations(console: console).cacheDirectory.map { $0 + "/tesseract-starts" }
        pool.start(live ? 1 : 2)
        return TextScan(textOnly: args.has("text-only"), pool: pool)
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

    private init(textOnly: Bool, pool: TextRecognizerPool) {
        self.textOnly = textOnly
        self.pool = pool
    }

    /// The text blocks of one image, on whichever thread calls it, the codes found in it
    /// left out; a failure names `source`.
    func recognize(_ image: GrayImage, codes: [Detection], source: String) throws(CLIError) -> [TextBlock] {
        let prepared: PreparedText
        do { prepared = try TextRecognizer.prepare(image, excluding: codes.map(\.quietZone), maxPixels: pool.maxPixels) } catch {
            throw CLIError(error, source: source)
        }
        // A recognizer that failed to start is the command's failure, not the image's.
        let recognizer: TextRecognizer
        do { recognizer = try pool.take() } catch { throw CLIError(error) }
        defer { pool.give(recognizer) }
        do { return try pool.recognize(prepared, with: recognizer) } catch { throw CLIError(error, source: source) }
    }

    /// A session recognising the text of live frames on a thread of its own, with one of
    /// the recognizers made here.
    func liveSession(pacing: TextSession.Pacing) throws(CLIError) -> TextSession {
        do { return try TextSession(pool: pool, options: .init(pacing: pacing)) } catch { throw CLIError(error) }
    }

    /// Waits for the recognizers still starting, so that the process can end:
    /// Tesseract's globals are destroyed at exit, under a thread still inside its start (an
    /// image that fails to decode takes no recognizer, and the scan would end at once).
    func finish() { pool.finish() }

    /// Whether a recognizer is still starting.
    var isStarting: Bool { pool.isStarting }
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
            let name = SystemFiles.lastComponent(of: path).replacing(".traineddata", with: "")
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
