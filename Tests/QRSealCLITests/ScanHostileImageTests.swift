import Foundation
import QRSealKit
import Testing
import TestSupport

/// Images of a few kilobytes at most that once asked for gigabytes (or terabytes) of memory,
/// read by the real binary with its peak memory measured.
@Suite("scan: tiny files of absurd shape")
struct ScanHostileImageTests {
    let dir = try! TempDir()

    static let thinPNGs: [(Int, Int)] = [(100_000, 1), (1_000_000, 1), (100_000, 30)]

    @Test("a long thin PNG: nothing found, exit 1, small memory", arguments: thinPNGs)
    func thinPNG(size: (Int, Int)) throws {
        let png = try PNGEncoder.encode(GrayImage(width: size.0, height: size.1, filledWith: 255))
        try expectNothingFound(in: dir.write("thin.png", Data(png)))
    }

    @Test("a 4000000x1 PGM: nothing found, exit 1, small memory")
    func thinPGM() throws {
        var pgm = Data("P5\n4000000 1\n255\n".utf8)
        pgm.append(Data(repeating: 255, count: 4_000_000))
        try expectNothingFound(in: dir.write("thin.pgm", pgm))
    }

    @Test("a 1x65500 JPEG: nothing found, exit 1, small memory")
    func tallJPEG() throws {
        try expectNothingFound(in: Tools.packageRoot.appendingPathComponent("Tests/Images/hostile/tall-1x65500.jpg").path)
    }

    @Test("--max-pixels holds the copies too: a code whose padded copy would pass it is still read as it is")
    func maxPixelsBoundsCopies() throws {
        let matrix = try QREncoder().encode(.text("held to the limit"))
        let image = matrix.image(scale: 4, margin: 4)
        let path = try dir.write("code.png", Data(try PNGEncoder.encode(image)))
        let r = qrseal(["scan", "--no-store", "--raw", "--max-pixels", "\(image.width * image.height)", path])
        #expect(r.status == 0 && r.out == "held to the limit\n", "\(r.stderr)")
    }

    private func expectNothingFound(in path: String) throws {
        let r = try Tools.runMeasured(Tools.qrseal, ["scan", "--no-store", path])
        #expect(r.status == 1, "\(r.stderr)")
        #expect(!r.stderr.contains("Fatal error"))
        #expect(r.peakBytes < 256 << 20, "peak \(r.peakBytes >> 20) MiB")
    }
}
