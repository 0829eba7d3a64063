import Foundation
import Testing
import TestSupport
@testable import QRSealKit

/// The plan as data (`PassPlan.stages(for:pixels:)`): batches of gated stages that one loop
/// in `Detector` runs, and what a user sees of their order and gates.
@Suite("Detector: the plan's stages and their gates")
struct PlanStageTests {
    @Test("a blurred EAN-13 that only the grey-profile reader reads is read after both plain searches and the width reader left its bars unread")
    func profilesAfterPlain() throws {
        let (image, expected) = try LargePhotoTests.sample("linear/ean13-blur.jpg")
        let (found, stages) = PlanGateTests.detect(image)
        #expect(found.compactMap(\.text) == expected)
        // Both plain searches ran, then the width reader, and then, as they left its bars
        // unread, the grey-profile reader.
        let profiles = try #require(stages.firstIndex { $0.hasPrefix("profiles") }, "\(stages)")
        let zbar = try #require(stages.firstIndex(of: "zbar []"), "\(stages)")
        let widths = try #require(stages.firstIndex(of: "widths []"), "\(stages)")
        #expect(zbar < widths && widths < profiles)
        let plan = PassPlan.stages(for: .balanced, pixels: image.width * image.height)
        let batch = try #require(plan.firstIndex { $0.flatMap(\.passes).contains(Pass(.widths)) })
        #expect(Set(plan[batch].flatMap(\.passes))
                == [Pass(.widths), Pass(.turnedMicroPDF417), Pass(.zbar), Pass(.zxing(harder: true))])
        #expect(plan[batch].map(\.afterwards) == [nil, nil, .unreadBars])
        #expect(plan[batch + 1].flatMap(\.passes) == [Pass(.profiles)] && plan[batch + 1].map(\.afterwards) == [.unreadBars])
    }

    /// The EAN-13 4006381333931 drawn clean and turned a quarter.
    static func turnedEAN13() throws -> GrayImage {
        let drawn = try ImageDecoder().decode([UInt8](try #require(Barcodes.ean13PGM("4006381333931"))))
        var turned = [UInt8](repeating: 255, count: drawn.pixels.count)
        for y in 0..<drawn.height { for x in 0..<drawn.width { turned[x * drawn.height + y] = drawn.pixels[y * drawn.width + x] } }
        return GrayImage(width: drawn.height, height: drawn.width, pixels: turned)
    }

    @Test("an EAN-13 turned a quarter, which plain zbar reads whole, leaves the grey-profile reader out")
    func plainReadLeavesProfilesOut() throws {
        // The quick search reads linear codes across the rows only: turned, it is left to the plain searches.
        let image = try Self.turnedEAN13()
        let (found, stages) = PlanGateTests.detect(image)
        #expect(found.compactMap(\.text) == ["4006381333931"])
        #expect(stages.contains("zbar []") && !stages.contains { $0.hasPrefix("profiles") }, "\(stages)")
    }

    @Test("zxing-cpp's harder search turns rows for linear codes only where the plan found bars: with none, it looks for matrix codes alone")
    func harderSearchWhereBarsShow() throws {
        let image = try Self.turnedEAN13()
        func read(bars: [BarRegion]?) -> [String] {
            var input = ReaderInput(image)
            input.bars = bars
            return ZXingSearch.zxing(harder: true).read(input, symbologies: [.ean13, .qr]).map { String(decoding: $0.bytes, as: UTF8.self) }
        }
        let regions = BarRegions.find(in: image, most: PassPlan.barRegionsLooked)
        #expect(!regions.isEmpty)
        #expect(read(bars: regions) == ["4006381333931"])
        // Not looked for: the search does as it always did.
        #expect(read(bars: nil) == ["4006381333931"])
        // Looked for and none found: no linear code is looked for.
        #expect(read(bars: []).isEmpty)
    }

    @Test("a QR code the quick search read whole leaves the grey-profile reader, the plain searches and our Aztec and Data Matrix readers out")
    func readCodeStops() throws {
        let code = try QREncoder().encode(.text("one code, read at once")).image(scale: 6, margin: 4)
        let (found, stages) = PlanGateTests.detect(code)
        #expect(found.compactMap(\.text) == ["one code, read at once"])
        #expect(!stages.contains { $0.hasPrefix("profiles") || $0.hasPrefix("zbar") }, "\(stages)")
        #expect(!stages.contains { $0.hasPrefix("aztec") || $0.hasPrefix("dataMatrix") }, "\(stages)")
    }

    @Test("a small QR code the quick search reads leaves room: an Aztec symbol turned 30° and a distorted Data Matrix beside it, which only our readers read, are read too")
    func ownReadersAfterQuickRead() throws {
        let (aztec, aztecText) = try LargePhotoTests.sample("aztec/rot30.png")
        let (matrix, matrixText) = try LargePhotoTests.sample("datamatrix/distorted.png")
        let qr = try QREncoder().encode(.text("a small code beside two others")).image(scale: 3, margin: 4)
        // Each symbol on the 16-pixel grid of the binarization our readers share, as alone.
        func grid(_ x: Int) -> Int { (x + 15) / 16 * 16 }
        let aztecX = grid(qr.width + 32), matrixX = grid(aztecX + aztec.width + 16)
        let w = matrixX + matrix.width + 32, h = max(qr.height, aztec.height, matrix.height) + 64
        var page = [UInt8](repeating: 255, count: w * h)
        GateImageTests.paste(qr, into: &page, width: w, x: 32, y: 32)
        GateImageTests.paste(aztec, into: &page, width: w, x: aztecX, y: 32)
        GateImageTests.paste(matrix, into: &page, width: w, x: matrixX, y: 32)
        let (found, stages) = PlanGateTests.detect(GrayImage(width: w, height: h, pixels: page))
        #expect(Set(found.compactMap(\.text)) == Set(["a small code beside two others"] + aztecText + matrixText))
        // The quick search read the QR code first; our readers came after it.
        #expect(stages.first == "zxing(harder: false) []", "\(stages)")
        #expect(stages.contains("aztec []") && stages.contains("dataMatrix []"), "\(stages)")
    }

    @Test("every effort's plan starts with the quick search and reads a large photo region by region")
    func largePhotoRegions() {
        for effort in Effort.allCases {
            let stages = PassPlan.stages(for: effort, pixels: 12_000_000)
            #expect(stages.first?.flatMap(\.passes).contains(Pass(.zxing(harder: false))) == true, "\(effort)")
            #expect(stages.dropFirst().first?.map(\.work) == [.regions], "\(effort)")
            #expect(stages.dropFirst().first?.map(\.gate) == [.always], "\(effort)")
        }
        // A small image has no regions before something was read.
        let small = PassPlan.stages(for: .balanced, pixels: 1_000_000).flatMap { $0 }.filter { $0.work == .regions }
        #expect(small.map(\.gate) == [.somethingRead])
    }

    @Test("every effort's budget lets a budgeted stage start; no limit and none left are said by name")
    func budgetKinds() {
        for effort in Effort.allCases {
            for pixels in [0, 300_000, 40_000_000] {
                let budget = effort.timeBudget(pixels: pixels)
                #expect(budget.allows(spentMilliseconds: 0), "\(effort) at \(pixels) pixels")
                #expect(budget.allows(spentMilliseconds: 9_999), "\(effort) at \(pixels) pixels")
                #expect(!budget.allows(spentMilliseconds: 1e9), "\(effort) at \(pixels) pixels")
            }
        }
        #expect(TimeBudget.unlimited.allows(spentMilliseconds: 1e12))
        #expect(!TimeBudget.exhausted.allows(spentMilliseconds: 0))
        #expect(TimeBudget.cpu(.milliseconds(5)).allows(spentMilliseconds: 4.9))
        #expect(!TimeBudget.cpu(.milliseconds(5)).allows(spentMilliseconds: 5))
    }

    @Test("the safety net counts the passes' CPU time: an exhausted budget still runs the unbudgeted stages and no other")
    func zeroBudget() throws {
        // Read only by zbar on a thresholded copy, a budgeted stage.
        let (image, expected) = try LargePhotoTests.sample("hard/blur.png")
        var detector = Detector()
        #expect(detector.detect(in: image).compactMap(\.text) == expected)
        detector.timeBudget = .exhausted
        #expect(detector.detect(in: image).isEmpty)
    }

    @Test("at balanced the wide locator and the thresholded and enlarged copies ask for finder evidence; the inverted copy, rMQR crops, thorough and a large photo's wide locator do not")
    func evidenceGates() {
        func gates(_ effort: Effort, _ pixels: Int) -> [Pass: PassPlan.Gate] {
            var gates: [Pass: PassPlan.Gate] = [:]
            for stage in PassPlan.stages(for: effort, pixels: pixels).flatMap({ $0 }) {
                for pass in stage.passes { gates[pass] = stage.gate }
            }
            return gates
        }
        func asksForEvidence(_ gate: PassPlan.Gate?) -> Bool {
            switch gate {
            case .thresholdedFinders?: return true
            case .both(let a, let b)?, .either(let a, let b)?: return asksForEvidence(a) || asksForEvidence(b)
            default: return false
            }
        }
        let small = gates(.balanced, 300_000)
        #expect(asksForEvidence(small[Pass(.located(wide: true))]))
        for pass in PassPlan.balanced.flatMap({ $0 }) {
            // Our rMQR reader's enlarged crops run on small images only, finders or not.
            let crop = pass.reader is RMQRSearch
            #expect(asksForEvidence(small[pass]) == (pass.steps != [.invert] && !crop), "\(pass)")
            if crop { #expect(small[pass] == .both(.roomForMore, .narrowerThan(PassPlan.rmqrCropsBelow)), "\(pass)") }
        }
        #expect(!gates(.thorough, 300_000).values.contains(where: asksForEvidence))
        #expect(!asksForEvidence(gates(.balanced, 12_000_000)[Pass(.located(wide: true))]))
    }
}
