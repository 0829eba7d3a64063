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
        default: Issue.record("unknown damage \(damage)")
        }
        return bytes
    }

    static let damages = ["empty", "cut to its table of components", "cut in half", "a table of two billion components",
                          "bytes that are no data file", "the network's bytes scrambled"]

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
}
