import Foundation
import Testing
import TestSupport
@testable import QRSealKit

/// Where the readers of bars look (`BarRegions`): every photographed linear code of
/// Tests/Images/linear gives a region, light falling across the bars included, and a page's
/// edge against a desk, which is one long coherent edge, gives none: a region there kept the
/// default effort's searches over the whole of a photographed page going once every code on
/// it was read.
@Suite("Bar regions: bars, not edges")
struct BarRegionsTests {
    static func image(_ path: String) throws -> GrayImage {
        let url = Tools.packageRoot.appendingPathComponent("Tests/Images").appendingPathComponent(path)
        return try ImageDecoder().decode([UInt8](try Data(contentsOf: url)))
    }

    @Test("a photographed page's edge against the desk is no bar region")
    func pageEdge() throws {
        let edge = try Self.image("photo-sheets/page-edge.png")
        // Its gradients are strong and point one way, as bars' do; it crosses no bars.
        #expect(!BarRegions.find(in: edge, most: PassPlan.barRegionsLooked, leastBars: 0).isEmpty)
        #expect(BarRegions.find(in: edge, most: PassPlan.barRegionsLooked).isEmpty)
        // What the plan makes of it: nothing read, and nothing left to read.
        #expect(!PassPlan.barsUnread([], bars: BarRegions.find(in: edge, most: PassPlan.barRegionsLooked)))
    }

    @Test("every photographed EAN/UPC gives a region whose middle line crosses a symbol's bars",
          arguments: ProfileReaderTests.names)
    func everyPhoto(name: String) throws {
        let image = try ProfileReaderTests.image(name)
        let regions = BarRegions.find(in: image)
        let crossed = regions.map { BarRegions.bars(across: $0, in: image) }.max() ?? 0
        #expect(crossed >= BarRegions.minBars, "\(name): \(crossed) bars")
    }

    @Test("bars under light falling off across them, to a third at one end, still make a region")
    func unevenLight() throws {
        let image = try Self.image("linear/ean13-noise.jpg")
        var pixels = image.pixels
        for y in 0..<image.height {
            for x in 0..<image.width {
                let light = 0.33 + 0.67 * Double(x) / Double(image.width - 1)
                pixels[y * image.width + x] = UInt8(Double(pixels[y * image.width + x]) * light)
            }
        }
        let dim = GrayImage(width: image.width, height: image.height, pixels: pixels)
        let region = try #require(BarRegions.find(in: dim).first)
        // An EAN-13 has 30 bars; the dimmest third's are a third as deep as the others'.
        #expect(BarRegions.bars(across: region, in: dim) >= 10)
    }

    @Test("a short Interleaved 2 of 5, whose wide bars part its blocks in three, is one region of all its bars")
    func partsJoined() throws {
        let image = try Self.image("symbologies/i25-short.png")
        // Apart, no part crosses enough bars to count.
        let parts = BarRegions.find(in: image, most: PassPlan.barRegionsLooked, leastBars: 0)
        #expect(parts.count >= 2)
        #expect(parts.allSatisfy { $0.bars < BarRegions.minBars }, "\(parts.map(\.bars))")
        // Joined, they make one region across the symbol, whose lines cross its 14 bars (two
        // of the start, five for each pair of digits, two of the stop) but a blurred one.
        let regions = BarRegions.find(in: image, most: PassPlan.barRegionsLooked)
        let region = try #require(regions.first)
        #expect(regions.count == 1)
        #expect(region.bars >= 12, "\(region.bars) bars")
        #expect(abs(region.angle) < 0.1)
        // It reaches over every part.
        for part in parts { #expect(abs(part.x - region.x) + part.across <= region.across + 8) }
    }

    @Test("parts of bars at a slant to each other, or side by side along their bars, stay apart")
    func partsApart() {
        let a = BarRegion(x: 100, y: 100, angle: 0, across: 30, along: 40, bars: 2)
        // In line across the bars, a gap narrower than a part: joined.
        #expect(BarRegions.joined([a, BarRegion(x: 170, y: 102, angle: 0.05, across: 30, along: 40, bars: 2)]).count == 1)
        // At a slant of 30°.
        #expect(BarRegions.joined([a, BarRegion(x: 170, y: 100, angle: .pi / 6, across: 30, along: 40, bars: 2)]).isEmpty)
        // One above the other, along the bars.
        #expect(BarRegions.joined([a, BarRegion(x: 100, y: 190, angle: 0, across: 30, along: 40, bars: 2)]).isEmpty)
        // In line, but further apart than either reaches.
        #expect(BarRegions.joined([a, BarRegion(x: 260, y: 100, angle: 0, across: 30, along: 40, bars: 2)]).isEmpty)
    }
}
