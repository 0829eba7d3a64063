import Foundation
import Testing
import TestSupport
@testable import QRSealKit

/// The images of Tests/Images/abort (made by make-barcode-images.sh), on which libZXing 1.4 aborts
/// the process when asked for every symbol at once with its harder searches: the shim
/// reads them with every search on, and the detector at every effort.
@Suite("Detector: images that abort libZXing 1.4")
struct AbortImageTests {
    static let folder = Tools.packageRoot.appendingPathComponent("Tests/Images/abort")
    static let names = ["large-code128", "twice-code128", "tilted-databar", "tilted-databar-exp"]

    static func sample(_ name: String) throws -> (GrayImage, [String]) {
        let url = folder.appendingPathComponent(name + ".png")
        let image = try ImageDecoder().decode([UInt8](try Data(contentsOf: url)))
        let text = try String(contentsOf: folder.appendingPathComponent(name + ".txt"), encoding: .utf8)
        return (image, text.split(separator: "\n").map(String.init))
    }

    @Test("zxing-cpp reads each, every copy of a code, with its harder searches (tryHarder, tryRotate, tryDownscale) and without",
          arguments: names)
    func engine(name: String) throws {
        let (image, expected) = try Self.sample(name)
        for harder in [true, false] {
            var zxing = ZXingEngine(symbologies: Symbology.defaultSet)
            zxing.tryHarder = harder
            zxing.tryRotate = harder
            let read = zxing.scan(image).compactMap {
                SymbolCheck.detection(from: $0, mapping: .identity, inputWidth: image.width, inputHeight: image.height,
                                      wanted: Symbology.defaultSet)?.text
            }
            #expect(read == expected, "\(name), harder: \(harder): \(read)")
        }
    }

    @Test("the detector reads each at every effort", arguments: names)
    func detector(name: String) throws {
        let (image, expected) = try Self.sample(name)
        for effort in Effort.allCases {
            var detector = Detector(effort: effort)
            detector.timeBudget = .cpu(.seconds(600))
            #expect(detector.detect(in: image).compactMap(\.text) == expected, "\(name) at \(effort)")
        }
    }
}
