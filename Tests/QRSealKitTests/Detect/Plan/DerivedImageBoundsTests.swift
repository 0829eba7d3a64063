import Testing
import TestSupport
@testable import QRSealKit

/// Images of a few hundred bytes whose prepared copies once took gigabytes: the padding
/// grew with the longer side, and no copy was held to the pixel limit.
@Suite("Detector: prepared copies stay within the pixel limit")
struct DerivedImageBoundsTests {
    static let thin: [(Int, Int)] = [(100_000, 1), (1, 65_500), (1_000_000, 1), (100_000, 30), (30, 100_000)]

    @Test("no copy made for any pass holds more than the limit", arguments: thin)
    func everyCopyBounded(size: (Int, Int)) {
        let limit = 5_000_000
        let prepared = PreparedImages(GrayImage(width: size.0, height: size.1, filledWith: 255), maxPixels: limit)
        for pass in PassPlan.catalogue {
            guard let (copy, _) = prepared.image(for: pass.steps) else { continue }
            #expect(copy.width * copy.height <= max(limit, size.0 * size.1), "\(pass.steps) made \(copy.width)x\(copy.height)")
        }
    }

    @Test("the border of a long thin image is sized by its shorter side")
    func padBorder() throws {
        let prepared = PreparedImages(GrayImage(width: 100_000, height: 30, filledWith: 255),
                                      maxPixels: ImageDecoder.defaultMaxPixels)
        let (copy, _) = try #require(prepared.image(for: [.pad(0.1)]))
        #expect(copy.width == 100_060 && copy.height == 90)
        // A square image is padded by a tenth of its side, as before.
        let square = PreparedImages(GrayImage(width: 200, height: 150, filledWith: 255),
                                    maxPixels: ImageDecoder.defaultMaxPixels)
        let (padded, _) = try #require(square.image(for: [.pad(0.1)]))
        #expect(padded.width == 240 && padded.height == 190)
    }

    @Test("a pass whose copy would pass the limit is skipped, and the image as it is still read")
    func limitSkipsPasses() throws {
        let matrix = try QREncoder().encode(.text("within limits"))
        let image = matrix.image(scale: 4, margin: 0)
        let limit = image.width * image.height
        let prepared = PreparedImages(image, maxPixels: limit)
        #expect(prepared.image(for: [.pad(0.1)]) == nil)
        #expect(prepared.image(for: [.upscale(2)]) == nil)
        var detector = Detector(maxPixels: limit)
        detector.timeBudget = .cpu(.seconds(600))
        #expect(detector.detect(in: matrix.image(scale: 4, margin: 4)).map(\.text) == ["within limits"])
    }

    @Test("a long thin image is read as having no code, without a crash", arguments: thin)
    func detectsNothing(size: (Int, Int)) {
        var detector = Detector()
        detector.timeBudget = .cpu(.seconds(600))
        #expect(detector.detect(in: GrayImage(width: size.0, height: size.1, filledWith: 255)).isEmpty)
    }
}
