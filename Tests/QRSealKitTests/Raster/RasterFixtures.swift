import Foundation
@testable import QRSealKit

/// Builds test images at run time: known patterns written as PGM by the test itself, then
/// converted with ImageMagick `convert` into the variant under test.
struct RasterFixtures {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("qrseal-raster-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    func remove() {
        try? FileManager.default.removeItem(at: directory)
    }

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

    /// Writes `bytes` to `name` in the fixture directory and returns its path.
    @discardableResult
    func write(_ bytes: [UInt8], to name: String) throws -> String {
        let url = directory.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }

    func read(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: directory.appendingPathComponent(name)))
    }

    /// Writes `image` as PGM, runs `convert input.pgm <arguments> output` and returns the
    /// bytes of `output` (whose extension or `FORMAT:` prefix picks the format).
    func convert(_ image: GrayImage, _ arguments: [String], output: String) throws -> [UInt8] {
        let input = try write(Self.pgm(image), to: "input-\(UUID().uuidString).pgm")
        let parts = output.split(separator: ":", maxSplits: 1).map(String.init)
        let name = parts.last ?? output
        let prefix = parts.count == 2 ? parts[0] + ":" : ""
        try run("convert", [input] + arguments + [prefix + directory.appendingPathComponent(name).path])
        return try read(name)
    }

    /// What `file` says about `name`, e.g. "PNG image data, 32 x 24, 1-bit grayscale, …".
    func describe(_ name: String) throws -> String {
        try run("file", ["-b", directory.appendingPathComponent(name).path])
    }

    @discardableResult
    func run(_ tool: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [tool] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: output, as: UTF8.self)
        guard process.terminationStatus == 0 else { throw ToolFailed(tool: tool, output: text) }
        return text
    }

    struct ToolFailed: Error, CustomStringConvertible {
        let tool: String
        let output: String
        var description: String { "\(tool) failed: \(output)" }
    }
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

/// A PNG chunk with its length and CRC-32, for crafting hostile files by hand.
func pngChunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
    let body = Array(type.utf8) + data
    return bigEndian32(UInt32(data.count)) + body + bigEndian32(crc32(body))
}

func bigEndian32(_ value: UInt32) -> [UInt8] {
    [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
}

/// CRC-32 as used by PNG (ISO 3309, reflected, polynomial 0xEDB88320).
func crc32(_ bytes: [UInt8]) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
        crc ^= UInt32(byte)
        for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    return ~crc
}

/// A PNG signature followed by an IHDR declaring `width` × `height` 8-bit gray, a token
/// IDAT and IEND: valid up to the point where pixel data would be needed.
func pngHeader(width: UInt32, height: UInt32) -> [UInt8] {
    let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    let ihdr = bigEndian32(width) + bigEndian32(height) + [8, 0, 0, 0, 0]
    // zlib stream of one empty stored block: too short for any real image.
    let idat: [UInt8] = [0x78, 0x01, 0x01, 0x00, 0x00, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x01]
    return signature + pngChunk("IHDR", ihdr) + pngChunk("IDAT", idat) + pngChunk("IEND", [])
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
    func u32(_ v: UInt32) -> [UInt8] { bigEndian ? bigEndian32(v) : bigEndian32(v).reversed() }
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
