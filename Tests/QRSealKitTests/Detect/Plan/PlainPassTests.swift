import Foundation
import Testing
import TestSupport
@testable import QRSealKit

/// What plain zbar or ZXingReader reads, `balanced` reads too, whatever time is left: both
/// engines' own searches on the image as it is run first after the quick search, and always.
@Suite("Detect: the plain passes always run")
struct PlainPassTests {
    @Test("a photo that only plain zbar reads is read at the default effort even with no time budget left")
    func plainZBarAlwaysRuns() throws {
        let url = Tools.packageRoot.appendingPathComponent("Tests/Images/plain/ean13-photo.png")
        let image = try ImageDecoder().decode([UInt8](try Data(contentsOf: url)))
        let expected = try String(contentsOf: url.deletingPathExtension().appendingPathExtension("txt"), encoding: .utf8)
            .trimmingCharacters(in: .newlines)
        #expect(Detector(effort: .fast).detect(in: image).isEmpty, "the quick search alone misses it")
        var detector = Detector(effort: .balanced)
        detector.timeBudget = .exhausted
        #expect(detector.detect(in: image).map(\.text) == [expected])
    }
}
