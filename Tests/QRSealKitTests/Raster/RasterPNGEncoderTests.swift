import Foundation
import Testing
import TestSupport
@testable import QRSealKit

@Suite("Raster: encoding PNG")
struct RasterPNGEncoderTests {
    @Test("black and white is written as 1-bit PNG, grays as 8-bit grayscale; both read back equal")
    func roundTrip() throws {
        let dir = try TempDir()
        let grays = GrayImage(width: 256, height: 3, pixels: (0..<768).map { UInt8($0 % 256) })
        for (image, fileSays) in [(RasterFixtures.bilevelPattern, "1-bit"), (grays, "8-bit grayscale")] {
            let bytes = try PNGEncoder.encode(image)
            try dir.write("out.png", Data(bytes))
            #expect(try dir.describe("out.png").contains(fileSays))
            #expect(difference(try ImageDecoder().decode(bytes), image) == nil, "\(fileSays)")
        }
    }

    @Test("other tools read the PNG we write with the same pixels")
    func readableByImageMagick() throws {
        let dir = try TempDir()
        for image in [RasterFixtures.pattern, RasterFixtures.bilevelPattern] {
            let path = try dir.write("ours.png", Data(try PNGEncoder.encode(image)))
            try runTool("convert", [path, dir.path("theirs.pgm")])
            #expect(difference(try ImageDecoder().decode(try dir.read("theirs.pgm")), image) == nil)
        }
    }

    @Test("a single-pixel image and an all-white image round-trip")
    func edgeImages() throws {
        for image in [GrayImage(width: 1, height: 1, filledWith: 0),
                      GrayImage(width: 1, height: 1, filledWith: 77),
                      GrayImage(width: 40, height: 7, filledWith: 255)] {
            #expect(difference(try ImageDecoder().decode(try PNGEncoder.encode(image)), image) == nil)
        }
    }

    @Test("an empty image cannot be encoded")
    func emptyImage() {
        #expect(throws: RasterError.encodeFailed(reason: "image is empty (0x0)")) {
            try PNGEncoder.encode(GrayImage(width: 0, height: 0, pixels: []))
        }
    }
}
