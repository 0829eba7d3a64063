import Testing
@testable import QRSealKit

@Suite("Raster: decoding PNM")
struct RasterPNMDecodingTests {
    private func decode(_ text: String) throws(RasterError) -> GrayImage {
        try ImageDecoder().decode(Array(text.utf8))
    }

    private func expectDamaged(_ bytes: [UInt8], saying phrase: String,
                               sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(sourceLocation: sourceLocation) {
            try ImageDecoder().decode(bytes)
        } throws: { error in
            guard case .damaged("PNM", let reason)? = error as? RasterError else { return false }
            return reason.contains(phrase)
        }
    }

    @Test("P2 with comments between every header field decodes")
    func asciiGrayWithComments() throws {
        let image = try decode("P2 # made by hand\n# size follows\n3 # width\n2\n# maxval next\n255\n"
                               + "0 128 255\n255 128\n0\n")
        #expect(image == GrayImage(width: 3, height: 2, pixels: [0, 128, 255, 255, 128, 0]))
    }

    @Test("P2 with a small maxval is scaled to 0...255")
    func asciiGrayScaled() throws {
        let image = try decode("P2\n4 1\n3\n0 1 2 3\n")
        #expect(image.pixels == [0, 85, 170, 255])
    }

    @Test("P3 colour becomes BT.601 luma")
    func asciiColour() throws {
        let image = try decode("P3\n4 1\n255\n255 0 0  0 255 0  0 0 255  255 255 255\n")
        #expect(image.pixels == [76, 150, 29, 255])
    }

    @Test("P5 matches the pattern it was written from")
    func binaryGray() throws {
        let image = try ImageDecoder().decode(RasterFixtures.pgm(RasterFixtures.pattern))
        #expect(difference(image, RasterFixtures.pattern) == nil)
    }

    @Test("P5 whose first sample is a whitespace byte keeps it as a sample")
    func binarySampleThatLooksLikeSpace() throws {
        let image = try ImageDecoder().decode(Array("P5\n2 1\n255\n".utf8) + [0x20, 0x0A])
        #expect(image.pixels == [0x20, 0x0A])
    }

    @Test("P5 with 16-bit big-endian samples is scaled to 0...255")
    func binaryGraySixteenBit() throws {
        let bytes = Array("P5\n3 1\n65535\n".utf8) + [0x00, 0x00, 0x80, 0x00, 0xFF, 0xFF]
        #expect(try ImageDecoder().decode(bytes).pixels == [0, 128, 255])
    }

    @Test("P6, 8- and 16-bit, becomes BT.601 luma")
    func binaryColour() throws {
        let eight = Array("P6\n2 1\n255\n".utf8) + [255, 0, 0, 10, 20, 30]
        #expect(try ImageDecoder().decode(eight).pixels == [76, 18])
        let sixteen = Array("P6\n1 1\n65535\n".utf8) + [0x00, 0x00, 0xFF, 0xFF, 0x00, 0x00]
        #expect(try ImageDecoder().decode(sixteen).pixels == [150])
    }

    @Test("PGM written by ImageMagick, 8- and 16-bit, decodes like the original")
    func imageMagickOutput() throws {
        let fixtures = try RasterFixtures()
        defer { fixtures.remove() }
        for (arguments, output) in [(["-compress", "none"], "PGM:a.pgm"), (["-depth", "16"], "PGM:b.pgm"),
                                    (["-depth", "16", "-compress", "none"], "PPM:c.ppm")] {
            let bytes = try fixtures.convert(RasterFixtures.pattern, arguments, output: output)
            let image = try ImageDecoder().decode(bytes)
            #expect(difference(image, RasterFixtures.pattern) == nil, "\(arguments)")
        }
    }

    @Test("a PNM declaring 100000x100000 pixels is refused as too large")
    func hugeDeclaredSize() {
        #expect(throws: RasterError.tooLarge(width: 100_000, height: 100_000,
                                             limit: ImageDecoder.defaultMaxPixels)) {
            try decode("P5\n100000 100000\n255\n")
        }
    }

    @Test("a PNM declaring a size far past what its bytes hold is refused without allocating")
    func sizeBeyondData() {
        expectDamaged(Array("P6\n9000 9000\n255\n".utf8) + [1, 2, 3], saying: "truncated")
        expectDamaged(Array("P2\n9000 9000\n255\n1 2 3\n".utf8), saying: "truncated")
    }

    @Test("a PNM with a number too long to hold is damaged")
    func absurdNumber() {
        expectDamaged(Array("P5\n99999999999999999999999 1\n255\n".utf8), saying: "out of range")
    }

    @Test("zero width is reported as bad dimensions")
    func zeroWidth() {
        #expect(throws: RasterError.badDimensions(width: 0, height: 5)) { try decode("P5\n0 5\n255\n") }
    }

    @Test("truncated pixel data is damaged, in binary and ASCII")
    func truncatedData() {
        expectDamaged(Array("P5\n4 4\n255\n".utf8) + [0, 0, 0], saying: "truncated")
        expectDamaged(Array("P5\n2 1\n65535\n".utf8) + [0, 0, 0], saying: "truncated")
        expectDamaged(Array("P2\n2 2\n255\n0 0 0   ".utf8), saying: "truncated")
        expectDamaged(Array("P5\n4 4\n255".utf8), saying: "truncated")
    }

    @Test("truncated header is damaged")
    func truncatedHeader() {
        expectDamaged(Array("P5".utf8), saying: "truncated")
        expectDamaged(Array("P5\n4".utf8), saying: "missing height")
        expectDamaged(Array("P6\n4 4\n".utf8), saying: "missing maxval")
    }

    @Test("maxval outside 1...65535 is damaged", arguments: ["0", "70000"])
    func badMaxval(_ maxval: String) {
        expectDamaged(Array("P5\n1 1\n\(maxval)\n".utf8) + [0, 0], saying: "maxval \(maxval) outside")
    }

    @Test("a sample above maxval is damaged, in binary and ASCII")
    func sampleAboveMaxval() {
        expectDamaged(Array("P5\n2 1\n100\n".utf8) + [50, 101], saying: "sample 101 above maxval 100")
        expectDamaged(Array("P5\n1 1\n1000\n".utf8) + [0x03, 0xE9], saying: "sample 1001 above maxval 1000")
        expectDamaged(Array("P2\n2 1\n15\n3 16\n".utf8), saying: "sample 16 above maxval 15")
    }

    @Test("garbage in the header or data is damaged")
    func garbage() {
        expectDamaged(Array("P5\nwide 4\n255\n".utf8), saying: "expected a number for width")
        expectDamaged(Array("P5 4 4 255x".utf8), saying: "expected a number for maxval")
        expectDamaged(Array("P2\n2 1\n255\n12 x\n".utf8), saying: "expected a number for sample")
        expectDamaged(Array("P5-4 4 255\n".utf8), saying: "malformed header")
    }

    @Test("formats we do not read (P1, P4, P7) are not mistaken for PNM")
    func otherNetpbmKinds() {
        for magic in ["P1", "P4", "P7"] {
            #expect(throws: RasterError.unknownFormat) { try decode("\(magic)\n1 1\n1\n") }
        }
    }
}
