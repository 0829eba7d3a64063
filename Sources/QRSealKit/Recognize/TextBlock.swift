extension Region {
    /// The four corners, top-left, top-right, bottom-right, bottom-left, as symbols give theirs.
    public var corners: [Point] {
        let l = Double(x), t = Double(y), r = Double(x + width), b = Double(y + height)
        return [Point(x: l, y: t), Point(x: r, y: t), Point(x: r, y: b), Point(x: l, y: b)]
    }

}

/// One recognised word, with its own box and confidence (0–100).
public struct TextWord: Equatable, Sendable {
    public let text: String
    public let confidence: Double
    public let box: Region

    public init(text: String, confidence: Double, box: Region) {
        self.text = text; self.confidence = confidence; self.box = box
    }
}

/// One line of a text block: its words, left to right as read.
public struct TextLine: Equatable, Sendable {
    public let words: [TextWord]
    public let confidence: Double
    public let box: Region

    public init(words: [TextWord], confidence: Double, box: Region) {
        self.words = words; self.confidence = confidence; self.box = box
    }

    /// The words joined by single spaces.
    public var text: String { words.map(\.text).joined(separator: " ") }
}

/// A block of text recognised in an image: lines of words, each with boxes in input pixels.
public struct TextBlock: Equatable, Sendable {
    public let lines: [TextLine]
    /// The block's confidence, 0–100, as Tesseract gives it.
    public let confidence: Double
    /// The upright rectangle around the block.
    public let box: Region
    /// The block's four corners, top-left first, clockwise: the box's own unless the text
    /// was turned level to be read, when they follow its slant.
    public let corners: [Point]

    public init(lines: [TextLine], confidence: Double, box: Region, corners: [Point]? = nil) {
        self.lines = lines; self.confidence = confidence; self.box = box
        self.corners = corners ?? box.corners
    }

    /// The lines joined by line feeds.
    public var text: String { lines.map(\.text).joined(separator: "\n") }
}

/// How the text of an image is laid out, which chooses Tesseract's page segmentation.
public enum TextLayout: String, Sendable, CaseIterable {
    /// A page or a document: columns, paragraphs, lines (`PSM_AUTO`).
    case page
    /// Text scattered over a photo or a camera frame: as many words as can be found, in
    /// no particular order (`PSM_SPARSE_TEXT`).
    case sparse
    /// Sparse when the picture holds few letters for its size (`TextMeasure.isSparse`), else page.
    case automatic = "auto"
}

/// Why text could not be recognised.
public enum TextRecognitionError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No `NAME.traineddata` in the data folder; `package` is the Debian package that has it.
    case missingLanguage(name: String, package: String)
    /// A language name that cannot name a data file.
    case badLanguage(String)
    /// Tesseract could not start with the data given: it refused it, or its start in the
    /// helper process crashed or hung (`TesseractStartCheck`).
    case initFailed(languages: String, dataPath: String)
    /// A language's data file is no file Tesseract should read: why.
    case notADataFile(path: String, why: String)
    /// The helper process that checks a start (`Engine`) could not run.
    case engine(EngineFailure)
    /// Tesseract gave up on the image.
    case recognitionFailed
    /// Tesseract, opened on first use, cannot be loaded.
    case library(LibraryError)
    /// An image so large that shrinking it to `limit` pixels would make its text too small to read.
    case imageTooLarge(width: Int, height: Int, limit: Int)
    /// Recognition ran past its time budget (`TextRecognizer.timeBudget`) and was stopped.
    case timeLimitExceeded(seconds: Double)

    public var description: String {
        switch self {
        case let .missingLanguage(name, _): return "no text recognition data for language '\(name)'"
        case .badLanguage(let name): return "'\(name)' is not a language name"
        case let .initFailed(languages, path): return "tesseract could not start with '\(languages)' from \(path)"
        case let .notADataFile(path, why): return "\(path): \(why)"
        case .engine(let failure): return "text recognition could not start: \(failure)"
        case .recognitionFailed: return "tesseract could not recognise text in the image"
        case .library(let error): return error.description
        case let .imageTooLarge(width, height, limit):
            return "image of \(width)x\(height) pixels is too large for text recognition (limit \(limit) pixels), "
                + "and its text would be too small to read if shrunk to fit"
        case .timeLimitExceeded(let seconds):
            return "text recognition stopped after its time budget of \(Self.seconds(seconds)) s"
        }
    }

    /// `2.5`, `30`: seconds as a person writes them.
    static func seconds(_ s: Double) -> String {
        s == s.rounded() && abs(s) < 1e9 ? String(Int(s)) : String((s * 1000).rounded() / 1000)
    }

    /// The Debian package for a Tesseract language, e.g. `tesseract-ocr-deu` for `deu`,
    /// `tesseract-ocr-chi-sim` for `chi_sim`.
    public static func package(forLanguage name: String) -> String {
        "tesseract-ocr-" + String(name.lowercased().map { $0 == "_" ? "-" : $0 })
    }
}
