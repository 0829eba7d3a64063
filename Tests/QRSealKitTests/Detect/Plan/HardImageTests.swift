import Foundation
import Testing
import TestSupport
@testable import QRSealKit

/// The generated images of Tests/Images/hard (see make-hard-images.sh): each kind of
/// difficulty is read at the default effort, every expected payload once and nothing else.
@Suite("Detector: hard images")
struct HardImageTests {
    static let folder = Tools.packageRoot.appendingPathComponent("Tests/Images/hard")

    static let names: [String] = {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return files.filter { $0.hasSuffix(".png") || $0.hasSuffix(".jpg") }.sorted()
    }()

    /// The image and the payloads its .txt file lists, one per line.
    static func sample(_ name: String) throws -> (GrayImage, [String]) {
        let url = folder.appendingPathComponent(name)
        let image = try ImageDecoder().decode([UInt8](try Data(contentsOf: url)))
        let text = try String(contentsOf: url.deletingPathExtension().appendingPathExtension("txt"), encoding: .utf8)
        return (image, text.split(separator: "\n").map(String.init))
    }

    /// What the default effort (without its time budget) reads in each image, run once an
    /// image: several tests look at the same reads.
    static func found(_ name: String) throws -> [Detection] {
        try detections.value(name) { detector().detect(in: try sample(name).0) }
    }

    private static let detections = RunCache<[Detection]>()

    /// The default effort without its time budget, so that a slow (debug) build reads the
    /// same as a release build.
    static func detector(_ effort: Effort = .balanced) -> Detector {
        var detector = Detector(effort: effort)
        detector.timeBudget = .cpu(.seconds(600))
        return detector
    }

    @Test("every kind of difficulty the generator makes is present")
    func kinds() {
        let kinds = ["blur", "noise", "perspective", "rotation", "low-contrast", "low-quality", "screen-photo",
                     "many-codes", "tiny", "huge", "inverted", "glare-shadow", "no-quiet-zone", "code-in-code"]
        #expect(Set(Self.names.map { String($0.prefix { $0 != "." }) }) == Set(kinds))
    }

    @Test("each image is read at the default effort: every payload, once, and nothing else",
          arguments: HardImageTests.names)
    func read(name: String) throws {
        let (_, expected) = try Self.sample(name)
        let found = try Self.found(name)
        #expect(found.compactMap(\.text).sorted() == expected.sorted(), "\(name)")
        #expect(found.allSatisfy { $0.symbology == .qr })
    }

    @Test("corners lie on the code in the input's pixels, whichever pass found it",
          arguments: ["tiny.png", "huge.png", "no-quiet-zone.png", "blur.png"])
    func cornersInInputPixels(name: String) throws {
        let (image, _) = try Self.sample(name)
        let found = try #require(try Self.found(name).first)
        // Each image holds one code centred in the picture, with a quiet zone of at most
        // 4 modules around it (none for no-quiet-zone): the corners sit inside the image,
        // within the outer quarter, and span most of it.
        let w = Double(image.width), h = Double(image.height)
        for c in found.corners {
            #expect(c.x >= -2 && c.x <= w + 2 && c.y >= -2 && c.y <= h + 2, "\(name): \(c) outside \(w)x\(h)")
        }
        #expect(abs(found.center.x - w / 2) < w / 20 && abs(found.center.y - h / 2) < h / 20, "\(name)")
        #expect(found.extent > 0.6 * min(w, h), "\(name): extent \(found.extent)")
    }

    @Test("fast reads only what the first pass reads; thorough reads at least what balanced reads")
    func efforts() throws {
        let (blurred, expected) = try Self.sample("blur.png")
        #expect(Self.detector(.fast).detect(in: blurred).isEmpty)
        #expect(Self.detector(.thorough).detect(in: blurred).compactMap(\.text) == expected)
        let (clean, cleanText) = try Self.sample("no-quiet-zone.png")
        #expect(Self.detector(.fast).detect(in: clean).compactMap(\.text) == cleanText)
    }

    @Test("many codes on a page come in reading order, row by row")
    func readingOrder() throws {
        let (_, expected) = try Self.sample("many-codes.png")
        #expect(try Self.found("many-codes.png").compactMap(\.text) == expected)
    }

    @Test("a code inside a code: both are reported")
    func codeInCode() throws {
        let (image, expected) = try Self.sample("code-in-code.png")
        let found = Self.detector(.fast).detect(in: image)
        #expect(found.compactMap(\.text).sorted() == expected.sorted())
        let outer = try #require(found.first { $0.text == expected[0] })
        let inner = try #require(found.first { $0.text == expected[1] })
        #expect(outer.extent > 3 * inner.extent)
        #expect(outer.corners.encloses(inner.center))
    }
}
