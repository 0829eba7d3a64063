import Foundation
import TestSupport
@testable import QRSealKit

/// Known patterns for the Raster tests, written as PGM by the test itself and converted with
/// ImageMagick `convert` (`TempDir.convert`) into the variant under test.
enum RasterFixtures {
    /// 32×24, white, with a black 8×8 square at the top left (x 2..<10, y 2..<10) and a
    /// mid-gray (128) 6×6 square at the bottom right (x 24..<30, y 16..<22).
    static let pattern: GrayImage = {
        var image = GrayImage(width: 32, height: 24, filledWith: 255)
        for y in 2..<10 { for x in 2..<10 { image[x, y] = 0 } }
        for y in 16..<22 { for x in 24..<30 { image[x, y] = 128 } }
        return image
    }()

    /// The pattern without its gray square: only 0 and 255.
    static let bilevelPattern: GrayImage = {
        var image = pattern
        for index in image.pixels.indices where image.pixels[index] == 128 { image.pixels[index] = 255 }
        return image
    }()

    /// `image` as binary PGM (P5) bytes.
    static func pgm(_ image: GrayImage) -> [UInt8] {
        Array("P5\n\(image.width) \(image.height)\n255\n".utf8) + image.pixels
    }
}

extension TempDir {
    /// The bytes of `name` in the folder.
    func read(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: url.appendingPathComponent(name)))
    }

    /// Writes `image` as PGM, runs `convert input.pgm <arguments> output` and returns the
    /// bytes of `output` (whose extension or `FORMAT:` prefix picks the format).
    func convert(_ image: GrayImage, _ arguments: [String], output: String) throws -> [UInt8] {
        let input = try write("input-\(UUID().uuidString).pgm", Data(RasterFixtures.pgm(image)))
        let parts = output.split(separator: ":", maxSplits: 1).map(String.init)
        let name = parts.last ?? output
        let prefix = parts.count == 2 ? parts[0] + ":" : ""
        try runTool("convert", [input] + arguments + [prefix + path(name)])
        return try read(name)
    }

    /// What `file` says about `name`, e.g. "PNG image data, 32 x 24, 1-bit grayscale, …".
    func describe(_ name: String) throws -> String {
        try runTool("file", ["-b", path(name)])
    }
}

/// Runs `tool` with `arguments` as `Tools.run` does, throwing unless it exits 0; returns
/// what it printed.
@discardableResult
func runTool(_ tool: String, _ arguments: [String]) throws -> String {
    let result = try Tools.run(tool, arguments)
    guard result.status == 0 else { throw ToolFailed(tool: tool, output: result.stderr) }
    return result.stdoutText
}

struct ToolFailed: Error, CustomStringConvertible {
    let tool: String
    let output: String
    var description: String { "\(tool) failed: \(output)" }
}

/// Where `a` and `b` first differ by more than `tolerance`, or nil when they match; short
/// enough to read in a failure message, unlike two dumps of every pixel.
func difference(_ a: GrayImage, _ b: GrayImage, tolerance: Int = 0) -> String? {
    guard a.width == b.width, a.height == b.height else {
        return "size \(a.width)x\(a.height) vs \(b.width)x\(b.height)"
    }
    for y in 0..<a.height {
        for x in 0..<a.width where abs(Int(a[x, y]) - Int(b[x, y])) > tolerance {
            return "pixel (\(x), \(y)): \(a[x, y]) vs \(b[x, y])"
        }
    }
    return nil
}

/// The mean value of the pixels in `xs` × `ys`.
func mean(_ image: GrayImage, x xs: Range<Int>, y ys: Range<Int>) -> Int {
    var sum = 0
    for y in ys { for x in xs { sum += Int(image[x, y]) } }
    return sum / (xs.count * ys.count)
}

/// `jpeg` with an APP1 `Exif\0\0` segment holding `tiff` inserted right after SOI.
func insertingExif(_ tiff: [UInt8], into jpeg: [UInt8]) -> [UInt8] {
    let payload = Array("Exif".utf8) + [0, 0] + tiff
    let length = payload.count + 2
    let segment: [UInt8] = [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
    return Array(jpeg[0..<2]) + segment + Array(jpeg[2...])
}

/// A minimal TIFF structure whose IFD0 holds one `Orientation` entry (SHORT) with `value`.
func orientationTIFF(_ value: UInt16, bigEndian: Bool) -> [UInt8] {
    func u16(_ v: UInt16) -> [UInt8] {
        bigEndian ? [UInt8(v >> 8), UInt8(v & 0xFF)] : [UInt8(v & 0xFF), UInt8(v >> 8)]
    }
    func u32(_ v: UInt32) -> [UInt8] {
        bigEndian ? ImageBytes.bigEndian32(v) : ImageBytes.bigEndian32(v).reversed()
    }
    let order: [UInt8] = bigEndian ? [0x4D, 0x4D] : [0x49, 0x49]
    return order + u16(42) + u32(8)
        + u16(1) + u16(0x0112) + u16(3) + u32(1) + u16(value) + u16(0)
        + u32(0)
}

/// Deterministic bytes for hostile-input tests (xorshift64*).
func pseudoRandomBytes(count: Int, seed: UInt64) -> [UInt8] {
    var state = seed | 1
    return (0..<count).map { _ in
        state ^= state >> 12
        state ^= state << 25
        state ^= state >> 27
        return UInt8(truncatingIfNeeded: (state &* 0x2545_F491_4F6C_DD1D) >> 56)
    }
}
