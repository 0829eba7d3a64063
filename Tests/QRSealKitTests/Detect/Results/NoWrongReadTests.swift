import Foundation
import Testing
import TestSupport
@testable import QRSealKit

/// A wrong read is worse than a miss (issue 28): blurred UPC-A photos, which zbar reads as
/// other valid EAN-13 numbers, give their own number or nothing, at every effort.
@Suite("Detector: no wrong read of a blurred product code")
struct NoWrongReadTests {
    static let folder = Tools.packageRoot.appendingPathComponent("Tests/Images/wrongread")

    /// The UPC-A of the issue, "0 23942 43101 5".
    static let upca = MixedSheets.Code(zint: "UPCA", data: "02394243101", symbology: .upca, expected: "023942431015")

    /// Each read of `image` that is not `expected` (a UPC-A's 12 digits, or its 13-digit
    /// EAN-13 form).
    static func wrongReads(_ image: GrayImage, expected: String, effort: Effort) -> [String] {
        var detector = Detector(effort: effort)
        detector.timeBudget = .cpu(.seconds(600))
        return detector.detect(in: image).map { String(decoding: $0.bytes, as: UTF8.self) }
            .filter { $0 != expected && $0 != "0" + expected }
    }

    @Test("phone photos of a UPC-A that zbar (as it is or on a prepared copy) or zxing-cpp misreads: its number or nothing",
          arguments: Effort.allCases)
    func photo(effort: Effort) throws {
        for name in ["upca-blurred", "upca-zxing", "upca-enlarged"] {
            let url = Self.folder.appendingPathComponent(name + ".png")
            let image = try ImageDecoder().decode([UInt8](try Data(contentsOf: url)))
            let expected = try String(contentsOf: Self.folder.appendingPathComponent(name + ".txt"), encoding: .utf8)
            #expect(Self.wrongReads(image, expected: expected, effort: effort).isEmpty, "\(name)")
        }
    }

    @Test("a UPC-A that zbar reads on 37 scan lines and zxing-cpp's searches misread: zbar's number",
          arguments: [Effort.balanced, .thorough])
    func enginesBeforePasses(effort: Effort) throws {
        let url = Self.folder.appendingPathComponent("upca-zxing.png")
        let image = try ImageDecoder().decode([UInt8](try Data(contentsOf: url)))
        let read = Detector(effort: effort).detect(in: image).map { String(decoding: $0.bytes, as: UTF8.self) }
        #expect(read == ["075720003259"])
    }

    @Test("a UPC-A blurred by 1 to 4 pixels at 2 to 6 pixels a module: its number or nothing", arguments: Effort.allCases)
    func synthetic(effort: Effort) throws {
        for enlarge in [1, 2, 3] {
            for blur in [1.5, 2.5, 3.0, 4.0] {
                let image = try MixedSheets.blurred(Self.upca, enlarge: enlarge, blur: blur)
                let wrong = Self.wrongReads(image, expected: Self.upca.expected, effort: effort)
                #expect(wrong.isEmpty, "enlarged \(enlarge)×, blurred \(blur) px: \(wrong)")
            }
        }
    }

    @Test("a UPC-A and a different EAN-13 read in the same bars, once each: neither is reported")
    func disagreement() {
        let box = [Point(x: 10, y: 40), Point(x: 200, y: 40), Point(x: 200, y: 60), Point(x: 10, y: 60)]
        let lower = box.map { Point(x: $0.x, y: $0.y + 30) }
        let right = Detection(symbology: .upca, bytes: Array("023942431015".utf8), corners: box)
        let wrong = Detection(symbology: .ean13, bytes: Array("9074932437075".utf8), corners: lower)
        #expect(Detector.merged([right, wrong]).isEmpty)
        // A second read of the right number outweighs the one wrong read.
        #expect(Detector.merged([right, wrong, right]).map(\.bytes) == [right.bytes])
    }

    @Test("two DataBar Expanded reads whose boxes meet, a stacked symbol and some of its rows: neither unless one has more reads")
    func stackedRows() {
        let whole = [Point(x: 2, y: 33), Point(x: 50, y: 33), Point(x: 50, y: 75), Point(x: 2, y: 75)]
        let rows = [Point(x: 3, y: 74), Point(x: 50, y: 74), Point(x: 50, y: 82), Point(x: 3, y: 82)]
        let right = Detection(symbology: .databarExpanded, bytes: Array("10123456A1234A\u{1d}15991231".utf8), corners: whole)
        let wrong = Detection(symbology: .databarExpanded, bytes: Array("10123456A1234A\u{1d}1235KA".utf8), corners: rows)
        #expect(Detector.merged([right, wrong]).isEmpty)
        #expect(Detector.merged([right, wrong, right]).map(\.bytes) == [right.bytes])
        // Two Expanded symbols apart, one above the other: both.
        let below = rows.map { Point(x: $0.x, y: $0.y + 20) }
        let other = Detection(symbology: .databarExpanded, bytes: wrong.bytes, corners: below)
        #expect(Detector.merged([right, other]).count == 2)
    }

    @Test("the DataBar Expanded Stacked symbol zbar reads some rows of as another: its element string alone")
    func stackedImage() throws {
        let url = Self.folder.appendingPathComponent("databar-exp-stacked.png")
        let image = try ImageDecoder().decode([UInt8](try Data(contentsOf: url)))
        let expected = try Data(contentsOf: Self.folder.appendingPathComponent("databar-exp-stacked.txt"))
        #expect(Detector().detect(in: image).map(\.bytes) == [Array(expected)])
    }
}
