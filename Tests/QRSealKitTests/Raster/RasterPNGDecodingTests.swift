import Testing
import TestSupport
@testable import QRSealKit

/// A PNG variant produced by ImageMagick from a known pattern.
struct PNGVariant: CustomTestStringConvertible, Sendable {
    let name: String
    /// Made from the black-and-white pattern rather than the one with a gray square.
    var bilevel = false
    let arguments: [String]
    /// A phrase `file` must print for the fixture, proving it is the variant we mean.
    let fileSays: String
    /// How far a decoded pixel may stray from the pattern (16-bit goes through a rescale).
    var tolerance = 0
    var testDescription: String { name }
}

@Suite("Raster: decoding PNG")
struct RasterPNGDecodingTests {
    static let variants: [PNGVariant] = [
        PNGVariant(name: "8-bit gray",
                   arguments: ["-define", "png:color-type=0", "-define", "png:bit-depth=8"],
                   fileSays: "8-bit grayscale, non-interlaced"),
        PNGVariant(name: "1-bit gray", bilevel: true,
                   arguments: ["-define", "png:color-type=0", "-define", "png:bit-depth=1"],
                   fileSays: "1-bit grayscale"),
        PNGVariant(name: "RGB", arguments: ["-define", "png:color-type=2"], fileSays: "8-bit/color RGB,"),
        PNGVariant(name: "2-bit palette", arguments: ["-define", "png:color-type=3"],
                   fileSays: "2-bit colormap"),
        PNGVariant(name: "8-bit palette", arguments: [], fileSays: "8-bit colormap"),
        PNGVariant(name: "16-bit gray", arguments: ["-depth", "16", "-define", "png:bit-depth=16"],
                   fileSays: "16-bit grayscale", tolerance: 1),
        PNGVariant(name: "Adam7 interlaced", arguments: ["-interlace", "PNG"], fileSays: "interlaced"),
    ]

    @Test("every PNG variant decodes to the pattern it was made from", arguments: variants)
    func variantDecodesToPattern(_ variant: PNGVariant) throws {
        let dir = try TempDir()
        let pattern = variant.bilevel ? RasterFixtures.bilevelPattern : RasterFixtures.pattern
        let output = variant.name == "8-bit palette" ? "PNG8:out.png" : "out.png"
        let bytes = try dir.convert(pattern, variant.arguments, output: output)
        #expect(try dir.describe("out.png").contains(variant.fileSays))

        let image = try ImageDecoder().decode(bytes)
        #expect(image.width == 32 && image.height == 24)
        #expect(image[2, 2] == 0 && image[9, 9] == 0, "black square stays black")
        #expect(image[0, 0] == 255 && image[31, 0] == 255 && image[10, 10] == 255, "background stays white")
        #expect(difference(image, pattern, tolerance: variant.tolerance) == nil)
    }

    @Test("transparent areas of RGBA, gray+alpha and palette+tRNS files read as white",
          arguments: [(["-transparent", "black", "-define", "png:color-type=6"], "alpha.png", "RGBA"),
                      (["-transparent", "black", "-define", "png:color-type=4"], "alpha.png", "gray+alpha"),
                      (["-alpha", "set", "-transparent", "black"], "PNG8:alpha.png", "colormap")])
    func transparencyBecomesWhite(arguments: [String], output: String, fileSays: String) throws {
        let dir = try TempDir()
        // The black square becomes fully transparent; a reader compositing onto black
        // would leave it black and invent a finder-pattern-like blob.
        let bytes = try dir.convert(RasterFixtures.pattern, arguments, output: output)
        #expect(try dir.describe("alpha.png").contains(fileSays))
        if fileSays == "colormap" {
            #expect(bytes.firstRange(of: Array("tRNS".utf8)) != nil, "palette carries transparency")
        }

        let image = try ImageDecoder().decode(bytes)
        #expect(mean(image, x: 2..<10, y: 2..<10) == 255)
        #expect(image[26, 18] == 128, "opaque gray keeps its value")
        #expect(image[0, 0] == 255)
    }

    @Test("a red PNG gives the same BT.601 gray as the same red in PPM")
    func colourReducesLikePPM() throws {
        let dir = try TempDir()
        try runTool("convert", ["-size", "4x4", "xc:#FF0000", "-define", "png:color-type=2",
                                dir.path("red.png")])
        let png = try ImageDecoder().decode(try dir.read("red.png"))
        let ppm = try ImageDecoder().decode(Array("P6\n1 1\n255\n".utf8) + [255, 0, 0])
        #expect(png.pixels.allSatisfy { $0 == 76 })
        #expect(ppm.pixels == [76])
    }

    @Test("a PNG declaring 100000x100000 pixels is refused before any allocation")
    func hugeDeclaredSizeIsTooLarge() {
        let bytes = ImageBytes.pngDeclaring(width: 100_000, height: 100_000)
        #expect(throws: RasterError.tooLarge(width: 100_000, height: 100_000,
                                             limit: ImageDecoder.defaultMaxPixels)) {
            try ImageDecoder().decode(bytes)
        }
    }

    @Test("without a pixel limit, a PNG needing a buffer past 4 GiB is still refused up front")
    func hugeWithoutLimitIsTooLarge() {
        let bytes = ImageBytes.pngDeclaring(width: 100_000, height: 100_000)
        #expect(throws: RasterError.tooLarge(width: 100_000, height: 100_000, limit: Int(UInt32.max))) {
            try ImageDecoder(maxPixels: .max).decode(bytes)
        }
    }

    @Test("a caller's lower pixel limit is honoured")
    func callerLimitIsHonoured() throws {
        let bytes = try PNGEncoder.encode(RasterFixtures.pattern)
        #expect(throws: RasterError.tooLarge(width: 32, height: 24, limit: 500)) {
            try ImageDecoder(maxPixels: 500).decode(bytes)
        }
    }

    @Test("a PNG cut short is reported as damaged, wherever the cut falls",
          arguments: [12, 30, 45, 0.6])
    func truncatedPNGIsDamaged(cut: Double) throws {
        let dir = try TempDir()
        // Noise compresses badly, so the pixel data spans many bytes to cut into.
        let noise = GrayImage(width: 64, height: 64, pixels: pseudoRandomBytes(count: 4096, seed: 7))
        let bytes = try dir.convert(noise, ["-define", "png:color-type=0"], output: "noise.png")
        let length = cut < 1 ? Int(Double(bytes.count) * cut) : Int(cut)
        #expect(throws: RasterError.damaged(format: "PNG", reason: "truncated")) {
            try ImageDecoder().decode(Array(bytes.prefix(length)))
        }
    }

    @Test("a PNG whose chunk checksum is wrong is reported as damaged")
    func badCRCIsDamaged() throws {
        var bytes = try PNGEncoder.encode(RasterFixtures.pattern)
        bytes[29] ^= 0xFF  // last byte of the IHDR CRC
        #expect {
            try ImageDecoder().decode(bytes)
        } throws: { error in
            if case .damaged("PNG", _)? = error as? RasterError { return true }
            return false
        }
    }

    @Test("an IHDR declaring zero width is reported as damaged")
    func zeroWidthIsRefused() {
        #expect(throws: RasterError.damaged(format: "PNG", reason: "invalid IHDR data")) {
            try ImageDecoder().decode(ImageBytes.pngDeclaring(width: 0, height: 10))
        }
    }
}
