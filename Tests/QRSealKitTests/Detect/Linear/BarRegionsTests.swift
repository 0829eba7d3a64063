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
}
