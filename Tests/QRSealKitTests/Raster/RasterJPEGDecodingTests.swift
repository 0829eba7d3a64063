import Testing
import TestSupport
@testable import QRSealKit

@Suite("Raster: decoding JPEG")
struct RasterJPEGDecodingTests {
    /// The pattern as a high-quality JPEG; `arguments` add to the `convert` call.
    private func jpeg(_ dir: TempDir, _ arguments: [String] = [],
                      image: GrayImage = RasterFixtures.pattern) throws -> [UInt8] {
        try dir.convert(image, ["-quality", "95"] + arguments, output: "out.jpg")
    }

    @Test("baseline and progressive JPEGs, gray and colour, decode to the pattern",
          arguments: [(["-type", "Grayscale"], "baseline"),
                      (["-type", "Grayscale", "-interlace", "JPEG"], "progressive"),
                      (["-type", "TrueColor", "-sampling-factor", "2x2"], "baseline"),
                      (["-type", "TrueColor", "-interlace", "JPEG"], "progressive")])
    func decodesToPattern(arguments: [String], fileSays: String) throws {
        let dir = try TempDir()
        let bytes = try jpeg(dir, arguments)
        #expect(try dir.describe("out.jpg").contains(fileSays))

        let image = try ImageDecoder().decode(bytes)
        #expect(image.width == 32 && image.height == 24)
        // JPEG is lossy: compare areas away from the edges, where ringing lives.
        #expect(mean(image, x: 4..<8, y: 4..<8) < 10, "black square stays black")
        #expect(abs(mean(image, x: 25..<29, y: 17..<21) - 128) < 8, "gray stays gray")
        #expect(mean(image, x: 14..<20, y: 12..<14) > 245, "background stays white")
    }

    @Test("the decoded pixels match what ImageMagick reads from the same file")
    func matchesImageMagick() throws {
        let dir = try TempDir()
        let noise = GrayImage(width: 40, height: 30, pixels: pseudoRandomBytes(count: 1200, seed: 3))
        let bytes = try jpeg(dir, image: noise)
        try runTool("convert", [dir.path("out.jpg"), dir.path("back.pgm")])
        let reference = try ImageDecoder().decode(try dir.read("back.pgm"))
        #expect(difference(try ImageDecoder().decode(bytes), reference, tolerance: 1) == nil)
    }

    @Test("a JPEG cut in its scan data is reported as truncated", arguments: [0.5, 0.8, 0.97])
    func truncatedScanIsReported(fraction: Double) throws {
        let dir = try TempDir()
        let noise = GrayImage(width: 64, height: 64, pixels: pseudoRandomBytes(count: 4096, seed: 11))
        let bytes = try jpeg(dir, image: noise)
        let cut = Array(bytes.prefix(Int(Double(bytes.count) * fraction)))
        #expect(throws: RasterError.damaged(format: "JPEG", reason: "truncated")) {
            try ImageDecoder().decode(cut)
        }
    }

    @Test("a progressive JPEG cut short is reported as truncated")
    func truncatedProgressiveIsReported() throws {
        let dir = try TempDir()
        let noise = GrayImage(width: 64, height: 64, pixels: pseudoRandomBytes(count: 4096, seed: 5))
        let bytes = try jpeg(dir, ["-interlace", "JPEG"], image: noise)
        #expect(throws: RasterError.damaged(format: "JPEG", reason: "truncated")) {
            try ImageDecoder().decode(Array(bytes.prefix(bytes.count * 2 / 3)))
        }
    }

    @Test("stray bytes between segments, common in camera files, do not stop decoding",
          arguments: [true, false])
    func extraneousBytesAreTolerated(beforeFrameHeader: Bool) throws {
        let dir = try TempDir()
        var bytes = try jpeg(dir)
        let sof = try #require(bytes.indices.dropLast().first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC0 })
        bytes.insert(contentsOf: [0x01, 0x02, 0x03, 0x04], at: beforeFrameHeader ? sof : bytes.count - 2)
        let image = try ImageDecoder().decode(bytes)
        #expect(mean(image, x: 4..<8, y: 4..<8) < 10)
        #expect(mean(image, x: 14..<20, y: 12..<14) > 245)
    }

    @Test("a JPEG that ends before its frame header says so", arguments: [3, 20])
    func endsBeforeFrameHeader(length: Int) throws {
        let dir = try TempDir()
        let bytes = try jpeg(dir)
        #expect(throws: RasterError.damaged(format: "JPEG", reason: "truncated before the frame header")) {
            try ImageDecoder().decode(Array(bytes.prefix(length)))
        }
    }

    @Test("a JPEG cut inside its tables is damaged", arguments: [120, 200])
    func truncatedHeaderIsDamaged(length: Int) throws {
        let dir = try TempDir()
        let bytes = try jpeg(dir)
        #expect {
            try ImageDecoder().decode(Array(bytes.prefix(length)))
        } throws: { error in
            guard case .damaged("JPEG", let reason)? = error as? RasterError else { return false }
            return !reason.isEmpty
        }
    }

    @Test("random bytes after a JPEG marker are damaged, never a crash", arguments: 1...8)
    func noiseAfterMarker(seed: Int) {
        let bytes = [0xFF, 0xD8, 0xFF] + pseudoRandomBytes(count: 2000, seed: UInt64(seed))
        #expect {
            try ImageDecoder().decode(bytes)
        } throws: { error in
            switch error as? RasterError {
            case .damaged("JPEG", _)?, .tooLarge?, .unsupported("JPEG", _)?: return true
            default: return false
            }
        }
    }

    @Test("a JPEG declaring more pixels than allowed is refused before decoding")
    func tooLarge() throws {
        let dir = try TempDir()
        let bytes = try jpeg(dir)
        #expect(throws: RasterError.tooLarge(width: 32, height: 24, limit: 100)) {
            try ImageDecoder(maxPixels: 100).decode(bytes)
        }
    }

    @Test("a CMYK JPEG is reported as unsupported")
    func cmykIsUnsupported() throws {
        let dir = try TempDir()
        let bytes = try jpeg(dir, ["-colorspace", "CMYK"])
        #expect(throws: RasterError.unsupported(format: "JPEG", reason: "CMYK colour")) {
            try ImageDecoder().decode(bytes)
        }
    }
}
