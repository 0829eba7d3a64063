import Foundation
import Testing
import TestSupport
@testable import QRSealKit

/// Photos larger than 4 megapixels (Tests/Images/sheets, made by make-hard-images.sh) and
/// pages of many codes: every code is read at the default effort, with its own time budget,
/// because work is bounded by the image's size and the number of regions, not by the clock.
@Suite("Detector: large photos and pages of many codes")
struct LargePhotoTests {
    static let images = Tools.packageRoot.appendingPathComponent("Tests/Images")

    /// The image and the payloads its .txt file lists, one per line.
    static func sample(_ path: String) throws -> (GrayImage, [String]) {
        let url = images.appendingPathComponent(path)
        let image = try ImageDecoder().decode([UInt8](try Data(contentsOf: url)))
        let text = try String(contentsOf: url.deletingPathExtension().appendingPathExtension("txt"), encoding: .utf8)
        return (image, text.split(separator: "\n").map(String.init))
    }

    /// What the default effort, with its own time budget, reads in the image at `path`: run
    /// once for the tests that look at the same page.
    static func found(_ path: String) throws -> [Detection] {
        try detections.value(path) { Detector().detect(in: try sample(path).0) }
    }

    private static let detections = RunCache<[Detection]>()

    @Test("48 small blurred codes on a 4.4-megapixel page: every one, once, at the default effort")
    func manyCodes() throws {
        let (image, expected) = try Self.sample("sheets/many-codes.png")
        #expect(image.width * image.height > PassPlan.pyramidAbove)
        let found = try Self.found("sheets/many-codes.png")
        #expect(found.compactMap(\.text).sorted() == expected.sorted())
        // Neither engine's search over the whole page reads them all: libZXing 1.4 pairs
        // only 256 combinations of finder patterns, and zbar misses the blurred ones.
        var zxing = ZXingEngine(symbologies: [.qr])
        zxing.tryHarder = true
        #expect(zxing.scan(image).count < expected.count / 2)
        #expect(ZBarEngine(symbologies: [.qr]).scan(image).count < expected.count)
        // The live default reads the page too: on a large photo the regions around the
        // census's groups of finder patterns are read right after the quick search.
        let fast = Detector(effort: .fast).detect(in: image).compactMap(\.text)
        #expect(fast.count * 5 >= expected.count * 4, "\(fast.count) of \(expected.count)")
        #expect(Set(fast).isSubset(of: expected))
    }

    @Test("a 300 dpi scan of a page of qrseal's own sheet: all four version-40 codes at the default effort")
    func scannedSheetPage() throws {
        let url = Self.images.appendingPathComponent("zbar-chatter/sheet-page-300dpi.png")
        let image = try ImageDecoder().decode([UInt8](try Data(contentsOf: url)))
        #expect(image.width * image.height > PassPlan.pyramidAbove)
        let texts = Detector().detect(in: image).compactMap(\.text)
        // Parts 5 to 8 of the message: four different codes, each a part.
        #expect(Set(texts).count == 4 && texts.allSatisfy { $0.hasPrefix("QRSEAL1P:") }, "\(texts.map { $0.prefix(24) })")
    }

    @Test("a light-on-dark code in a 4.2-megapixel picture is read at the default effort")
    func invertedInLargePicture() throws {
        let (image, expected) = try Self.sample("sheets/inverted-large.png")
        #expect(image.width * image.height > PassPlan.pyramidAbove)
        #expect(Detector().detect(in: image).map(\.text) == expected)
    }

    @Test("the regions of a page are one per unread code, around it, and none once all are read")
    func regionsFollowCodes() throws {
        let (image, expected) = try Self.sample("sheets/many-codes.png")
        let census = FinderCensus(image)
        let regions = census.regions(unexplainedBy: [])
        #expect(regions.count <= FinderCensus.maxRegions)
        // The groups whose timing patterns hold, read first, are the codes' (all but a code
        // or two, blurred, whose group follows); the others, made of finder-like stretches
        // of data, follow them.
        let timed = regions.filter { $0.timed }
        #expect(timed.count * 10 >= expected.count * 9 && timed.count <= expected.count, "\(timed.count) timed of \(regions.count)")
        #expect(Array(regions.prefix(timed.count)) == timed)
        #expect(timed.allSatisfy { $0.box.width < image.width / 4 && $0.box.height < image.height / 4 })
        let found = try Self.found("sheets/many-codes.png")
        #expect(census.regions(unexplainedBy: found).isEmpty)
    }

    @Test("a texture full of finder-like patterns gives at most the bounded number of regions")
    func regionsBounded() {
        // A checkerboard of 3-pixel squares: every row and column looks like finder runs.
        let side = 360
        let pixels = (0..<side * side).map { i -> UInt8 in ((i % side) / 3 + (i / side) / 3) % 2 == 0 ? 0 : 255 }
        let image = GrayImage(width: side, height: side, pixels: pixels)
        let regions = FinderCensus(image).regions(unexplainedBy: [])
        #expect(regions.count <= FinderCensus.maxRegions)
        #expect(Detector().detect(in: image).isEmpty)
    }

    @Test("on a large photo only the quick search, the locators (both binarizations), zbar's linear scan and the readers of bars see every pixel; the rest a 4-megapixel level")
    func pyramidPlan() {
        func passes(_ pixels: Int) -> [Pass] {
            PassPlan.stages(for: .balanced, pixels: pixels).flatMap { $0.flatMap(\.passes) }
        }
        let small = passes(1_000_000), large = passes(12_000_000)
        let fullSize = Set(PassPlan.first + PassPlan.located[0] + PassPlan.midrangeLocated[0] + PassPlan.widelyLocated[0] + [Pass(.zbarLinear)] + PassPlan.profiled.flatMap { $0 })
        #expect(fullSize.isSubset(of: large))
        for pass in large where !fullSize.contains(pass) {
            #expect(pass.steps.first == .fitPixels(PassPlan.pyramidAbove), "\(pass) sees every pixel of a large photo")
        }
        // zbar's QR search, five times the cost of its linear scan on a page of codes, never
        // runs over every pixel of a large photo; on a smaller image it does.
        #expect(!large.contains(Pass(.zbar)) && large.contains(Pass(.zbar, [.fitPixels(PassPlan.pyramidAbove)])))
        #expect(small.contains(Pass(.zbar)) && !small.contains(Pass(.zbarLinear)))
        // The most thorough effort keeps every pass at full size.
        #expect(PassPlan.stages(for: .thorough, pixels: 12_000_000).flatMap { $0.flatMap(\.passes) }.contains(Pass(.zbar)))
        let regions = PassPlan.stages(for: .fast, pixels: 12_000_000).flatMap { $0 }.filter { $0.work == .regions }
        #expect(regions.map(\.gate) == [.always], "fast reads a large photo region by region")
        let level = Step.fitPixels(4_000_000).apply(to: GrayImage(width: 4000, height: 3000, filledWith: 128),
                                                   maxPixels: ImageDecoder.defaultMaxPixels)
        #expect(level.map { $0.0.width * $0.0.height <= 4_000_000 && $0.0.width * $0.0.height > 3_900_000 } == true)
    }
}

/// What an effort reads does not depend on the machine's load: the same scans, once on an
/// idle machine and once with every core kept busy, give exactly the same detections.
@Suite("Detector: results do not depend on the machine's load")
struct DeterminismTests {
    /// Images that need passes after the first batch: a large photo of many codes, a large
    /// light-on-dark one, and hard images read only by prepared copies.
    static let paths = ["sheets/many-codes.png", "sheets/inverted-large.png", "hard/blur.png", "hard/perspective.png",
                        "hard/tiny.png", "hard/many-codes.png"]

    @Test("the same scans, idle and under load, agree exactly, at the default effort's own time budget")
    func sameUnderLoad() throws {
        let samples = try Self.paths.map(LargePhotoTests.sample)
        let detector = Detector()
        let idle = samples.map { detector.detect(in: $0.0) }
        let loaded = BusyThreads.while(count: 2 * ProcessInfo.processInfo.activeProcessorCount) {
            samples.map { detector.detect(in: $0.0) }
        }
        #expect(idle == loaded)
        for (found, (_, expected)) in zip(idle, samples) {
            #expect(found.compactMap(\.text).sorted() == expected.sorted())
        }
    }
}

/// Threads that spin until the work given them is done: a loaded machine, made on purpose.
enum BusyThreads {
    final class Flag: @unchecked Sendable {
        private let lock = NSLock()
        private var done = false
        var isSet: Bool { lock.lock(); defer { lock.unlock() }; return done }
        func set() { lock.lock(); done = true; lock.unlock() }
    }

    static func `while`<R>(count: Int, _ work: () -> R) -> R {
        let flag = Flag()
        let group = DispatchGroup()
        for _ in 0..<count {
            group.enter()
            let thread = Thread {
                var x: UInt64 = 1
                while !flag.isSet {
                    for _ in 0..<10_000 { x = x &* 6364136223846793005 &+ 1442695040888963407 }
                }
                if x == 0 { print("") }
                group.leave()
            }
            thread.start()
        }
        let result = work()
        flag.set()
        group.wait()
        return result
    }
}

/// Pictures that hold no code give nothing at any effort (Tests/Images/nothing, and
/// textures made here whose runs look like bars and finder patterns).
@Suite("Detector: no false positives")
struct FalsePositiveTests {
    static func textures() -> [(String, GrayImage)] {
        let w = 480, h = 360
        func image(_ f: (Int, Int) -> UInt8) -> GrayImage {
            GrayImage(width: w, height: h, pixels: (0..<w * h).map { f($0 % w, $0 / w) })
        }
        return [
            // Dots on a grid in three shades, like a printed fabric.
            ("dots", image { x, y in
                let dx = x % 12 - 6, dy = y % 12 - 6
                return dx * dx + dy * dy < 20 ? UInt8(150 + 40 * ((x / 12 + 2 * (y / 12)) % 3)) : 60
            }),
            // Vertical stripes of varying widths: runs a linear reader looks for.
            ("stripes", image { x, _ in (x * x / 37 + x / 5) % 3 == 0 ? 30 : 220 }),
            // Concentric squares: runs in the finder patterns' 1:1:3:1:1 ratio all over.
            ("squares", image { x, y in (max(abs(x - w / 2), abs(y - h / 2)) / 4) % 2 == 0 ? 20 : 235 }),
        ]
    }

    @Test("no code is reported in a picture that holds none, at any effort")
    func nothing() throws {
        let folder = LargePhotoTests.images.appendingPathComponent("nothing")
        var samples = Self.textures()
        for name in ["mqr-falsepositive.png", "zxing-570.png"] {
            let bytes = [UInt8](try Data(contentsOf: folder.appendingPathComponent(name)))
            samples.append((name, try ImageDecoder().decode(bytes)))
        }
        for (name, image) in samples {
            for effort in Effort.allCases {
                let found = Detector(effort: effort).detect(in: image)
                #expect(found.isEmpty, "\(name) at \(effort): \(found.map { "\($0.symbology) \($0.text ?? "")" })")
            }
        }
    }
}
