import Foundation
import Testing
import TestSupport
@testable import QRSealKit

/// The copies the detector's passes make, and the colour image behind --annotate.
@Suite("Raster: filters, scaling and colour")
struct RasterFilterTests {
    let pattern = RasterFixtures.pattern

    @Test("scaling keeps proportions, averages when shrinking and stays in range when growing")
    func scaling() throws {
        let half = try #require(pattern.scaled(by: 0.5))
        #expect(half.width == 16 && half.height == 12)
        // The black 8×8 square at (2, 2) covers (1, 1) to (5, 5) at half size.
        #expect(half[2, 2] == 0 && half[8, 4] == 255)
        let double = try #require(pattern.scaled(by: 2))
        #expect(double.width == 64 && double.height == 48 && double[10, 10] == 0 && double[40, 10] == 255)
        #expect(pattern.scaled(by: 0) == nil && pattern.scaled(by: .infinity) == nil)
        #expect(pattern.scaled(by: 0.001) == nil)
        #expect(pattern.scaled(by: 1000, maxPixels: 1_000_000) == nil)
        let blocks = try #require(pattern.enlarged(by: 3))
        #expect(blocks.width == 96 && blocks[6, 6] == 0 && blocks[5, 5] == 255 && blocks[6, 5] == 255)
    }

    @Test("padding, cropping and inverting")
    func geometry() throws {
        let padded = pattern.padded(by: 5, value: 200)
        #expect(padded.width == 42 && padded.height == 34 && padded[0, 0] == 200 && padded[7, 7] == 0)
        let crop = try #require(pattern.cropped(x: 24, y: 16, width: 100, height: 100))
        #expect(crop.width == 8 && crop.height == 8 && crop[0, 0] == 128)
        #expect(pattern.cropped(x: 40, y: 0, width: 5, height: 5) == nil)
        #expect(pattern.inverted()[3, 3] == 255 && pattern.inverted().inverted() == pattern)
    }

    @Test("stretching, blurring, sharpening and thresholding keep size and order of tones")
    func tones() {
        var dim = pattern
        dim.pixels = dim.pixels.map { 100 + $0 / 8 }  // 100…131
        let stretched = dim.contrastStretched()
        #expect(stretched[3, 3] == 0 && stretched[0, 0] == 255)
        // Darkening keeps black and white and spreads the light levels: 200 and 240 grow apart.
        let dark = GrayImage(width: 4, height: 1, pixels: [0, 200, 240, 255]).darkened(gamma: 2)
        #expect(dark.pixels == [0, 157, 226, 255])
        let blurred = pattern.boxBlurred(radius: 2)
        #expect(blurred[0, 23] == 255 && blurred[6, 6] == 0 && blurred[10, 6] > 0 && blurred[10, 6] < 255)
        // Just outside the blurred edge the unsharp mask lightens, just inside it darkens.
        let sharp = blurred.sharpened(radius: 2, amount: 2)
        #expect(sharp[11, 6] > blurred[11, 6] && sharp[8, 6] < blurred[8, 6] && sharp[6, 6] == 0)
        // Dark gray on a lighter gradient: a global threshold would fail, a local one does not.
        var shaded = GrayImage(width: 64, height: 16, filledWith: 0)
        for y in 0..<16 { for x in 0..<64 { shaded[x, y] = UInt8(100 + 2 * x) - (x % 16 < 4 ? 60 : 0) } }
        let binary = shaded.adaptiveThreshold(radius: 6)
        #expect(binary[1, 8] == 0 && binary[49, 8] == 0 && binary[10, 8] == 255 && binary[60, 8] == 255)
        #expect(pattern.morphed(radius: 1, keepDarkest: true)[1, 1] == 0)
        #expect(pattern.morphed(radius: 1, keepDarkest: false)[2, 2] == 255)
    }

    @Test("blurring and thresholding give the same pixels as summing each window one pixel at a time")
    func windowsMatchReference() {
        // A fixed seed, so that a failure can be reproduced.
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func nextByte() -> UInt8 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
        // Sizes narrower, shorter and wider than the windows, odd and one pixel thin.
        for (width, height) in [(1, 1), (1, 9), (13, 1), (7, 5), (31, 17), (64, 3), (97, 41)] {
            var image = GrayImage(width: width, height: height, filledWith: 0)
            image.pixels = image.pixels.map { _ in nextByte() }
            for radius in [1, 2, 3, 7, 50] {
                let (means, dark) = referenceWindows(image, radius: radius)
                #expect(image.boxBlurred(radius: radius).pixels == means, "blur \(width)×\(height) r\(radius)")
                for offset in [4, 0, -9, 60] {
                    let expected = dark(offset)
                    #expect(image.adaptiveThreshold(radius: radius, offset: offset).pixels == expected,
                            "threshold \(width)×\(height) r\(radius) offset \(offset)")
                }
                // An offset this large takes the 64-bit path: nothing is below the mean by it.
                #expect(image.adaptiveThreshold(radius: radius, offset: 1 << 40).pixels == dark(1 << 40))
                #expect(image.adaptiveThreshold(radius: radius, offset: -(1 << 40)).pixels == dark(-(1 << 40)))
            }
        }
    }

    /// The rounded mean of each pixel's clipped window, and a function giving the
    /// thresholded image for an offset, computed by visiting every pixel of every window.
    private func referenceWindows(_ image: GrayImage, radius r: Int) -> ([UInt8], (Int) -> [UInt8]) {
        let (w, h) = (image.width, image.height)
        var totals = [Int](repeating: 0, count: w * h), counts = totals
        for y in 0..<h {
            for x in 0..<w {
                for wy in max(0, y - r)...min(h - 1, y + r) {
                    for wx in max(0, x - r)...min(w - 1, x + r) {
                        totals[y * w + x] += Int(image[wx, wy])
                        counts[y * w + x] += 1
                    }
                }
            }
        }
        let means = (0..<(w * h)).map { UInt8((totals[$0] + counts[$0] / 2) / counts[$0]) }
        let dark = { (offset: Int) in
            (0..<(w * h)).map { i -> UInt8 in
                Int(image.pixels[i]) * counts[i] < totals[i] - offset * counts[i] ? 0 : 255
            }
        }
        return (means, dark)
    }

    @Test("an RGB image round-trips through PNG and decodeColor, in colour")
    func rgbPNG() throws {
        var image = RGBImage(pattern)
        image.drawLine(from: (0, 0), to: (31, 23), color: .green, thickness: 2)
        image.drawLabel("1 QR-Code: hi", x: 0, y: 0, color: .white, background: .green)
        image.set(-1, 100, .black)  // outside: ignored
        let png = try PNGEncoder.encode(image)
        let back = try ImageDecoder().decodeColor(png)
        #expect(back == image)
        #expect(back[31, 23] == .green)
        // The gray decoder reads the same file at the same size.
        let gray = try ImageDecoder().decode(png)
        #expect(gray.width == 32 && gray.height == 24)
        #expect(throws: RasterError.self) { try PNGEncoder.encode(RGBImage(width: 0, height: 0, samples: [])) }
    }

    @Test("decodeColor keeps a JPEG's colour and EXIF orientation, like decode", .enabled(if: Tools.which("convert") != nil))
    func colorJPEG() throws {
        let dir = try TempDir()
        // A colour image made of the grey pattern: ImageMagick 6.9.11 (Debian's deb12u16)
        // keeps a grey input grey, red and all, unless told.
        let plain = try dir.convert(pattern, ["-colorspace", "sRGB", "-type", "TrueColor", "-fill", "red",
                                              "-draw", "rectangle 20,2 28,8", "-quality", "95"],
                                    output: "red.jpg")
        let bytes = insertingExif(orientationTIFF(ExifOrientation.right.rawValue, bigEndian: false), into: plain)
        let color = try ImageDecoder().decodeColor(bytes)
        let gray = try ImageDecoder().decode(bytes)
        #expect(color.width == gray.width && color.height == gray.height)
        #expect(color.width == 24 && color.height == 32)
        let reds = (0..<(color.width * color.height)).filter { i in
            color.samples[3 * i] > 180 && color.samples[3 * i + 1] < 90 && color.samples[3 * i + 2] < 90
        }
        #expect(!reds.isEmpty)
        #expect(throws: RasterError.empty) { try ImageDecoder().decodeColor([]) }
        #expect(throws: RasterError.self) { try ImageDecoder(maxPixels: 10).decodeColor(bytes) }
    }
}
