import Foundation
import Testing
import TestSupport
@testable import QRSealKit

/// BMP, GIF, TIFF, WebP, PDF and SVG, made at test time by real tools (ImageMagick's
/// `convert`, `rsvg-convert`) from a known pattern, read back by `ImageDecoder`.
@Suite("Raster: BMP, GIF, TIFF, WebP, PDF and SVG files")
struct RasterFileFormatTests {
    let dir = try! TempDir()
    let pattern = RasterFixtures.pattern

    /// The pattern drawn the other way round (its squares swapped left and right), for a
    /// second page or frame that must not be confused with the first.
    var mirrored: GrayImage {
        var image = pattern
        for y in 0..<image.height { for x in 0..<image.width { image[x, y] = pattern[image.width - 1 - x, y] } }
        return image
    }

    @Test("BMP as ImageMagick writes it: 24-bit, palette, RLE8, 1-bit and 32-bit with alpha",
          arguments: [(["-type", "truecolor"], "BMP3:"), (["-type", "palette"], "BMP3:"),
                      (["-type", "palette", "-compress", "RLE"], "BMP3:"), ([], "BMP:"),
                      (["-alpha", "on", "-type", "TrueColorAlpha"], "BMP:")])
    func bmp(arguments: [String], prefix: String) throws {
        let bytes = try dir.convert(pattern, arguments, output: prefix + "out.bmp")
        #expect(ImageDecoder.sniff(bytes) == .bmp)
        #expect(try ImageDecoder().decode(bytes) == pattern)
    }

    @Test("a 1-bit BMP and a top-down one read as the picture")
    func bmpBilevelAndTopDown() throws {
        let bilevel = RasterFixtures.bilevelPattern
        let mono = try dir.convert(bilevel, ["-monochrome"], output: "BMP3:mono.bmp")
        #expect(try ImageDecoder().decode(mono) == bilevel)
        // The same 24-bit file stored top row first: a negative height, the rows reversed.
        let bottomUp = try dir.convert(pattern, ["-type", "truecolor"], output: "BMP3:rgb.bmp")
        let offset = Int(bottomUp[10]) | Int(bottomUp[11]) << 8
        let stride = (pattern.width * 3 + 3) / 4 * 4
        var topDown = Array(bottomUp[..<offset])
        for row in (0..<pattern.height).reversed() {
            topDown += bottomUp[(offset + row * stride)..<(offset + (row + 1) * stride)]
        }
        let negative = withUnsafeBytes(of: Int32(-pattern.height).littleEndian, Array.init)
        topDown.replaceSubrange(22..<26, with: negative)
        #expect(try ImageDecoder().decode(topDown) == pattern)
    }

    @Test("every frame of a GIF, in order, named frame 1 and frame 2")
    func gifFrames() throws {
        let first = try dir.write("first.pgm", Data(RasterFixtures.pgm(pattern)))
        let second = try dir.write("second.pgm", Data(RasterFixtures.pgm(mirrored)))
        try runTool("convert", [first, second, dir.path("two.gif")])
        let pictures = try decodeAll(try dir.read("two.gif"))
        #expect(pictures.map(\.1) == [ImagePart(kind: .frame, number: 1), ImagePart(kind: .frame, number: 2)])
        #expect(pictures.map(\.0) == [pattern, mirrored])
        // A file of one picture names none.
        let one = try dir.convert(pattern, [], output: "one.gif")
        let single = try decodeAll(one)
        #expect(single.count == 1 && single[0].1 == nil && single[0].0 == pattern)
    }

    @Test("every page of a TIFF, compressed or not, named page 1 and page 2",
          arguments: ["None", "LZW", "Zip"])
    func tiffPages(compression: String) throws {
        let first = try dir.write("first.pgm", Data(RasterFixtures.pgm(pattern)))
        let second = try dir.write("second.pgm", Data(RasterFixtures.pgm(mirrored)))
        try runTool("convert", [first, second, "-compress", compression, dir.path("two.tiff")])
        let pictures = try decodeAll(try dir.read("two.tiff"))
        #expect(pictures.map(\.1) == [ImagePart(kind: .page, number: 1), ImagePart(kind: .page, number: 2)])
        #expect(pictures.map(\.0) == [pattern, mirrored])
    }

    @Test("a lossless WebP reads exactly, a lossy one close to the picture")
    func webp() throws {
        let lossless = try dir.convert(pattern, ["-define", "webp:lossless=true"], output: "lossless.webp")
        #expect(ImageDecoder.sniff(lossless) == .webp)
        #expect(try ImageDecoder().decode(lossless) == pattern)
        let lossy = try dir.convert(pattern, ["-quality", "90"], output: "lossy.webp")
        let image = try ImageDecoder().decode(lossy)
        #expect(maxDifference(image, pattern) < 40)
    }

    /// The pattern as SVG: a white page of its size, its two squares as rectangles.
    var svg: String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!-- a comment before the element -->
        <svg xmlns="http://www.w3.org/2000/svg" width="32" height="24" viewBox="0 0 32 24">
          <rect x="0" y="0" width="32" height="24" fill="#fff"/>
          <rect x="2" y="2" width="8" height="8" fill="#000"/>
          <rect x="24" y="16" width="6" height="6" fill="#808080"/>
        </svg>
        """
    }

    @Test("an SVG is drawn large enough to read, its shapes where they are")
    func svgDrawn() throws {
        let bytes = Array(svg.utf8)
        #expect(ImageDecoder.sniff(bytes) == .svg)
        let image = try ImageDecoder().decode(bytes)
        // 32 × 24 units drawn with its longer side at 2048 pixels: 64 pixels a unit.
        #expect(image.width == 2048 && image.height == 1536)
        #expect(image[6 * 64, 6 * 64] == 0 && image[20 * 64, 6 * 64] == 255)
        #expect(abs(Int(image[27 * 64, 19 * 64]) - 128) <= 2)
    }

    @Test("every page of a PDF (rsvg-convert's) is drawn at 300 dpi")
    func pdfPages() throws {
        let svgPath = try dir.write("page.svg", Data(svg.utf8))
        try runTool("rsvg-convert", ["-f", "pdf", "-o", dir.path("two.pdf"), svgPath, svgPath])
        let pictures = try decodeAll(try dir.read("two.pdf"))
        #expect(pictures.map(\.1) == [ImagePart(kind: .page, number: 1), ImagePart(kind: .page, number: 2)])
        // rsvg-convert takes 32 × 24 CSS pixels (96 a inch) as a page of 24 × 18 points:
        // at 300 dpi, 100 × 75 pixels, 3.125 a unit of the SVG.
        let image = pictures[0].0
        #expect(image.width == 100 && image.height == 75, "\(image.width)x\(image.height)")
        #expect(image[19, 19] < 10 && image[60, 19] > 245)
    }

    @Test("a PDF page that would pass the pixel limit is drawn smaller, within it")
    func pdfWithinLimit() throws {
        let svgPath = try dir.write("page.svg", Data(svg.utf8))
        try runTool("rsvg-convert", ["-f", "pdf", "-o", dir.path("one.pdf"), svgPath])
        let image = try ImageDecoder(maxPixels: 3000).decode(try dir.read("one.pdf"))
        #expect(image.width * image.height <= 3000 && image.width >= 60, "\(image.width)x\(image.height)")
    }

    @Test("qrseal's own animated GIF (every frame) and PDF sheet read back as their codes")
    func ownOutputs() throws {
        let (message, payloads) = RenderFixtures.message(2, version: 3)
        let detector = Detector()
        let gif = try AnimatedGIF.encode(message, scale: 4, margin: 4, fps: 2)
        let pdf = try Sheet(message, paper: .a4, name: "two").pdf()
        for bytes in [gif, pdf] {
            var texts: [String] = []
            try ImageDecoder().decodeEach(bytes) { image, _ in
                texts += detector.detect(in: image).compactMap(\.text)
            }
            #expect(texts.sorted() == payloads.sorted(), "\(ImageDecoder.sniff(bytes)?.rawValue ?? "?")")
        }
    }

    // MARK: hostile input

    /// One small valid file of each format made here, by name.
    func samples() throws -> [(ImageDecoder.Format, [UInt8])] {
        let svgPath = try dir.write("s.svg", Data(svg.utf8))
        try runTool("rsvg-convert", ["-f", "pdf", "-o", dir.path("s.pdf"), svgPath])
        return [
            (.bmp, try dir.convert(pattern, ["-type", "palette", "-compress", "RLE"], output: "BMP3:s.bmp")),
            (.gif, try dir.convert(pattern, [], output: "s.gif")),
            (.tiff, try dir.convert(pattern, ["-compress", "LZW"], output: "s.tiff")),
            (.webp, try dir.convert(pattern, ["-quality", "80"], output: "s.webp")),
            (.pdf, try dir.read("s.pdf")),
            (.svg, Array(svg.utf8)),
        ]
    }

    @Test("a truncated file of each format is refused as damaged, naming its format")
    func truncated() throws {
        for (format, bytes) in try samples() {
            for cut in [bytes.count / 2, bytes.count * 9 / 10] {
                var named: String?
                do { _ = try decodeAll(Array(bytes.prefix(cut))) } catch {
                    if case .damaged(let format, _)? = error as? RasterError { named = format }
                }
                #expect(named == format.rawValue, "\(format) cut at \(cut) of \(bytes.count)")
            }
        }
    }

    @Test("a file of each format larger than the pixel limit is refused before it is decoded")
    func oversized() throws {
        for (format, bytes) in try samples() where format != .pdf && format != .svg {
            #expect(throws: RasterError.tooLarge(width: 32, height: 24, limit: 700), "\(format)") {
                try ImageDecoder(maxPixels: 700).decode(bytes)
            }
        }
    }

    @Test("a file of more pages or frames than maxPictures is refused")
    func tooManyPictures() throws {
        let first = try dir.write("first.pgm", Data(RasterFixtures.pgm(pattern)))
        try runTool("convert", [first, first, first, dir.path("three.tiff")])
        #expect(throws: RasterError.tooManyPictures(format: "TIFF", limit: 2)) {
            try ImageDecoder(maxPictures: 2).decodeEach(try dir.read("three.tiff")) { _, _ in }
        }
        // decode takes the first page of a file of any length.
        #expect(try ImageDecoder(maxPictures: 2).decode(try dir.read("three.tiff")) == pattern)
    }

    @Test("a GIF whose image block gives no frame is damaged, not a file of no pictures (a fuzzing find)")
    func gifWithoutAFrame() throws {
        // Fuzz/regressions/pictures/gif-no-frame: a header, extension blocks, then an image
        // block giflib reads no frame from.
        let bytes = [UInt8](try #require(Data(base64Encoded: "R0lGODlhHQAdAPABAAAAAP///yH5BAAAAAAAIf8LTkVUU0NBUEUyLjADAQAAACH/C0ltYWdlTWFnaWMOZ2FrbW1hYWdpY2sOZ2FtbWE9MC40NTQ1NDUALAAAAAAdAB0AAAI9hI+py+0ZogxvSmRjzZi7TB3gZnXl597ceqopsz7yTNf2jef6zvf+D/zFckMJAAAAAAAAAFzxdrQla0taMwilFQAAOw==")))
        var handed = 0
        #expect(throws: RasterError.damaged(format: "GIF", reason: "no picture in it")) {
            try ImageDecoder().decodeEach(bytes) { _, _ in handed += 1 }
        }
        #expect(handed == 0)
        #expect(throws: RasterError.self) { try ImageDecoder().decode(bytes) }
    }

    @Test("bytes damaged after a valid header give an error or a picture, never a crash or a hang", arguments: 1...6)
    func damagedBody(seed: Int) throws {
        for (format, bytes) in try samples() {
            var damaged = bytes
            var state = UInt64(seed) &* 0x9E37_79B9_7F4A_7C15
            for _ in 0..<max(4, bytes.count / 50) {
                state = state &* 6_364_136_223_846_793_005 &+ 1
                let index = 16 + Int(state >> 33) % max(1, bytes.count - 16)
                damaged[index] = UInt8(truncatingIfNeeded: state >> 20)
            }
            do {
                try ImageDecoder(maxPixels: 1 << 20).decodeEach(damaged) { image, _ in
                    #expect(image.width * image.height <= 1 << 20, "\(format)")
                }
            } catch {
                #expect(!error.description.isEmpty, "\(format)")
            }
        }
    }

    @Test("an SVG that names files to include loads none of them")
    func svgLoadsNothing() throws {
        let secret = try dir.write("secret.png", Data(try PNGEncoder.encode(GrayImage(width: 32, height: 24, filledWith: 0))))
        let text = """
        <svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="32" height="24">
          <image x="0" y="0" width="32" height="24" xlink:href="file://\(secret)"/>
          <image x="0" y="0" width="32" height="24" href="\(secret)"/>
        </svg>
        """
        let image = try ImageDecoder().decode(Array(text.utf8))
        #expect(image.pixels.allSatisfy { $0 == 255 })
    }

    /// Every picture of `bytes` with its part.
    private func decodeAll(_ bytes: [UInt8]) throws -> [(GrayImage, ImagePart?)] {
        var pictures: [(GrayImage, ImagePart?)] = []
        try ImageDecoder().decodeEach(bytes) { pictures.append(($0, $1)) }
        return pictures
    }

    private func maxDifference(_ a: GrayImage, _ b: GrayImage) -> Int {
        zip(a.pixels, b.pixels).map { abs(Int($0) - Int($1)) }.max() ?? 0
    }
}
