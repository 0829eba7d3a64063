import Foundation
import Testing
import TestSupport
@testable import QRSealKit

/// Text recognition through Tesseract on images rendered for the purpose (Tests/Images/text,
/// remade by make-text-images.sh), and on images made to hurt it.
@Suite("Recognize: Tesseract text blocks")
struct TextRecognizerTests {
    static let folder = Tools.packageRoot.appendingPathComponent("Tests/Images/text").path
    static let names = (try? FileManager.default.contentsOfDirectory(atPath: folder))?
        .filter { $0.hasSuffix(".png") }.map { String($0.dropLast(4)) }.sorted() ?? []

    func image(_ name: String) throws -> GrayImage {
        try ImageDecoder().decode(Array(try Data(contentsOf: URL(fileURLWithPath: Self.folder + "/" + name + ".png"))))
    }

    @Test("the folder has its images")
    func folderIsThere() {
        #expect(Self.names.count >= 4, "\(Self.names)")
    }

    @Test("each rendered image reads as its lines", arguments: names)
    func readsLines(_ name: String) throws {
        let expected = try String(contentsOfFile: Self.folder + "/" + name + ".txt", encoding: .utf8)
            .split(separator: "\n").map(String.init)
        let blocks = try TextRecognizer().recognize(try image(name))
        #expect(blocks.flatMap(\.lines).map(\.text) == expected)
    }

    @Test("boxes are in the input's pixels: words inside their line, lines inside their block")
    func boxes() throws {
        let page = try image("kinds")
        let blocks = try TextRecognizer().recognize(page)
        #expect(!blocks.isEmpty)
        func inside(_ a: Region, _ b: Region) -> Bool {
            a.x >= b.x && a.y >= b.y && a.x + a.width <= b.x + b.width && a.y + a.height <= b.y + b.height
        }
        for block in blocks {
            #expect(inside(block.box, Region(x: 0, y: 0, width: page.width, height: page.height)))
            #expect((0...100).contains(block.confidence))
            for line in block.lines {
                #expect(inside(line.box, block.box))
                for word in line.words {
                    #expect(inside(word.box, line.box), "\(word)")
                    #expect(word.box.width > 0 && word.box.height > 0)
                    #expect((0...100).contains(word.confidence))
                }
            }
        }
        // Words of a line run left to right.
        let xs = blocks[0].lines[0].words.map(\.box.x)
        #expect(xs == xs.sorted())
    }

    @Test("words below the minimum confidence are left out, and blocks left empty with them")
    func minConfidence() throws {
        let page = try image("sans")
        let all = try TextRecognizer().recognize(page).flatMap(\.lines).flatMap(\.words)
        let lowest = try #require(all.map(\.confidence).min())
        let kept = try TextRecognizer(minConfidence: lowest + 0.01).recognize(page).flatMap(\.lines).flatMap(\.words)
        #expect(kept.count < all.count && kept.allSatisfy { $0.confidence > lowest })
        #expect(try TextRecognizer(minConfidence: 100.5).recognize(page).isEmpty)
    }

    @Test("hostile images give no text and no crash: 1×1, 7×200, noise, black, a blank page")
    func hostile() throws {
        let recognizer = try TextRecognizer()
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        let noise = (0..<(320 * 240)).map { _ -> UInt8 in
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return UInt8(truncatingIfNeeded: seed >> 56)
        }
        let images = [
            GrayImage(width: 1, height: 1, filledWith: 0),
            GrayImage(width: 7, height: 200, filledWith: 0),
            GrayImage(width: 0, height: 0, pixels: []),
            GrayImage(width: 320, height: 240, pixels: noise),
            GrayImage(width: 400, height: 300, filledWith: 0),
            GrayImage(width: 1000, height: 800, filledWith: 255),
        ]
        for image in images {
            let words = try recognizer.recognize(image).flatMap(\.lines).flatMap(\.words)
            // Noise may look like a letter or two, never like lines of confident words.
            #expect(words.filter { $0.confidence > 80 && $0.text.count > 3 }.isEmpty, "\(image.width)x\(image.height): \(words)")
        }
        // The same recognizer still reads after all that.
        #expect(try recognizer.recognize(try image("serif")).count >= 1)
    }

    @Test("a language without data is named, with the Debian package that has it")
    func missingLanguage() throws {
        let empty = try TempDir()
        #expect(throws: TextRecognitionError.missingLanguage(name: "eng", package: "tesseract-ocr-eng")) {
            try TextRecognizer(languages: ["eng"], dataPath: empty.url.path)
        }
        #expect(throws: TextRecognitionError.missingLanguage(name: "klingon", package: "tesseract-ocr-klingon")) {
            try TextRecognizer(languages: ["eng", "klingon"])
        }
        #expect(TextRecognitionError.package(forLanguage: "chi_sim") == "tesseract-ocr-chi-sim")
        #expect(TextRecognitionError.missingLanguage(name: "deu", package: "tesseract-ocr-deu").description
                == "no text recognition data for language 'deu'")
    }

    @Test("names that cannot name a data file are refused before any file is looked at",
          arguments: ["", "../eng", "eng/x", "e ng", String(repeating: "a", count: 33), "eng\u{0}"])
    func badLanguage(_ name: String) {
        #expect(throws: TextRecognitionError.badLanguage(name)) { try TextRecognizer(languages: [name]) }
    }

    @Test("installed languages: the data files in the folder, without osd")
    func installedLanguages() throws {
        let dir = try TempDir()
        for name in ["eng.traineddata", "deu.traineddata", "osd.traineddata", "notes.txt", "x y.traineddata"] {
            try dir.write(name, Data())
        }
        #expect(TextRecognizer.installedLanguages(dataPath: dir.url.path) == ["deu", "eng"])
        #expect(TextRecognizer.installedLanguages(dataPath: dir.path("missing")) == [])
        #expect(TextRecognizer.installedLanguages().contains("eng"))
    }
}
