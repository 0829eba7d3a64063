import Foundation
import Testing
import TestSupport
@testable import QRSealKit

/// zbar's linear scan on a darkened copy (`PassPlan.darkened`): washed-out photos of
/// blurred product codes that zbar misses on the image as it is.
@Suite("Detect: zbar on a darkened copy")
struct DarkenedPassTests {
    static let folder = Tools.packageRoot.appendingPathComponent("Tests/Images/washedout")

    static func sample(_ name: String) throws -> (GrayImage, String) {
        let url = folder.appendingPathComponent(name + ".png")
        let image = try ImageDecoder().decode([UInt8](try Data(contentsOf: url)))
        let expected = try String(contentsOf: folder.appendingPathComponent(name + ".txt"), encoding: .utf8)
        return (image, expected)
    }

    @Test("zbar misses each washed-out photo as it is and reads it darkened",
          arguments: ["upce-washedout", "ean13-washedout", "upca-washedout"])
    func zbarDarkened(name: String) throws {
        let (image, _) = try Self.sample(name)
        let zbar = ZBarEngine(symbologies: [.ean13, .upca, .upce, .ean8])
        #expect(zbar.scan(image).isEmpty)
        #expect(!zbar.scan(image.darkened(gamma: 2)).isEmpty)
    }

    @Test("balanced reads each washed-out photo, and only its number",
          arguments: ["upce-washedout", "ean13-washedout", "upca-washedout"])
    func balanced(name: String) throws {
        let (image, expected) = try Self.sample(name)
        var detector = Detector(effort: .balanced)
        detector.timeBudget = .cpu(.seconds(600))
        #expect(detector.detect(in: image).map(\.text) == [expected])
    }
}
