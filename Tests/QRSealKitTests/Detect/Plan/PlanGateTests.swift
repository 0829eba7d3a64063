import Foundation
import Testing
import TestSupport
@testable import QRSealKit

/// What decides, once per image, that further passes can still pay (`PassPlan`, "Gates"):
/// each gate leaves out work on the images it is meant for and hides no code the plan read
/// before it.
@Suite("Detector: gates that decide whether further passes can pay")
struct PlanGateTests {
    /// The stages a `Detector` ran, from its profile hook.
    final class Stages: @unchecked Sendable {
        private let lock = NSLock()
        private var names: [String] = []
        func add(_ name: String) { lock.lock(); names.append(name); lock.unlock() }
        var all: [String] { lock.lock(); defer { lock.unlock() }; return names }
    }

    /// What each stage a `Detector` ran read, from its profile hook.
    final class Reads: @unchecked Sendable {
        private let lock = NSLock()
        private var reads: [String: [[UInt8]]] = [:]
        func add(_ stage: String, _ found: [Detection]) {
            lock.lock(); reads[stage, default: []] += found.map(\.bytes); lock.unlock()
        }
        /// The payloads `stage` read; nil when it did not run.
        func found(by stage: String) -> [[UInt8]]? { lock.lock(); defer { lock.unlock() }; return reads[stage] }
    }

    static func detect(_ image: GrayImage) -> ([Detection], [String]) {
        let stages = Stages()
        var detector = Detector()
        detector.profile = { name, _, _ in stages.add(name) }
        return (detector.detect(in: image), stages.all)
    }

    @Test("a dense photo whose one code the locator read is searched no further: its noise forms no finder group")
    func densePhotoStops() throws {
        let url = LargePhotoTests.images.appendingPathComponent("dense/sealed-v20M.jpg")
        let image = try ImageDecoder().decode([UInt8](try Data(contentsOf: url)))
        let expected = try String(contentsOf: url.deletingPathExtension().appendingPathExtension("txt"), encoding: .utf8)
        let (found, stages) = Self.detect(image)
        #expect(found.map(\.text) == [expected.trimmingCharacters(in: .newlines)])
        // The first batch (the quick search), the locator and beside it the Aztec, Data Matrix,
        // rMQR and MicroPDF417 readers, the census and the bar regions that find nothing left to read.
        #expect(stages.allSatisfy { $0.hasPrefix("zxing(harder: false) []") || $0.hasPrefix("aztec []")
                    || $0.hasPrefix("dataMatrix []") || $0.hasPrefix("rmqr []") || $0.hasPrefix("microPDF417 []")
                    || $0.hasPrefix("located(wide: false)") || $0 == "census" || $0 == "bar regions" },
                "\(stages)")
    }

    @Test("finder patterns of the smallest grouped modules still give their region, once the code beside them is read")
    func smallCodeStillGrouped() throws {
        // A large code the quick search reads, and beside it a small one at 2 pixels per
        // module, whose finders two scan rows cross.
        let big = try QREncoder().encode(.text("the large code")).image(scale: 6, margin: 4)
        let small = try QREncoder().encode(.text("the small code")).image(scale: 2, margin: 4)
        var pixels = [UInt8](repeating: 255, count: (big.width + small.width) * big.height)
        let width = big.width + small.width
        for y in 0..<big.height { for x in 0..<big.width { pixels[y * width + x] = big.pixels[y * big.width + x] } }
        for y in 0..<small.height { for x in 0..<small.width { pixels[y * width + big.width + x] = small.pixels[y * small.width + x] } }
        let page = GrayImage(width: width, height: big.height, pixels: pixels)
        let census = FinderCensus(page)
        let bigRead = Detector(effort: .fast).detect(in: big)
        #expect(bigRead.count == 1)
        let regions = census.regions(unexplainedBy: bigRead)
        #expect(regions.count == 1 && regions.allSatisfy { $0.box.x >= big.width - 20 }, "\(regions)")
        #expect(Set(Detector().detect(in: page).compactMap(\.text)) == ["the large code", "the small code"])
    }

    @Test("an EAN-8 or a UPC-E explains the bars about as wide as itself (a UPC-E: as many as its own), not those of a longer symbol it may be part of",
          arguments: [(Symbology.ean8, 67.0), (.upce, 51.0)])
    func shortReadExplainsItsOwnBars(symbology: Symbology, modules: Double) throws {
        // A read 2 pixels a module wide, its bars upright, centred on (200, 100).
        let half = modules
        let read = Detection(symbology: symbology, bytes: Array("00000000".utf8),
                             corners: [Point(x: 200 - half, y: 70), Point(x: 200 + half, y: 70),
                                       Point(x: 200 + half, y: 130), Point(x: 200 - half, y: 130)])
        // Its own bars, with a module of margin either side.
        let own = BarRegion(x: 200, y: 100, angle: 0, across: half + 2, along: 30, bars: 20)
        #expect(PassPlan.unread([own], by: [read]).isEmpty)
        #expect(!PassPlan.barsUnread([read], bars: [own]))
        // The bars of an EAN-13 (95 modules) whose right half it may be: still to read.
        let longer = BarRegion(x: 200 - (95 - modules), y: 100, angle: 0, across: 95, along: 30, bars: 30)
        let centred = BarRegion(x: 200, y: 100, angle: 0, across: 95, along: 30, bars: 30)
        #expect(PassPlan.unread([longer, centred], by: [read]).count == 2)
        // Wider than itself, crossing no more bars than a UPC-E has: a UPC-E with its digits
        // printed beside its guards explains it, an EAN-8 not.
        let digitsBeside = BarRegion(x: 200, y: 100, angle: 0, across: 1.8 * half, along: 30, bars: 18)
        #expect(PassPlan.unread([digitsBeside], by: [read]).isEmpty == (symbology == .upce))
    }

    @Test("an EAN-8 read whole by the quick search leaves the grey-profile reader out")
    func wholeEAN8LeavesProfilesOut() throws {
        let (image, expected) = try LargePhotoTests.sample("symbologies/ean8.png")
        let (found, stages) = Self.detect(image)
        #expect(found.compactMap(\.text) == expected)
        #expect(!stages.contains { $0.hasPrefix("profiles") }, "\(stages)")
    }
}
