import Foundation
import Testing
import TestSupport
@testable import QRSealKit

/// The evidence gate of the budgeted stages (`PassPlan.Gate.thresholdedFinders`): on a
/// photo with no code (two of zxing-cpp's, Tests/Images/nothing), the wide locator and the passes on thresholded and enlarged copies
/// do not run; a code that only one of them reads, in a picture as large as a photo, still
/// shows the evidence and is read. The pictures in Tests/Images/gate are four of
/// `bench/gen_gatecases.py --seed 23` (640 × 480, a flat grey background, noise), each read
/// by one gated stage only, two of them now first by the locator on midrange pixels.
@Suite("Detector: the evidence gate of the wide locator and the thresholded copies")
struct EvidenceGateTests {
    /// The stages whose gate asks for finder evidence on the thresholded copies.
    static func isGated(_ stage: String) -> Bool {
        stage.hasPrefix("located(wide: true)") || stage.hasPrefix("zbar [QRSealKit.Step.")
            || stage.hasPrefix("zxing(harder: true) [QRSealKit.Step.upscale") || stage.hasPrefix("zxing(harder: true) [QRSealKit.Step.pad")
    }

    /// What `Detector` reads in `image`, and each stage it ran with what that stage read.
    static func profiled(_ image: GrayImage) -> ([Detection], [(stage: String, reads: [String])]) {
        final class Rows: @unchecked Sendable {
            let lock = NSLock()
            var all: [(String, [String])] = []
        }
        let rows = Rows()
        var detector = Detector()
        detector.profile = { stage, _, reads in
            rows.lock.lock(); rows.all.append((stage, reads.compactMap(\.text))); rows.lock.unlock()
        }
        let found = detector.detect(in: image)
        return (found, rows.all.map { (stage: $0.0, reads: $0.1) })
    }

    @Test("a photo of a texture with no code runs neither the wide locator nor a pass on a thresholded or enlarged copy, and reads nothing",
          arguments: ["nothing/zxing-photo-01.png", "nothing/zxing-photo-15.png"])
    func photoRunsNoGatedStage(path: String) throws {
        let image = try ImageDecoder().decode([UInt8](try Data(contentsOf: LargePhotoTests.images.appendingPathComponent(path))))
        let (found, stages) = Self.profiled(image)
        #expect(found.isEmpty)
        // The evidence was looked for, and the stages it gates did not run.
        #expect(stages.contains { $0.stage.hasPrefix("thresholded finders") }, "\(stages.map(\.stage))")
        #expect(!stages.contains { Self.isGated($0.stage) }, "\(stages.map(\.stage))")
    }

    @Test("a code in a 640 × 480 picture that only one gated stage reads shows the evidence and is read there",
          arguments: [("gate/116-m8-b0.5-turned.png", "zbar [QRSealKit.Step.threshold"),
                      ("gate/112-m8-b0.4-low.png", "zbar [QRSealKit.Step.blur"),
                      // These two are read before the gated stages since the locator also runs on
                      // midrange-binarized pixels (`PassPlan.midrangeLocated`): their blurred
                      // finders hold there. Still read, and by the first stage that can.
                      ("gate/044-m4-b0.4-low.png", "located(wide: false, midrange)"),
                      ("gate/210-m3-b0.4.png", "located(wide: false, midrange)")])
    func gatedCodeRead(path: String, stage: String) throws {
        let (image, expected) = try LargePhotoTests.sample(path)
        #expect(min(image.width, image.height) >= 400, "the picture passes by its evidence, not by its size")
        let (found, stages) = Self.profiled(image)
        #expect(found.compactMap(\.text) == expected)
        // The first stage that read it is the gated one.
        let first = stages.first { $0.reads.contains(expected[0]) }
        #expect(first?.stage.hasPrefix(stage) == true, "\(stages.map(\.stage))")
    }

    @Test("the hard light-on-dark, blurred and tiny codes that only a prepared copy reads are still read")
    func hardCodesRead() throws {
        for path in ["hard/inverted.png", "hard/blur.png", "hard/tiny.png"] {
            let (image, expected) = try LargePhotoTests.sample(path)
            let (found, stages) = Self.profiled(image)
            #expect(found.compactMap(\.text) == expected, "\(path)")
            // Read by a prepared copy, not by a search of the image as it is.
            let first = stages.first { $0.reads.contains(expected[0]) }
            #expect(first?.stage.contains("QRSealKit.Step.") == true, "\(path): \(stages.map(\.stage))")
        }
    }

    @Test("a page of finder-like rings that form no code shows the evidence and still reads nothing")
    func hostileRings() throws {
        // Rings of 1:1:3:1:1 at 3 pixels a module, in rows and columns 25 pixels apart:
        // hundreds of finders, three of any right angle placed as a code's, none a code. The
        // evidence check stops at the first ring it confirms.
        let w = 640, h = 480, module = 3, step = 25
        var pixels = [UInt8](repeating: 230, count: w * h)
        for y0 in stride(from: 4, to: h - 7 * module, by: step) {
            for x0 in stride(from: 4, to: w - 7 * module, by: step) {
                for y in 0..<(7 * module) {
                    for x in 0..<(7 * module) where max(abs(x / module - 3), abs(y / module - 3)) != 2 {
                        pixels[(y0 + y) * w + x0 + x] = 25
                    }
                }
            }
        }
        let image = GrayImage(width: w, height: h, pixels: pixels)
        let dark = Binarizer.binarized(image)
        let census = FinderCensus(dark: dark, width: w, height: h)
        #expect(census.patterns.count > 300)
        #expect(census.holdsConfirmedPattern(on: dark, width: w, height: h))
        #expect(Detector().detect(in: image).isEmpty)
    }

    @Test("evidence asked of a binarized image of the wrong size is none, not a crash")
    func mismatchedDark() {
        let census = FinderCensus(GrayImage(width: 64, height: 64, filledWith: 255))
        #expect(!census.holdsConfirmedPattern(on: [true, false], width: 64, height: 64))
        #expect(!census.holdsConfirmedPattern(on: [], width: 0, height: 0))
    }
}
