import Testing
import TestSupport
@testable import QRSealKit

/// MaxiCode, read by libZXing 1.4 in the engine: real symbols of zxing-cpp's sample folder
/// (Tests/Images/maxicode) read as what they hold, and only when asked for.
@Suite("MaxiCode")
struct MaxiCodeTests {
    static let samples = ImageSamples("maxicode")
    static let names = samples.names

    @Test("the folder holds the five samples")
    func folderContents() {
        #expect(Self.names.count == 6)
    }

    @Test("each sample is read at the default effort as a MaxiCode with its payload", arguments: MaxiCodeTests.names)
    func read(name: String) throws {
        let (image, expected) = try Self.samples.sample(name)
        var detector = Detector()
        detector.timeBudget = .cpu(.seconds(600))
        let found = detector.detect(in: image)
        #expect(found.map(\.symbology) == [.maxiCode], "\(name)")
        #expect(found.first?.bytes == expected, "\(name)")
        // Placed round the symbol (libZXing 1.4 reports a MaxiCode at the origin): every dark
        // pixel of the sample lies in the box of its corners, and the box is no larger than
        // the image.
        let corners = try #require(found.first?.corners)
        #expect(corners.count == 4)
        let xs = corners.map(\.x), ys = corners.map(\.y)
        let (x0, x1, y0, y1) = (xs.min()!, xs.max()!, ys.min()!, ys.max()!)
        #expect(x1 - x0 > Double(image.width) / 2 && y1 - y0 > Double(image.height) / 2, "\(name): \(corners)")
        #expect(x0 >= 0 && y0 >= 0 && x1 <= Double(image.width) && y1 <= Double(image.height), "\(name): \(corners)")
        var outside = 0
        for y in 0..<image.height {
            for x in 0..<image.width where image.pixels[y * image.width + x] < 64 {
                if !(x0...x1).contains(Double(x)) || !(y0...y1).contains(Double(y)) { outside += 1 }
            }
        }
        #expect(outside == 0, "\(name): \(outside) dark pixels outside \(corners)")
    }

    @Test("without an ECI a MaxiCode's bytes are ISO-8859-1 text, never guessed as another encoding")
    func latin1() throws {
        let (image, expected) = try Self.samples.sample("mode4-mixed-sets")
        let found = try #require(Detector().detect(in: image).first)
        #expect(found.bytes == expected)
        let text = try String(contentsOf: Self.samples.folder.appendingPathComponent("mode4-mixed-sets.utf8.txt"), encoding: .utf8)
        #expect(found.text == text)
    }

    @Test("a MaxiCode is not reported when it was not asked for")
    func onlyWhenAsked() throws {
        let (image, _) = try Self.samples.sample("Wikipedia")
        let others = Set(Symbology.allCases).subtracting([.maxiCode])
        #expect(Detector(symbologies: others).detect(in: image).isEmpty)
    }
}
