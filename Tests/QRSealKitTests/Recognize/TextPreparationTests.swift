import Foundation
import Testing
import TestSupport
@testable import QRSealKit

/// What is done to an image before Tesseract reads it: turned level, small text enlarged,
/// huge images shrunk or refused, a time budget; and that what is read still comes back in
/// the input's pixels.
@Suite("Recognize: preparing images for text recognition")
struct TextPreparationTests {
    static let folder = Tools.packageRoot.appendingPathComponent("Tests/Images/text").path

    func image(_ name: String) throws -> GrayImage {
        try ImageDecoder().decode(Array(try Data(contentsOf: URL(fileURLWithPath: Self.folder + "/" + name + ".png"))))
    }

    func lines(_ name: String) throws -> [String] {
        try String(contentsOfFile: Self.folder + "/" + name + ".txt", encoding: .utf8).split(separator: "\n").map(String.init)
    }

    func read(_ image: GrayImage, _ recognizer: TextRecognizer? = nil) throws -> [String] {
        try (recognizer ?? TextRecognizer()).recognize(image).flatMap(\.lines).map(\.text)
    }

    @Test("the angle of a page's lines is measured, either way, and level text measures level",
          arguments: [-7.0, -3.0, 2.5, 5.0, 11.0])
    func skewMeasured(_ degrees: Double) throws {
        let page = try image("shadow").evenedLight()
        #expect(abs(TextMeasure(page).skew) < 0.3)
        let turned = page.turned(by: degrees)
        #expect(abs(TextMeasure(turned).skew - degrees) <= 0.4, "\(TextMeasure(turned))")
    }

    @Test("a page laid crooked reads as well as a straight one, its kinds too",
          arguments: [("kinds", -6.0), ("kinds", 4.0), ("serif", 9.0), ("shadow", -3.0), ("shadow", 5.0)])
    func crookedPage(_ name: String, _ degrees: Double) throws {
        let page = try image(name)
        let blocks = try TextRecognizer().recognize(page.turned(by: degrees))
        #expect(blocks.flatMap(\.lines).map(\.text) == (try lines(name)))
        #expect(blocks.flatMap(\.contents).map(\.kind) == (try TextRecognizer().recognize(page)).flatMap(\.contents).map(\.kind))
    }

    @Test("a page rendered turned 4 degrees reads as its lines")
    func skewedImage() throws {
        #expect(try read(try image("skewed")) == (try lines("skewed")))
    }

    @Test("boxes of a turned page are mapped back onto its words in the input's pixels")
    func turnedBoxes() throws {
        let page = try image("sans")
        let straight = try TextRecognizer().recognize(page)
        let degrees = 6.0
        let turned = page.turned(by: degrees)
        let blocks = try TextRecognizer().recognize(turned)
        let a = degrees * Double.pi / 180
        // Where a point of the straight page lands in the turned one.
        func land(_ x: Double, _ y: Double) -> (Double, Double) {
            let dx = x - Double(page.width) / 2, dy = y - Double(page.height) / 2
            return (Double(turned.width) / 2 + cos(a) * dx - sin(a) * dy, Double(turned.height) / 2 + sin(a) * dx + cos(a) * dy)
        }
        let before = straight.flatMap(\.lines).flatMap(\.words), after = blocks.flatMap(\.lines).flatMap(\.words)
        #expect(before.map(\.text) == after.map(\.text))
        for (w0, w1) in zip(before, after) {
            let (x, y) = land(Double(w0.box.x) + Double(w0.box.width) / 2, Double(w0.box.y) + Double(w0.box.height) / 2)
            let cx = Double(w1.box.x) + Double(w1.box.width) / 2, cy = Double(w1.box.y) + Double(w1.box.height) / 2
            #expect(abs(cx - x) < 8 && abs(cy - y) < 8, "\(w1.text): \(cx),\(cy) against \(x),\(y)")
        }
        // The block's corners follow the slant: its top edge falls as the text does.
        let corners = try #require(blocks.first?.corners)
        let slope = (corners[1].y - corners[0].y) / (corners[1].x - corners[0].x)
        #expect(abs(atan(slope) * 180 / Double.pi - degrees) < 1.5, "\(corners)")
    }

    @Test("small print is enlarged before it is read, and its boxes come back in the input's pixels")
    func smallText() throws {
        let page = try image("small")
        let measure = TextMeasure(page.evenedLight())
        #expect(try #require(measure.letterHeight) < TextPreparation.smallLetters)
        let blocks = try TextRecognizer().recognize(page)
        #expect(blocks.flatMap(\.lines).map(\.text) == (try lines("small")))
        for word in blocks.flatMap(\.lines).flatMap(\.words) {
            #expect(word.box.x >= 0 && word.box.y >= 0 && word.box.x + word.box.width <= page.width
                    && word.box.y + word.box.height <= page.height && word.box.height < 20, "\(word)")
        }
    }

    @Test("an image over the pixel limit is shrunk while its text stays readable, boxes in the input's pixels")
    func shrunkForLargeImages() throws {
        let page = try #require(try image("sans").scaled(by: 3))
        let full = try TextRecognizer().recognize(page)
        let shrunk = try TextRecognizer(maxPixels: page.width * page.height / 4).recognize(page)
        #expect(shrunk.flatMap(\.lines).map(\.text) == (try lines("sans")))
        #expect(shrunk.flatMap(\.lines).map(\.text) == full.flatMap(\.lines).map(\.text))
        let a = try #require(full.first?.lines.first?.words.first?.box)
        let b = try #require(shrunk.first?.lines.first?.words.first?.box)
        #expect(abs(a.x - b.x) <= 6 && abs(a.y - b.y) <= 6 && abs(a.width - b.width) <= 10, "\(a) \(b)")
    }

    @Test("an image whose text would be too small once shrunk to the limit is refused, naming the limit")
    func refusedWhenTooLarge() throws {
        let page = try image("sans")
        let limit = page.width * page.height / 16
        #expect(throws: TextRecognitionError.imageTooLarge(width: page.width, height: page.height, limit: limit)) {
            try TextRecognizer(maxPixels: limit).recognize(page)
        }
        #expect(TextRecognitionError.imageTooLarge(width: 9000, height: 8000, limit: 16_000_000).description
                == "image of 9000x8000 pixels is too large for text recognition (limit 16000000 pixels), "
                + "and its text would be too small to read if shrunk to fit")
    }

    @Test("recognition past its time budget stops with timeLimitExceeded, and the recognizer reads again after")
    func budget() throws {
        let recognizer = try TextRecognizer()
        recognizer.timeBudget = 0.001
        let page = try #require(try image("shadow").scaled(by: 2))
        #expect(throws: TextRecognitionError.timeLimitExceeded(seconds: 0.001)) { try recognizer.recognize(page) }
        recognizer.timeBudget = nil
        #expect(try read(try image("sans"), recognizer) == (try lines("sans")))
        #expect(TextRecognitionError.timeLimitExceeded(seconds: 30).description
                == "text recognition stopped after its time budget of 30 s")
    }

    @Test("sparse-text mode is chosen for a frame with a few words in it, and page layout for a page")
    func sparseChoice() throws {
        let page = try image("kinds")
        #expect(!TextMeasure(page.evenedLight()).isSparse)
        let frame = page.padded(by: 500, value: 200)
        let measure = TextMeasure(frame.evenedLight())
        #expect(measure.isSparse, "\(measure)")
        let blocks = try TextRecognizer(layout: .automatic).recognize(frame)
        #expect(blocks.flatMap(\.lines).map(\.text) == (try lines("kinds")))
        // Boxes in the frame's pixels: the first word sits where the page was pasted.
        let first = try #require(blocks.first?.lines.first?.words.first?.box)
        #expect(first.x >= 500 && first.y >= 500 && first.x < 500 + page.width, "\(first)")
    }

    @Test("hostile pictures measure without trapping: stripes, a checkerboard, one dark pixel, all dark")
    func hostileMeasure() {
        let w = 300, h = 200
        let stripes = GrayImage(width: w, height: h, pixels: (0..<(w * h)).map { ($0 / w) % 2 == 0 ? 0 : 255 })
        let checker = GrayImage(width: w, height: h, pixels: (0..<(w * h)).map { (($0 % w) + ($0 / w)) % 2 == 0 ? 0 : 255 })
        var dot = GrayImage(width: w, height: h, filledWith: 255)
        dot[10, 10] = 0
        for picture in [stripes, checker, dot, GrayImage(width: w, height: h, filledWith: 0), GrayImage(width: 2, height: 2, filledWith: 0)] {
            let m = TextMeasure(picture)
            #expect(m.skew.isFinite && abs(m.skew) <= TextMeasure.maxSkew && m.coverage >= 0 && m.coverage <= 1)
        }
    }

    @Test("boxes Tesseract gives past the image's edge come back inside it; a word with nothing inside is dropped",
          arguments: [("shadow", 0.0), ("shadow", 6.0)])
    func boxesClipped(name: String, degrees: Double) throws {
        var input = try image(name)
        if degrees != 0 { input = input.turned(by: degrees) }
        input = input.cropped(to: Region(x: 0, y: 0, width: 104, height: 140))
        let prepared = try TextPreparation(input, maxPixels: TextRecognizer.defaultMaxPixels)
        let w = prepared.image.width, h = prepared.image.height
        let inside = TextWord(text: "in", confidence: 90, box: Region(x: w / 4, y: h / 4, width: w / 4, height: h / 8))
        let across = TextWord(text: "edge", confidence: 90, box: Region(x: w / 2, y: h / 4, width: w, height: h / 8))
        let beyond = TextWord(text: "out", confidence: 90, box: Region(x: w + 2, y: h / 2, width: 0, height: 5))
        let block = TextBlock(lines: [TextLine(words: [inside, across, beyond], confidence: 90, box: Region(x: -3, y: h / 4, width: w + 30, height: h / 8)),
                                      TextLine(words: [beyond], confidence: 90, box: Region(x: w + 2, y: h / 2, width: 0, height: 5))],
                              confidence: 90, box: Region(x: -5, y: -5, width: w + 30, height: h + 30))
        let shown = prepared.inputBlock(block, width: input.width, height: input.height)
        #expect(shown.lines.map(\.text) == ["in edge"])
        for region in [shown.box] + shown.lines.map(\.box) + shown.lines.flatMap(\.words).map(\.box) {
            #expect(region.x >= 0 && region.y >= 0 && region.width > 0 && region.height > 0
                    && region.x + region.width <= input.width && region.y + region.height <= input.height, "\(region)")
        }
        #expect(shown.corners.allSatisfy { $0.x >= 0 && $0.y >= 0 && $0.x <= Double(input.width) && $0.y <= Double(input.height) },
                "\(shown.corners)")
    }
}
