import Foundation
import Testing
@testable import QRSealKit

/// A camera's frames in colour, for the desktop app's preview: each raw YUV layout's chroma
/// found where V4L2 puts it, a JPEG frame split into luma and chroma that join back to its
/// colours, and a buffer too short for its chroma left gray rather than read past.
@Suite("Capture: camera frames in colour")
struct CameraColorTests {
    /// Reads a 4×2 frame of `format` from `bytes`.
    static func frame(_ format: PixelFormat, _ bytes: [UInt8], width: Int = 4, height: Int = 2,
                      bytesPerLine: Int = 0) throws -> (GrayImage, Frame.Chroma?) {
        try bytes.withUnsafeBytes { try format.lumaAndChroma($0, width: width, height: height, bytesPerLine: bytesPerLine) }
    }

    @Test("YUYV and UYVY: one U and one V for each pair of pixels, on every row")
    func packed() throws {
        // Row 0: Y 10 20 30 40, pairs (U 1, V 2) and (U 3, V 4); row 1: Y 50…80, (5, 6), (7, 8).
        let yuyv: [UInt8] = [10, 1, 20, 2, 30, 3, 40, 4, 50, 5, 60, 6, 70, 7, 80, 8]
        let (gray, chroma) = try Self.frame(.yuyv, yuyv)
        #expect(gray.pixels == [10, 20, 30, 40, 50, 60, 70, 80])
        #expect(chroma == Frame.Chroma(width: 2, height: 2, cb: [1, 3, 5, 7], cr: [2, 4, 6, 8]))
        let uyvy: [UInt8] = [1, 10, 2, 20, 3, 30, 4, 40, 5, 50, 6, 60, 7, 70, 8, 80]
        let (gray2, chroma2) = try Self.frame(.uyvy, uyvy)
        #expect(gray2 == gray && chroma2 == chroma)
    }

    @Test("NV12 and NV21: interleaved pairs after the luma; YU12 and YV12: two planes in either order")
    func planar() throws {
        let luma: [UInt8] = [10, 20, 30, 40, 50, 60, 70, 80]
        let expected = Frame.Chroma(width: 2, height: 1, cb: [1, 3], cr: [2, 4])
        #expect(try Self.frame(.nv12, luma + [1, 2, 3, 4]).1 == expected)
        #expect(try Self.frame(.nv21, luma + [2, 1, 4, 3]).1 == expected)
        #expect(try Self.frame(.yu12, luma + [1, 3, 2, 4]).1 == expected)
        #expect(try Self.frame(.yv12, luma + [2, 4, 1, 3]).1 == expected)
    }

    @Test("a buffer holding the luma but not all its chroma gives a gray frame, not a read past its end")
    func shortChroma() throws {
        let luma: [UInt8] = [10, 20, 30, 40, 50, 60, 70, 80]
        for format in [PixelFormat.nv12, .nv21, .yu12, .yv12] {
            let (gray, chroma) = try Self.frame(format, luma + [1, 2, 3])
            #expect(gray.pixels == luma && chroma == nil, "\(format)")
        }
        #expect(throws: CaptureError.self) { try Self.frame(.yuyv, [10, 1, 20]) }
    }

    @Test("a JPEG frame's colours survive the split into luma and chroma and the preview's join")
    func jpeg() throws {
        // Red, green, blue and white pixels, split and joined again.
        let rgb = RGBImage(width: 4, height: 1, samples: [255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 255])
        let (gray, chroma) = PixelFormat.split(rgb)
        let joined = Frame(number: 1, time: 0, image: gray, chroma: chroma).rgb()
        for (a, b) in zip(joined, rgb.samples) { #expect(abs(Int(a) - Int(b)) <= 3, "\(joined) from \(rgb.samples)") }
        #expect(throws: CaptureError.self) { try Self.frame(.mjpeg, [0xFF, 0xD8, 0xFF, 0x00]) }
    }
}
