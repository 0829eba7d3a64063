import Testing
@testable import QRSealKit

@Suite("Raster: encoding PNG")
struct RasterPNGEncoderTests {
    @Test("a black-and-white image is written as a 1-bit PNG and reads back equal")
    func bilevelRoundTrip() throws {
        let fixtures = try RasterFixtures()
        defer { fixtures.remove() }
        let image = RasterFixtures.bilevelPattern
        let bytes = try PNGEncoder.encode(image)
        try fixtures.write(bytes, to: "bilevel.png")
        #expect(try fixtures.describe("bilevel.png").contains("1-bit"))
        #expect(difference(try ImageDecoder().decode(bytes), image) == nil)
    }

    @Test("an image with grays is written as 8-bit grayscale and reads back equal")
    func grayRoundTrip() throws {
        let fixtures = try RasterFixtures()
        defer { fixtures.remove() }
        let image = GrayImage(width: 256, height: 3, pixels: (0..<768).map { UInt8($0 % 256) })
        let bytes = try PNGEncoder.encode(image)
        try fixtures.write(bytes, to: "gray.png")
        #expect(try fixtures.describe("gray.png").contains("8-bit grayscale"))
        #expect(difference(try ImageDecoder().decode(bytes), image) == nil)
    }

    @Test("other tools read the PNG we write with the same pixels")
    func readableByImageMagick() throws {
        let fixtures = try RasterFixtures()
        defer { fixtures.remove() }
        for image in [RasterFixtures.pattern, RasterFixtures.bilevelPattern] {
            let path = try fixtures.write(try PNGEncoder.encode(image), to: "ours.png")
            try fixtures.run("convert", [path, fixtures.directory.appendingPathComponent("theirs.pgm").path])
            #expect(difference(try ImageDecoder().decode(try fixtures.read("theirs.pgm")), image) == nil)
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
