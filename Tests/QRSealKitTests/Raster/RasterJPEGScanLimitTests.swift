import Testing
import TestSupport
@testable import QRSealKit

/// A progressive JPEG can repeat scans without end, each one a full pass over the image:
/// 490 of them once took a minute to decode.
@Suite("Raster: JPEG scan limit")
struct RasterJPEGScanLimitTests {
    /// The pattern as a progressive gray JPEG with its last scan repeated until it has `scans`.
    private func progressive(scans: Int) throws -> [UInt8] {
        let bytes = try TempDir().convert(RasterFixtures.pattern, ["-quality", "95", "-type", "Grayscale",
                                                                   "-interlace", "JPEG"], output: "p.jpg")
        let segments = Array(JPEGSegments(bytes))
        let sos = segments.filter { $0.marker == JPEGSegments.startOfScan }
        let eoi = try #require(segments.last { $0.marker == JPEGSegments.endOfImage })
        let lastScanStart = try #require(sos.last).payload.lowerBound - 4
        let eoiStart = eoi.payload.lowerBound - 2
        let lastScan = bytes[lastScanStart..<eoiStart]
        #expect(sos.count > 1 && sos.count <= scans)
        return Array(bytes[..<eoiStart]) + Array(repeating: lastScan, count: scans - sos.count).joined()
            + [0xFF, JPEGSegments.endOfImage]
    }

    @Test("more scans than the limit are refused by count, before decoding", arguments: [101, 490])
    func refused(scans: Int) throws {
        let bytes = try progressive(scans: scans)
        #expect(throws: RasterError.tooManyScans(count: scans, limit: 100)) { try ImageDecoder().decode(bytes) }
        #expect(throws: RasterError.tooManyScans(count: scans, limit: 100)) { try ImageDecoder().decodeColor(bytes) }
        #expect(RasterError.tooManyScans(count: scans, limit: 100).description
                == "JPEG image has \(scans) scans, more than the 100 this reader decodes")
    }

    @Test("a progressive JPEG of up to the limit is decoded")
    func atLimit() throws {
        let image = try ImageDecoder().decode(try progressive(scans: ImageDecoder.maxScans))
        #expect(image.width == 32 && image.height == 24)
    }

    @Test("the segment walk skips entropy-coded data: stuffed 0xFF 0x00 and restart markers are not markers")
    func walk() {
        let bytes: [UInt8] = [0xFF, 0xD8,
                              0xFF, 0xDA, 0x00, 0x03, 0x01, 0x12, 0xFF, 0x00, 0x34, 0xFF, 0xD0, 0x56,
                              0xFF, 0xFF, 0xDA, 0x00, 0x02, 0x78,
                              0xFF, 0xD9]
        #expect(JPEGSegments(bytes).map(\.marker) == [0xDA, 0xDA, 0xD9])
        // A length running past the end stops the walk.
        #expect(JPEGSegments([0xFF, 0xD8, 0xFF, 0xE1, 0x40, 0x00, 0x00]).map(\.marker) == [])
    }
}
