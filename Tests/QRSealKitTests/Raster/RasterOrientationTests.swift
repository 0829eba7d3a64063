import Foundation
import Testing
import TestSupport
@testable import QRSealKit

@Suite("Raster: EXIF orientation")
struct RasterOrientationTests {
    // 1 2 3
    // 4 5 6
    static let small = GrayImage(width: 3, height: 2, pixels: [1, 2, 3, 4, 5, 6])

    @Test("each orientation turns the image as the EXIF specification draws it",
          arguments: [
              (ExifOrientation.up, 3, [1, 2, 3, 4, 5, 6] as [UInt8]),
              (.upMirrored, 3, [3, 2, 1, 6, 5, 4]),
              (.down, 3, [6, 5, 4, 3, 2, 1]),
              (.downMirrored, 3, [4, 5, 6, 1, 2, 3]),
              (.leftMirrored, 2, [1, 4, 2, 5, 3, 6]),
              (.right, 2, [4, 1, 5, 2, 6, 3]),
              (.rightMirrored, 2, [6, 3, 5, 2, 4, 1]),
              (.left, 2, [3, 6, 2, 5, 1, 4]),
          ])
    func transform(orientation: ExifOrientation, width: Int, pixels: [UInt8]) {
        let turned = Self.small.applying(orientation)
        #expect(turned == GrayImage(width: width, height: 6 / width, pixels: pixels))
    }

    @Test("a JPEG's EXIF orientation is applied the way ImageMagick's -auto-orient applies it",
          arguments: ExifOrientation.allCases, [false, true])
    func jpegIsTurnedUpright(orientation: ExifOrientation, bigEndian: Bool) throws {
        let dir = try TempDir()
        let plain = try dir.convert(RasterFixtures.pattern, ["-quality", "95"], output: "plain.jpg")
        let tagged = insertingExif(orientationTIFF(orientation.rawValue, bigEndian: bigEndian), into: plain)
        let path = try dir.write("tagged.jpg", Data(tagged))
        try runTool("convert", [path, "-auto-orient", dir.path("upright.pgm")])
        let reference = try ImageDecoder().decode(try dir.read("upright.pgm"))

        let image = try ImageDecoder().decode(tagged)
        #expect(difference(image, reference, tolerance: 1) == nil)

        // The black square starts at the top left; say where a person should see it.
        let swaps = orientation.rawValue >= 5
        #expect(image.width == (swaps ? 24 : 32) && image.height == (swaps ? 32 : 24))
        let right = [.upMirrored, .down, .right, .rightMirrored].contains(orientation)
        let bottom = [.down, .downMirrored, .rightMirrored, .left].contains(orientation)
        let x = right ? image.width - 8 ..< image.width - 4 : 4..<8
        let y = bottom ? image.height - 8 ..< image.height - 4 : 4..<8
        #expect(mean(image, x: x, y: y) < 10, "black square in the expected corner")
    }

    @Test("a JPEG whose EXIF cannot be read still decodes, unturned")
    func unreadableExifIsIgnored() throws {
        let dir = try TempDir()
        let plain = try dir.convert(RasterFixtures.pattern, ["-quality", "95"], output: "plain.jpg")
        var tiff = orientationTIFF(6, bigEndian: false)
        tiff[4] = 0xF0  // IFD0 offset now points far past the segment
        let image = try ImageDecoder().decode(insertingExif(tiff, into: plain))
        #expect(image.width == 32 && image.height == 24)
    }

    @Test("the parser reads both byte orders and all eight values")
    func parsesValidTIFF() {
        for bigEndian in [false, true] {
            for orientation in ExifOrientation.allCases {
                let tiff = orientationTIFF(orientation.rawValue, bigEndian: bigEndian)
                #expect(ExifOrientation(tiff: tiff[...]) == orientation)
            }
        }
    }

    @Test("the parser finds the tag among other IFD0 entries and accepts a LONG value")
    func parsesAmongOtherEntries() {
        // II, IFD0 at 8 with two entries: ImageWidth (SHORT 100), Orientation (LONG 8).
        let tiff: [UInt8] = [0x49, 0x49, 42, 0, 8, 0, 0, 0, 2, 0,
                             0x00, 0x01, 3, 0, 1, 0, 0, 0, 100, 0, 0, 0,
                             0x12, 0x01, 4, 0, 1, 0, 0, 0, 8, 0, 0, 0,
                             0, 0, 0, 0]
        #expect(ExifOrientation(tiff: tiff[...]) == .left)
    }

    @Test("every prefix of a valid TIFF gives nil or the right value, never a trap")
    func truncatedTIFF() {
        let tiff = orientationTIFF(6, bigEndian: true)
        for length in 0..<tiff.count {
            let result = ExifOrientation(tiff: tiff.prefix(length))
            #expect(result == nil || result == .right)
        }
        #expect(ExifOrientation(tiff: tiff.prefix(19)) == nil, "value field cut")
    }

    @Test("hostile offsets and values give nil", arguments: [
        ("IFD0 offset past the end", 4, [0xFF, 0xFF, 0xFF, 0xFF] as [UInt8]),
        ("IFD0 offset into the header", 4, [0, 0, 0, 2]),
        ("entry count far beyond the data", 8, [0xFF, 0xFF]),
        ("orientation 0", 18, [0, 0]),
        ("orientation 9", 18, [0, 9]),
        ("ASCII type", 12, [0, 2]),
        ("zero count", 14, [0, 0, 0, 0]),
        ("bad byte order", 0, [0x4D, 0x49]),
        ("not 42", 2, [0, 43]),
    ])
    func hostileTIFF(_ name: String, at offset: Int, bytes: [UInt8]) {
        var tiff = orientationTIFF(6, bigEndian: true)
        tiff.replaceSubrange(offset..<offset + bytes.count, with: bytes)
        #expect(ExifOrientation(tiff: tiff[...]) == nil, "\(name)")
    }

    @Test("an IFD chain that loops back on itself is read once and ends")
    func loopingChain() {
        // The next-IFD pointer after the entry points back at IFD0; only IFD0 is read.
        var tiff = orientationTIFF(3, bigEndian: true)
        tiff.replaceSubrange(22..<26, with: [0, 0, 0, 8])
        #expect(ExifOrientation(tiff: tiff[...]) == .down)
        // IFD0 without the tag whose chain loops: nothing found, and no hang.
        tiff.replaceSubrange(10..<12, with: [0x01, 0x00])
        #expect(ExifOrientation(tiff: tiff[...]) == nil)
    }

    @Test("the JPEG segment walker stops at lengths that lie")
    func hostileJPEGSegments() {
        let soi: [UInt8] = [0xFF, 0xD8]
        let exif = Array("Exif".utf8) + [0, 0] + orientationTIFF(6, bigEndian: false)
        let honest = soi + [0xFF, 0xE1, 0, UInt8(exif.count + 2)] + exif + [0xFF, 0xD9]
        #expect(ExifOrientation(jpeg: honest) == .right)
        // Claims more bytes than exist.
        #expect(ExifOrientation(jpeg: soi + [0xFF, 0xE1, 0xFF, 0xFF] + exif) == nil)
        // Lengths below two cannot even cover themselves.
        #expect(ExifOrientation(jpeg: soi + [0xFF, 0xE1, 0, 1] + exif) == nil)
        #expect(ExifOrientation(jpeg: soi + [0xFF, 0xE0, 0, 0] + exif) == nil)
        // EXIF after the start of scan is pixel data, not metadata.
        #expect(ExifOrientation(jpeg: soi + [0xFF, 0xDA, 0, 2] + honest.dropFirst(2)) == nil)
        // A marker byte that is not preceded by 0xFF ends the walk.
        #expect(ExifOrientation(jpeg: soi + [0x00, 0xE1, 0, 2]) == nil)
        #expect(ExifOrientation(jpeg: soi) == nil)
        #expect(ExifOrientation(jpeg: []) == nil)
    }

    @Test("random bytes never make the parser trap", arguments: 0..<32)
    func randomBytes(seed: Int) {
        let noise = pseudoRandomBytes(count: 96, seed: UInt64(seed) &* 7919)
        for header: [UInt8] in [[0x49, 0x49, 42, 0], [0x4D, 0x4D, 0, 42]] {
            // Small IFD0 offsets so the noise is read as entries, not skipped.
            let tiff = header + [0, 0, 0, UInt8(8 + seed % 8)].reversedIf(header[0] == 0x49) + noise
            _ = ExifOrientation(tiff: tiff[...])
        }
        _ = ExifOrientation(jpeg: [0xFF, 0xD8] + noise)
        _ = ExifOrientation(jpeg: [0xFF, 0xD8, 0xFF, 0xE1, 0, 80] + Array("Exif".utf8) + [0, 0] + noise)
    }
}

private extension Array {
    func reversedIf(_ condition: Bool) -> [Element] { condition ? reversed() : self }
}
