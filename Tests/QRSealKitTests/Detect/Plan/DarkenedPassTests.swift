import Foundation
import Testing
import TestSupport
@testable import QRSealKit

/// zbar's linear scan on prepared copies (`PassPlan.linearCopies`): washed-out photos of
/// blurred product codes, darkened (and sharpened), and a small photo, enlarged, that zbar
/// misses as they are.
@Suite("Detect: zbar's linear scan on darkened and enlarged copies")
struct DarkenedPassTests {
    static let root = Tools.packageRoot.appendingPathComponent("Tests/Images")

    /// The photo `name` (folder/file, without extension) and its expected text.
    static func sample(_ name: String) throws -> (GrayImage, String) {
        let url = root.appendingPathComponent(name + ".png")
        let image = try ImageDecoder().decode([UInt8](try Data(contentsOf: url)))
        let expected = try String(contentsOf: root.appendingPathComponent(name + ".txt"), encoding: .utf8)
        return (image, expected)
    }

    /// Each photo with the copy zbar reads it on.
    static let copies: [(name: String, steps: [Step])] = [
        ("washedout/upce-washedout", [.darken(2)]), ("washedout/ean13-washedout", [.darken(2)]),
        ("washedout/upca-washedout", [.darken(2)]), ("washedout/upca-sharpened", [.darken(2), .sharpen(radius: 2)]),
        ("smallphoto/upce-small", [.upscale(2)]),
    ]

    @Test("zbar misses each photo as it is and reads it on its copy", arguments: copies.indices)
    func zbarOnCopy(index: Int) throws {
        let (name, steps) = Self.copies[index]
        let (image, expected) = try Self.sample(name)
        let zbar = ZBarEngine(symbologies: [.ean13, .upca, .upce, .ean8])
        #expect(zbar.scan(image).isEmpty, "\(name)")
        let copy = try #require(steps.reduce(Optional(image)) { image, step in
            image.flatMap { step.apply(to: $0, maxPixels: 10_000_000)?.0 }
        })
        let read = zbar.scan(copy).map { String(decoding: $0.bytes, as: UTF8.self) }
        #expect(read.contains { $0 == expected || $0 == "0" + expected }, "\(name): \(read)")
    }

    @Test("a UPC-A that zbar misreads on the enlarged copy, on more scan lines than its number: its number",
          arguments: [Effort.balanced, .thorough])
    func enlargedTrap(effort: Effort) throws {
        let (image, expected) = try Self.sample("wrongread/upca-enlarged")
        let zbar = ZBarEngine(symbologies: [.ean13, .upca])
        let enlarged = try #require(Step.upscale(2).apply(to: image, maxPixels: 10_000_000)?.0)
        let misread = zbar.scan(enlarged).filter { String(decoding: $0.bytes, as: UTF8.self).hasSuffix(expected) == false }
        #expect(!misread.isEmpty, "zbar no longer misreads it enlarged: the trap is gone")
        // At `thorough` the copies run whatever was read.
        var detector = Detector(effort: effort)
        detector.timeBudget = .cpu(.seconds(600))
        #expect(detector.detect(in: image).map(\.text) == [expected])
    }

    @Test("a Code 128 whose FNC4 characters zbar reads as plain ones: zxing-cpp's read, at every effort", arguments: Effort.allCases)
    func code128FNC4(effort: Effort) throws {
        let url = Self.root.appendingPathComponent("wrongread/code128-fnc4.png")
        let image = try ImageDecoder().decode([UInt8](try Data(contentsOf: url)))
        let expected = try String(contentsOf: url.deletingPathExtension().appendingPathExtension("txt"), encoding: .utf8)
        var detector = Detector(effort: effort)
        detector.timeBudget = .cpu(.seconds(600))
        #expect(detector.detect(in: image).map(\.text) == [expected])
    }

    @Test("balanced reads each photo, and only its number", arguments: copies.indices)
    func balanced(index: Int) throws {
        let (image, expected) = try Self.sample(Self.copies[index].name)
        var detector = Detector(effort: .balanced)
        detector.timeBudget = .cpu(.seconds(600))
        #expect(detector.detect(in: image).map(\.text) == [expected], "\(Self.copies[index].name)")
    }

    @Test("the copies' passes read linear codes, only strongly checked ones, while nothing was read and bars show, the enlarged copy only of a small image")
    func linearOnCopies() {
        for pass in PassPlan.linearCopies {
            #expect(pass.readsLinearCodes && pass.isStrict, "\(pass)")
        }
        let stages = PassPlan.stages(for: .balanced, pixels: 1_000_000).flatMap { $0 }
        for pass in PassPlan.linearCopies {
            let gate = stages.first { $0.passes == [pass] }?.gate
            #expect(gate == PassPlan.linearCopyGate(pass), "\(pass)")
            let bars = PassPlan.Gate.barsShow(PassPlan.productBars)
            #expect(gate == .both(.nothingRead, bars) || gate == .both(.both(.nothingRead, bars), .narrowerThan(400)))
        }
    }

    @Test("the copies run where a region crosses as many bars as a product code shows: on each photo they read, not on a texture of short bar-like runs")
    func productBarsGate() throws {
        for (name, _) in Self.copies {
            let (image, _) = try Self.sample(name)
            let most = BarRegions.find(in: image, most: PassPlan.barRegionsLooked).map(\.bars).max() ?? 0
            #expect(most >= PassPlan.productBars, "\(name): \(most) bars")
        }
        let url = Self.root.appendingPathComponent("nothing/zxing-photo-09.png")
        let texture = try ImageDecoder().decode([UInt8](try Data(contentsOf: url)))
        let regions = BarRegions.find(in: texture, most: PassPlan.barRegionsLooked)
        #expect(!regions.isEmpty, "the photo shows bar-like regions")
        let (found, stages) = PlanGateTests.detect(texture)
        #expect(found.isEmpty)
        #expect(!stages.contains { $0.hasPrefix("zbar(products)") }, "\(stages)")
    }
}
