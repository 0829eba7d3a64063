import Foundation
import Testing
import TestSupport
@testable import QRSealKit

/// Tesseract's start as qrseal makes it: the LSTM engine without the legacy engine's table
/// of ambiguities, the same words on every kind of picture, other languages beside English,
/// and data files that are damaged refused with an error, never a crash.
@Suite("Recognize: Tesseract's start")
struct TesseractStartTests {
    static let pages = Tools.packageRoot.appendingPathComponent("Tests/Images/text").path
    static let other = Tools.packageRoot.appendingPathComponent("Tests/Images/text-other").path
    static let installed = TextRecognizer.defaultDataPath + "/eng.traineddata"

    func image(_ path: String) throws -> GrayImage {
        try ImageDecoder().decode(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
    }

    func lines(_ path: String) throws -> [String] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
    }

    @Test("a start skips the legacy engine's ambiguity table, and pages of each kind still read as their lines",
          arguments: ["sans", "serif", "noisy", "shadow", "skewed", "small"])
    func trimmedStartReadsPages(_ name: String) throws {
        let recognizer = try TextRecognizer()
        #expect(TextRecognizer.skipsLegacyAmbiguities)
        let blocks = try recognizer.recognize(try image(Self.pages + "/" + name + ".png"))
        #expect(blocks.flatMap(\.lines).map(\.text) == (try lines(Self.pages + "/" + name + ".txt")))
    }

    @Test("a camera frame with a few words on mottled ground reads them with the trimmed start")
    func trimmedStartReadsFrame() throws {
        let recognizer = try TextRecognizer(layout: .automatic)
        #expect(TextRecognizer.skipsLegacyAmbiguities)
        let blocks = try recognizer.recognize(try image(Self.other + "/frame.jpg"))
        #expect(blocks.flatMap(\.lines).map(\.text).sorted() == (try lines(Self.other + "/frame.txt")).sorted())
    }

    // tesseract-ocr-deu: make setup installs it.
    @Test("eng+deu reads a German page's umlauts and ß, which English alone misreads")
    func germanBesideEnglish() throws {
        let page = try image(Self.other + "/deu.png")
        let expected = try lines(Self.other + "/deu.txt")
        let both = try TextRecognizer(languages: ["eng", "deu"]).recognize(page)
        #expect(both.flatMap(\.lines).map(\.text) == expected)
        let english = try TextRecognizer().recognize(page)
        #expect(english.flatMap(\.lines).map(\.text) != expected)
    }

    /// The installed English data file damaged in the way `damage` names.
    static func damaged(_ damage: String) throws -> [UInt8] {
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: installed)))
        switch damage {
        case "empty": bytes = []
        case "cut to its table of components": bytes = Array(bytes.prefix(200))
        case "cut in half": bytes = Array(bytes.prefix(bytes.count / 2))
        case "a table of two billion components": bytes.replaceSubrange(0..<4, with: [0xFF, 0xFF, 0xFF, 0x7F])
        case "bytes that are no data file": bytes = Array(repeating: 0xA5, count: 4096)
        case "the network's bytes scrambled":
            for i in stride(from: 1000, to: min(bytes.count, 200_000), by: 7) { bytes[i] ^= 0x5A }
        // Tesseract asserts on these while holding its dictionary cache's lock, or once it reads words.
        case "a dictionary of no edges":
            // The word list (component 19, lstm-word-dawg): a 16-bit magic, the character set's
            // size, then the count of edges.
            let at = Self.component(19, of: bytes) + 6
            bytes.replaceSubrange(at..<at + 4, with: [0, 0, 0, 0])
        case "a character set of no characters":
            // The LSTM character set (component 21), text whose first line is its size: "112".
            let at = Self.component(21, of: bytes)
            #expect(bytes[at..<at + 4] == Array("112\n".utf8)[...])
            bytes.replaceSubrange(at..<at + 3, with: Array("  0".utf8))
        default: Issue.record("unknown damage \(damage)")
        }
        return bytes
    }

    /// Where component `index` of a traineddata file starts: the file begins with the count
    /// of components (32 bits), then each one's offset (64 bits, little-endian).
    static func component(_ index: Int, of bytes: [UInt8]) -> Int {
        (0..<8).reduce(0) { $0 | Int(bytes[4 + 8 * index + $1]) << (8 * $1) }
    }

    static let damages = ["empty", "cut to its table of components", "cut in half", "a table of two billion components",
                          "bytes that are no data file", "the network's bytes scrambled", "a dictionary of no edges",
                          "a character set of no characters"]

    @Test("a damaged data file is refused with an error, and never ends the process",
          arguments: damages)
    func damagedData(_ damage: String) throws {
        let dir = try TempDir()
        _ = try dir.write("eng.traineddata", Data(try Self.damaged(damage)))
        #expect(throws: TextRecognitionError.initFailed(languages: "eng", dataPath: dir.url.path + "/")) {
            try TextRecognizer(languages: ["eng"], dataPath: dir.url.path)
        }
        // The process goes on, and a good data file still starts and reads.
        let blocks = try TextRecognizer().recognize(try image(Self.pages + "/sans.png"))
        #expect(blocks.flatMap(\.lines).map(\.text) == (try lines(Self.pages + "/sans.txt")))
    }

    @Test("a data file that is a FIFO, a folder or too large is refused before Tesseract opens it")
    func notADataFile() throws {
        let dir = try TempDir()
        let path = dir.url.appendingPathComponent("eng.traineddata").path
        #expect(mkfifo(path, 0o600) == 0)
        #expect(throws: TextRecognitionError.notADataFile(path: path, why: "not a regular file")) {
            try TextRecognizer(languages: ["eng"], dataPath: dir.url.path)
        }
        unlink(path)
        #expect(mkdir(path, 0o700) == 0)
        #expect(throws: TextRecognitionError.notADataFile(path: path, why: "not a regular file")) {
            try TextRecognizer(languages: ["eng"], dataPath: dir.url.path)
        }
        rmdir(path)
        // Sparse: a size past the limit costs no disk.
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        #expect(truncate(path, off_t(TesseractStartCheck.maxDataBytes) + 1) == 0)
        #expect(throws: TextRecognitionError.notADataFile(path: path, why: "larger than any data file (512 MiB)")) {
            try TextRecognizer(languages: ["eng"], dataPath: dir.url.path)
        }
    }
}
