import Foundation
import Testing
import TestSupport
@testable import QRSealKit

/// Dense codes through a harder camera (Tests/Images/dense/README.md): about 3 pixels a
/// module, blurred by about a pixel, noisy, a curled and waving page, JPEG at quality 65-69.
@Suite("Detect: dense codes through a harder camera")
struct DenseHardTests {
    static let folder = Tools.packageRoot.appendingPathComponent("Tests/Images/dense")

    @Test("a dense blurred photo is read whole at the fast and balanced efforts, and nothing else is",
          arguments: ["hard-v27M", "hard-v15M"])
    func read(name: String) throws {
        let image = try ImageDecoder().decode([UInt8](try Data(contentsOf: Self.folder.appendingPathComponent(name + ".jpg"))))
        let expected = try String(contentsOf: Self.folder.appendingPathComponent(name + ".txt"), encoding: .utf8)
        for effort in [Effort.fast, .balanced] {
            var detector = Detector(effort: effort)
            detector.timeBudget = .cpu(.seconds(600))
            let found = detector.detect(in: image)
            #expect(found.map(\.text) == [expected], "\(name) at \(effort)")
            #expect(found.first?.symbology == .qr)
        }
    }

    @Test("the locator on the shared binarized copy misses the corner finder the midrange keeps")
    func midrangeFindsTheFinder() throws {
        let image = try ImageDecoder().decode([UInt8](try Data(contentsOf: Self.folder.appendingPathComponent("hard-v27M.jpg"))))
        #expect(QRLocator(image: image, dark: Binarizer.binarized(image)).read().isEmpty)
        #expect(QRLocator(image: image, dark: Binarizer.midrange(image)).read().count == 1)
    }
}
