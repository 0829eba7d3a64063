import Foundation
import Testing
import TestSupport
@testable import QRSealKit

/// Sparse pictures recognised only where their letters are (`TextRegions`): the same words
/// as the whole picture gives, none lost at a rectangle's or the picture's edge, and a code
/// painted out before it can be read as letters.
@Suite("Recognize: recognising only the regions with letters")
struct TextRegionsTests {
    /// The rendered test pages and their lines, as the preparation's tests read them.
    let pages = TextPreparationTests()

    func image(_ name: String) throws -> GrayImage { try pages.image(name) }

    func lines(_ name: String) throws -> [String] { try pages.lines(name) }

    /// A `width` × `height` grey frame with each image pasted at its place.
    func frame(_ width: Int, _ height: Int, ground: UInt8 = 200, _ pieces: [(GrayImage, Int, Int)]) -> GrayImage {
        var out = GrayImage(width: width, height: height, filledWith: ground)
        for (piece, left, top) in pieces {
            for y in 0..<piece.height where top + y >= 0 && top + y < height {
                for x in 0..<piece.width where left + x >= 0 && left + x < width {
                    out[left + x, top + y] = piece[x, y]
                }
            }
        }
        return out
    }

    /// A piece of a test image: its text, with the white page's border cut down to `border` pixels.
    func trimmed(_ name: String, border: Int) throws -> GrayImage {
        let page = try image(name)
        let cut = 30 - border
        return page.cropped(to: Region(x: cut, y: cut, width: page.width - 2 * cut, height: page.height - 2 * cut))
    }

    @Test("words far apart in a camera frame: each piece read as its lines, boxes where it was pasted")
    func scattered() throws {
        let sans = try image("sans"), serif = try image("serif")
        let picture = frame(1280, 720, [(sans, 30, 40), (serif, 560, 420)])
        let prepared = try TextPreparation(picture, maxPixels: TextRecognizer.defaultMaxPixels)
        let regions = try #require(prepared.regions)
        #expect(regions.count == 2, "\(regions)")
        let blocks = try TextRecognizer(layout: .automatic).recognize(picture)
        #expect(blocks.flatMap(\.lines).map(\.text) == (try lines("sans")) + (try lines("serif")))
        let words = blocks.flatMap(\.lines).flatMap(\.words)
        let inSerif = words.filter { $0.box.y >= 420 }
        #expect(inSerif.count == (try lines("serif")).joined(separator: " ").split(separator: " ").count)
        #expect(inSerif.allSatisfy { $0.box.x >= 560 && $0.box.x + $0.box.width <= 560 + serif.width }, "\(inSerif)")
    }

    @Test("text at the picture's edges is not cut off by the rectangles", arguments: [0, 2, 6])
    func atTheEdges(_ border: Int) throws {
        let sans = try trimmed("sans", border: border), serif = try trimmed("serif", border: border)
        let picture = frame(900, 500, ground: 230, [(sans, 0, 0), (serif, 900 - serif.width, 500 - serif.height)])
        let read = try TextRecognizer(layout: .sparse).recognize(picture).flatMap(\.lines).map(\.text)
        #expect(read == (try lines("sans")) + (try lines("serif")))
    }

    @Test("a line as wide as the picture, above the bottom, reads as its words (tesseract issue 845)")
    func fullWidthAboveTheBottom() throws {
        // The page fills the picture's width, so its rectangle does too, and ends far above
        // the bottom, where Tesseract's own rectangle reads another part of the picture.
        let sans = try trimmed("sans", border: 4), serif = try image("serif")
        let picture = frame(sans.width, 480, ground: 255, [(sans, 0, 0), (serif, 60, 480 - serif.height)])
        let prepared = try TextPreparation(picture, maxPixels: TextRecognizer.defaultMaxPixels)
        let regions = try #require(prepared.regions)
        let top = try #require(regions.first)
        #expect(top.x == 0 && top.width == prepared.image.width && top.y + top.height < prepared.image.height, "\(regions)")
        let read = try TextRecognizer(layout: .sparse).recognize(picture).flatMap(\.lines).map(\.text)
        #expect(read == (try lines("sans")) + (try lines("serif")))
    }

    @Test("a frame read as a page: its rectangles, one below the other, are read one by one, as each piece alone")
    func stackedPage() throws {
        let sans = try image("sans"), serif = try image("serif")
        let picture = frame(1280, 720, [(sans, 30, 40), (serif, 560, 420)])
        let prepared = try TextPreparation(picture, maxPixels: TextRecognizer.defaultMaxPixels)
        let regions = try #require(prepared.regions)
        #expect(regions.count == 2 && TextRegions.isStacked(regions))
        #expect(TextRecognizer.areas(prepared, sparse: false) == regions)
        let blocks = try TextRecognizer(layout: .page).recognize(picture)
        #expect(blocks.flatMap(\.lines).map(\.text) == (try lines("sans")) + (try lines("serif")))
        // Boxes in the frame's pixels, each piece's words where it was pasted.
        let words = blocks.flatMap(\.lines).flatMap(\.words)
        #expect(words.filter { $0.box.y < 420 }.allSatisfy { $0.box.x >= 30 && $0.box.x + $0.box.width <= 30 + sans.width })
        #expect(words.filter { $0.box.y >= 420 }.allSatisfy { $0.box.x >= 560 && $0.box.x + $0.box.width <= 560 + serif.width })
    }

    @Test("a page whose rectangles sit side by side is read whole, in Tesseract's layout; sparse text reads each")
    func sideBySidePage() throws {
        let picture = frame(1400, 500, ground: 255, [(try image("sans"), 20, 100), (try image("serif"), 800, 110)])
        let prepared = try TextPreparation(picture, maxPixels: TextRecognizer.defaultMaxPixels)
        let regions = try #require(prepared.regions)
        #expect(regions.count == 2 && !TextRegions.isStacked(regions))
        #expect(TextRecognizer.areas(prepared, sparse: false) == [Region(x: 0, y: 0, width: 1400, height: 500)])
        #expect(TextRecognizer.areas(prepared, sparse: true) == regions)
        // Tesseract's own layout of the whole: rows running across both.
        let read = try TextRecognizer(layout: .page).recognize(picture).flatMap(\.lines).map(\.text)
        #expect(read == zip(try lines("sans"), try lines("serif")).map { $0 + " " + $1 }, "\(read)")
    }

    @Test("rectangles are stacked when none shares a row with another, whatever their order")
    func stacking() {
        let a = Region(x: 0, y: 0, width: 100, height: 20), b = Region(x: 500, y: 20, width: 50, height: 20)
        let c = Region(x: 40, y: 30, width: 50, height: 20)
        #expect(TextRegions.isStacked([]) && TextRegions.isStacked([a]))
        #expect(TextRegions.isStacked([a, b]) && TextRegions.isStacked([b, a]))
        #expect(!TextRegions.isStacked([a, b, c]) && !TextRegions.isStacked([c, a, b]))
    }

    @Test("a heading three times the size of the small print beside it is read with it")
    func mixedSizes() throws {
        let small = try image("kinds")
        let big = try #require(try image("sans").scaled(by: 2.5))
        let picture = frame(2000, 1100, ground: 215, [(big, 20, 20), (small, 700, 800)])
        let read = try TextRecognizer(layout: .sparse).recognize(picture).flatMap(\.lines).map(\.text)
        #expect(read == (try lines("sans")) + (try lines("kinds")))
    }

    @Test("lines read in rectangles are the lines read in the whole picture")
    func sameAsWhole() throws {
        let picture = frame(1280, 720, [(try image("kinds"), 300, 200)])
        let prepared = try TextPreparation(picture, maxPixels: TextRecognizer.defaultMaxPixels)
        #expect(prepared.regions?.count == 1)
        let inRegions = try TextRecognizer(layout: .sparse).recognize(picture)
        // The same picture with no room to spare: the rectangle is the whole of it.
        let tight = try image("kinds")
        let whole = try TextRecognizer(layout: .sparse).recognize(tight)
        #expect(inRegions.flatMap(\.lines).map(\.text) == whole.flatMap(\.lines).map(\.text))
        #expect(inRegions.flatMap(\.lines).map(\.text) == (try lines("kinds")))
    }

    @Test("a QR code beside the words is painted out with its quiet zone and not read as letters")
    func codeLeftOut() throws {
        let code = try QREncoder().encode(.text("beside the text")).image(scale: 4, margin: 4)
        let picture = frame(1280, 720, ground: 255, [(code, 80, 200), (try image("sans"), 500, 300)])
        let detections = Detector().detect(in: picture)
        let qr = try #require(detections.first { $0.symbology == .qr })
        let read = try TextRecognizer(layout: .automatic).recognize(picture, excluding: [qr.quietZone])
        #expect(read.flatMap(\.lines).map(\.text) == (try lines("sans")))
        #expect(read.flatMap(\.lines).flatMap(\.words).allSatisfy { $0.box.x >= 500 }, "\(read)")
    }

    @Test("marks of one line make one rectangle; words far apart, one each; specks none")
    func grouping() {
        let line = (0..<8).map { Region(x: 100 + $0 * 14, y: 50, width: 10, height: 12) }
        let far = [Region(x: 600, y: 400, width: 10, height: 12), Region(x: 614, y: 400, width: 10, height: 12)]
        let specks = (0..<20).map { Region(x: 900 + $0 * 30, y: 600, width: 3, height: 3) }
        let regions = TextRegions.regions(marks: line + far + specks, letterHeight: 12, width: 1280, height: 720)
        #expect(regions == [Region(x: 88, y: 38, width: 132, height: 36), Region(x: 588, y: 388, width: 48, height: 36)])
    }

    @Test("read whole: no letters, more marks than are worth grouping, or groups covering most of the picture")
    func readWhole() {
        let one = [Region(x: 10, y: 10, width: 8, height: 10)]
        #expect(TextRegions.regions(marks: [], letterHeight: nil, width: 100, height: 100) == nil)
        #expect(TextRegions.regions(marks: one, letterHeight: nil, width: 100, height: 100) == nil)
        #expect(TextRegions.regions(marks: one, letterHeight: 10, width: 0, height: 0) == nil)
        let many = (0..<(TextRegions.maxMarks + 1)).map { Region(x: ($0 % 100) * 40, y: ($0 / 100) * 40, width: 8, height: 10) }
        #expect(TextRegions.regions(marks: many, letterHeight: 10, width: 4000, height: 1300) == nil)
        let page = (0..<400).map { Region(x: 10 + ($0 % 20) * 14, y: 10 + ($0 / 20) * 14, width: 10, height: 12) }
        #expect(TextRegions.regions(marks: page, letterHeight: 12, width: 300, height: 300) == nil)
    }

    @Test("hostile marks: at the picture's corners, past its edges, huge, or zero-sized, give rectangles inside it")
    func hostileMarks() {
        let marks = [Region(x: 0, y: 0, width: 1, height: 5), Region(x: 1279, y: 719, width: 1, height: 1),
                     Region(x: -50, y: -50, width: 10, height: 10), Region(x: 1200, y: 700, width: 500, height: 500),
                     Region(x: 600, y: 300, width: 0, height: 0), Region(x: 640, y: 360, width: 4, height: 40)]
        for regions in [TextRegions.regions(marks: marks, letterHeight: 5, width: 1280, height: 720),
                        TextRegions.regions(marks: marks, letterHeight: 5000, width: 1280, height: 720)] {
            for r in regions ?? [] {
                #expect(r.x >= 0 && r.y >= 0 && r.width > 0 && r.height > 0 && r.x + r.width <= 1280 && r.y + r.height <= 720, "\(r)")
            }
        }
    }
}
