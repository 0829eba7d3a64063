import Testing
import TestSupport
@testable import QRSealKit

/// The parts of the pipeline between the engines and the caller: mapping corners back,
/// merging repeats, and the one check every engine's result goes through.
@Suite("Detector: passes, merging and checks")
struct PipelineTests {
    let matrix = try! QREncoder().encode(.text("pipeline"))

    @Test("a copy's mapping takes its points back to the input, through several steps")
    func mappings() throws {
        let image = GrayImage(width: 100, height: 60, filledWith: 255)
        let prepared = PreparedImages(image, maxPixels: ImageDecoder.defaultMaxPixels)
        let (copy, mapping) = try #require(prepared.image(for: [.pad(0.1), .enlargeTo(400)]))
        // Padded by 10 pixels, then enlarged 4 times (the smaller side, 80, reaches 320 < 400
        // only at 5: min(8, ceil(400 / 80)) = 5).
        #expect(copy.width == (100 + 20) * 5 && copy.height == (60 + 20) * 5)
        let p = mapping.apply(Point(x: 5 * (10 + 30), y: 5 * (10 + 20)))
        #expect(abs(p.x - 30) < 1e-9 && abs(p.y - 20) < 1e-9)
        let large = PreparedImages(GrayImage(width: 300, height: 180, filledWith: 255), maxPixels: ImageDecoder.defaultMaxPixels)
        let (tile, tileMapping) = try #require(large.image(for: [.tile(count: 2, column: 1, row: 1)]))
        #expect(tile.width == 200 && tile.height == 120)
        let q = tileMapping.apply(Point(x: 0, y: 0))
        #expect(q.x == 100 && q.y == 60)
        #expect(prepared.image(for: [.tile(count: 2, column: 1, row: 1)]) == nil, "tiles of 40 pixels are too small")
        #expect(prepared.image(for: [.shrinkTo(800)]) == nil)
    }

    @Test("a code found only on an enlarged copy has its corners in the input's pixels")
    func enlargedCorners() throws {
        // One pixel per module: the quick search misses it, the enlarged copy reads it.
        let image = matrix.image(scale: 1, margin: 2)
        var detector = Detector()
        detector.timeBudget = .cpu(.seconds(600))
        let found = try #require(detector.detect(in: image).first)
        #expect(found.text == "pipeline")
        let lo = 2.0, hi = Double(2 + matrix.size)
        for (c, e) in zip(found.corners, [(lo, lo), (hi, lo), (hi, hi), (lo, hi)]) {
            #expect(abs(c.x - e.0) <= 1.5 && abs(c.y - e.1) <= 1.5, "\(c) vs \(e)")
        }
    }

    func detection(_ text: String, at x: Double, _ y: Double, size: Double = 100,
                   symbology: Symbology = .qr) -> Detection {
        Detection(symbology: symbology, bytes: Array(text.utf8),
                  corners: [Point(x: x, y: y), Point(x: x + size, y: y),
                            Point(x: x + size, y: y + size), Point(x: x, y: y + size)])
    }

    @Test("the same code read twice, by two engines or passes, is reported once")
    func duplicates() {
        let merged = Detector.merged([detection("a", at: 10, 10), detection("a", at: 13, 11),
                                      detection("a", at: 400, 10), detection("b", at: 200, 200, size: 20)])
        #expect(merged.map(\.text) == ["a", "a", "b"])
    }

    @Test("of two different payloads read at the same place, the one more reads agree on is kept; neither on a tie")
    func conflicts() {
        let merged = Detector.merged([detection("right", at: 10, 10), detection("wrong", at: 12, 11),
                                      detection("elsewhere", at: 300, 300)])
        #expect(merged.map(\.text) == ["elsewhere"])
        // Two reads of one payload against one of another: the one more reads agree on stays.
        let outvoted = Detector.merged([detection("right", at: 10, 10), detection("wrong", at: 12, 11),
                                        detection("right", at: 11, 10)])
        #expect(outvoted.map(\.text) == ["right"])
        // A UPC-A read is the EAN-13 it also is: it outvotes a misread EAN-13 (zbar reads
        // both of these from one blurred photo, zxing-cpp the UPC-A).
        let upc = Detector.merged([detection("0899624007003", at: 10, 10, symbology: .ean13),
                                   detection("0899684001003", at: 11, 10, symbology: .ean13),
                                   detection("899684001003", at: 12, 11, symbology: .upca)])
        #expect(upc.compactMap(\.text).sorted() == ["0899684001003", "899684001003"])
        // A small code inside a large one is no conflict.
        let nested = Detector.merged([detection("outer", at: 0, 0, size: 300), detection("inner", at: 120, 120, size: 60)])
        #expect(nested.count == 2)
    }

    @Test("a merged read keeps the text, version and level another read of it knew")
    func filling() {
        let plain = Detection(symbology: .qr, bytes: [0x01, 0x41], text: nil, corners: detection("x", at: 0, 0).corners,
                              version: nil, errorCorrection: nil)
        let rich = Detection(symbology: .qr, bytes: [0x01, 0x41], text: "\u{1}A", corners: plain.corners,
                             version: 2, errorCorrection: .high)
        let merged = Detector.merged([plain, rich])
        #expect(merged.count == 1)
        #expect(merged.first?.text == "\u{1}A" && merged.first?.version == 2 && merged.first?.errorCorrection == .high)
    }

    @Test("the census finds a code's three finder patterns and the region around them, and none once it is read")
    func census() throws {
        let image = matrix.image(scale: 4, margin: 4)
        let census = FinderCensus(image)
        #expect(census.centers.count >= 3)
        let region = try #require(census.regions(unexplainedBy: []).first)
        // The whole code and its quiet zone: the image, which has a margin of 4 modules.
        #expect(region.box.x <= 4 && region.box.y <= 4 && region.box.x + region.box.width >= image.width - 4
                && region.box.y + region.box.height >= image.height - 4, "\(region)")
        #expect(census.regions(unexplainedBy: Detector(effort: .fast).detect(in: image)).isEmpty)
        #expect(FinderCensus(GrayImage(width: 200, height: 200, filledWith: 255)).centers.isEmpty)
        #expect(FinderCensus(GrayImage(width: 3, height: 3, filledWith: 0)).centers.isEmpty)
    }
}
