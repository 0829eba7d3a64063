import Testing
import TestSupport
@testable import QRSealKit

/// A PNM file that must be refused as damaged, with a phrase the reason must contain.
struct DamagedPNM: CustomTestStringConvertible, Sendable {
    let name: String
    let bytes: [UInt8]
    let says: String
    var testDescription: String { name }

    /// `header` as ASCII followed by the bytes of `data`.
    init(_ name: String, _ header: String, _ data: [UInt8] = [], says: String) {
        self.name = name
        self.bytes = Array(header.utf8) + data
        self.says = says
    }
}

@Suite("Raster: decoding PNM")
struct RasterPNMDecodingTests {
    private func decode(_ text: String) throws(RasterError) -> GrayImage {
        try ImageDecoder().decode(Array(text.utf8))
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

    @Test("P5 and P4 whose first byte of pixel data is a whitespace byte keep it as data")
    func binarySampleThatLooksLikeSpace() throws {
        let gray = try ImageDecoder().decode(Array("P5\n2 1\n255\n".utf8) + [0x20, 0x0A])
        #expect(gray.pixels == [0x20, 0x0A])
        let bitmap = try ImageDecoder().decode(Array("P4\n8 2\n".utf8) + [0x20, 0x0A])
        #expect(bitmap.pixels == [255, 255, 0, 255, 255, 255, 255, 255,
                                  255, 255, 255, 255, 0, 255, 0, 255])
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
        let dir = try TempDir()
        for (arguments, output) in [(["-compress", "none"], "PGM:a.pgm"), (["-depth", "16"], "PGM:b.pgm"),
                                    (["-depth", "16", "-compress", "none"], "PPM:c.ppm")] {
            let bytes = try dir.convert(RasterFixtures.pattern, arguments, output: output)
            let image = try ImageDecoder().decode(bytes)
            #expect(difference(image, RasterFixtures.pattern) == nil, "\(arguments)")
        }
    }

    @Test("P1 reads 1 as black and 0 as white, its digits separated or not, with comments")
    func asciiBitmap() throws {
        let expected = GrayImage(width: 3, height: 2, pixels: [0, 255, 0, 255, 0, 255])
        for text in ["P1\n3 2\n1 0 1\n0 1 0\n", "P1\n3 2\n101010", "P1 3 2 10\n1 # a comment\n010",
                     "P1\n# size\n3\t2\r\n1 01\r\n0\n1 0"] {
            #expect(try decode(text) == expected, "\(text.debugDescription)")
        }
    }

    @Test("P4 rows are padded to whole bytes, and the padding bits are ignored")
    func binaryBitmapPadding() throws {
        // Ten pixels a row take two bytes; the low six bits of each second byte are padding,
        // set in the first row and clear in the second.
        let bytes = Array("P4\n10 2\n".utf8) + [0b1000_0001, 0b0111_1111, 0b0111_1110, 0b1000_0000]
        let pixels: [UInt8] = [0, 255, 255, 255, 255, 255, 255, 0, 255, 0,
                               255, 0, 0, 0, 0, 0, 0, 255, 0, 255]
        #expect(try ImageDecoder().decode(bytes) == GrayImage(width: 10, height: 2, pixels: pixels))
    }

    /// 13×5, every third pixel black: rows that neither fill whole bytes nor start alike.
    static let stripes = GrayImage(width: 13, height: 5, pixels: (0..<65).map { $0 % 3 == 0 ? 0 : 255 })

    @Test("PBM written by ImageMagick, binary from a 1-bit PNG and plain, decodes like the original")
    func imageMagickBitmaps() throws {
        let dir = try TempDir()
        for image in [RasterFixtures.bilevelPattern, Self.stripes] {
            let size = "\(image.width)x\(image.height)"
            // What users meet: `convert x.png x.pnm` writes a 1-bit PNG as P4.
            _ = try dir.convert(image, ["-define", "png:color-type=0", "-define", "png:bit-depth=1"],
                                output: "x.png")
            try runTool("convert", [dir.path("x.png"), dir.path("x.pnm")])
            let binary = try dir.read("x.pnm")
            #expect(binary.starts(with: Array("P4".utf8)), "\(size)")
            #expect(difference(try ImageDecoder().decode(binary), image) == nil, "\(size) P4")

            let plain = try dir.convert(image, ["-compress", "none"], output: "PBM:plain.pbm")
            #expect(plain.starts(with: Array("P1".utf8)), "\(size)")
            #expect(difference(try ImageDecoder().decode(plain), image) == nil, "\(size) P1")
        }
    }

    @Test("a PNM declaring 100000x100000 pixels is refused as too large")
    func hugeDeclaredSize() {
        for header in ["P5\n100000 100000\n255\n", "P4\n100000 100000\n"] {
            #expect(throws: RasterError.tooLarge(width: 100_000, height: 100_000,
                                                 limit: ImageDecoder.defaultMaxPixels)) {
                try decode(header)
            }
        }
    }

    @Test("zero width is reported as bad dimensions")
    func zeroWidth() {
        #expect(throws: RasterError.badDimensions(width: 0, height: 5)) { try decode("P5\n0 5\n255\n") }
    }

    static let damaged: [DamagedPNM] = [
        // Declared sizes far past what the bytes hold are refused before allocating.
        DamagedPNM("P6 size far past its bytes", "P6\n9000 9000\n255\n", [1, 2, 3], says: "truncated"),
        DamagedPNM("P2 size far past its bytes", "P2\n9000 9000\n255\n1 2 3\n", says: "truncated"),
        DamagedPNM("P4 size far past its bytes", "P4\n9000 9000\n", [1, 2, 3], says: "truncated"),
        DamagedPNM("P1 size far past its bytes", "P1\n3 3\n101", says: "truncated"),
        DamagedPNM("a number too long to hold", "P5\n99999999999999999999999 1\n255\n",
                   says: "out of range"),

        DamagedPNM("P5 cut in its pixels", "P5\n4 4\n255\n", [0, 0, 0], says: "truncated"),
        DamagedPNM("16-bit P5 cut in a sample", "P5\n2 1\n65535\n", [0, 0, 0], says: "truncated"),
        DamagedPNM("P2 cut in its pixels", "P2\n2 2\n255\n0 0 0   ", says: "truncated"),
        DamagedPNM("P5 ending after its maxval", "P5\n4 4\n255", says: "truncated"),
        // 20 bits would fit in 3 bytes, but each 10-pixel row takes two.
        DamagedPNM("P4 cut in its last row", "P4\n10 2\n", [0xFF, 0xFF, 0xFF], says: "3 of 4 bytes"),
        DamagedPNM("P4 ending after its height", "P4\n10 2", says: "truncated: no pixel data"),
        DamagedPNM("P1 cut in its pixels", "P1\n3 2\n1 0 1\n0 1", says: "truncated: pixel data ends early"),

        DamagedPNM("magic alone", "P5", says: "truncated"),
        DamagedPNM("no height", "P5\n4", says: "missing height"),
        DamagedPNM("no maxval", "P6\n4 4\n", says: "missing maxval"),
        DamagedPNM("maxval 0", "P5\n1 1\n0\n", [0, 0], says: "maxval 0 outside"),
        DamagedPNM("maxval 70000", "P5\n1 1\n70000\n", [0, 0], says: "maxval 70000 outside"),

        DamagedPNM("8-bit sample above maxval", "P5\n2 1\n100\n", [50, 101],
                   says: "sample 101 above maxval 100"),
        DamagedPNM("16-bit sample above maxval", "P5\n1 1\n1000\n", [0x03, 0xE9],
                   says: "sample 1001 above maxval 1000"),
        DamagedPNM("ASCII sample above maxval", "P2\n2 1\n15\n3 16\n", says: "sample 16 above maxval 15"),

        DamagedPNM("a word for the width", "P5\nwide 4\n255\n", says: "expected a number for width"),
        DamagedPNM("a letter after the maxval", "P5 4 4 255x", says: "expected a number for maxval"),
        DamagedPNM("a letter among P2 samples", "P2\n2 1\n255\n12 x\n",
                   says: "expected a number for sample"),
        DamagedPNM("no space after the magic", "P5-4 4 255\n", says: "malformed header"),
        DamagedPNM("a letter for the P4 height", "P4\n8 x\n", says: "expected a number for height"),
        DamagedPNM("a 2 among P1 pixels", "P1\n3 1\n0 2 1\n", says: "expected 0 or 1"),
        DamagedPNM("a letter among P1 pixels", "P1\n2 1\n1x", says: "expected 0 or 1"),
        DamagedPNM("a minus sign among P1 pixels", "P1\n2 1\n-1 0\n", says: "expected 0 or 1"),
        DamagedPNM("binary bits in a P1", "P1\n2 1\n", [0x01, 0xFF], says: "expected 0 or 1"),
    ]

    @Test("a damaged PNM is refused, saying why", arguments: damaged)
    func damagedFile(_ file: DamagedPNM) {
        #expect {
            try ImageDecoder().decode(file.bytes)
        } throws: { error in
            guard case .damaged("PNM", let reason)? = error as? RasterError else { return false }
            return reason.contains(file.says)
        }
    }

    @Test("P7 (PAM), which we do not read, is not mistaken for PNM")
    func arbitraryMap() {
        #expect(throws: RasterError.unknownFormat) {
            try decode("P7\nWIDTH 1\nHEIGHT 1\nDEPTH 1\nMAXVAL 1\nENDHDR\n")
        }
    }
}
