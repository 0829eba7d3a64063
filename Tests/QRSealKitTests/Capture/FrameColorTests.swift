import Foundation
import Testing
import TestSupport
@testable import QRSealKit

/// Frames that keep their colour for a preview: the chroma planes read exactly, shown as the
/// colours they encode, and a stream cut inside them refused as it is for the luma.
@Suite("Capture: frames in colour")
struct FrameColorTests {
    /// A 4:2:0 stream of one 4×2 frame: luma, then Cb and Cr planes of 2×1.
    static func stream(luma: [UInt8], cb: [UInt8], cr: [UInt8], space: String = "420jpeg", cut: Int = 0) -> Data {
        var data = Data(Scenes.y4mHeader(width: 4, height: 2, colorSpace: space).utf8)
        data += Data("FRAME\n".utf8)
        data += Data(luma)
        data += Data(cb)
        data += Data(cr)
        return Data(data.dropLast(cut))
    }

    static func read(_ data: Data, color: Bool = true) throws(CaptureError) -> Frame? {
        let reader = try YUV4MPEGReader(input: MemoryInput([UInt8](data)))
        reader.keepsColor = color
        return try reader.nextFrame()
    }

    @Test("the chroma planes come with the frame when asked, and not otherwise")
    func keepsChroma() throws {
        let data = Self.stream(luma: [10, 20, 30, 40, 50, 60, 70, 80], cb: [1, 2], cr: [3, 4])
        let frame = try #require(try Self.read(data))
        #expect(frame.image.pixels == [10, 20, 30, 40, 50, 60, 70, 80])
        #expect(frame.chroma == Frame.Chroma(width: 2, height: 1, cb: [1, 2], cr: [3, 4]))
        #expect(try Self.read(data, color: false)?.chroma == nil)
    }

    @Test("colours come out as the BT.601 full-range conversion gives them")
    func rgb() throws {
        // Pure red, green and blue in full-range YCbCr (JPEG's), and a neutral gray.
        let red = (y: 76, cb: 85, cr: 255), blue = (y: 29, cb: 255, cr: 107)
        let data = Self.stream(luma: [UInt8(red.y), UInt8(red.y), UInt8(blue.y), UInt8(blue.y),
                                      UInt8(red.y), UInt8(red.y), UInt8(blue.y), UInt8(blue.y)],
                               cb: [UInt8(red.cb), UInt8(blue.cb)], cr: [UInt8(red.cr), UInt8(blue.cr)])
        let rgb = try #require(try Self.read(data)).rgb()
        #expect(rgb.count == 4 * 2 * 3)
        let first = Array(rgb[0..<3]), third = Array(rgb[6..<9])
        #expect(first[0] >= 250 && first[1] <= 4 && first[2] <= 4, "red came out as \(first)")
        #expect(third[0] <= 4 && third[1] <= 4 && third[2] >= 250, "blue came out as \(third)")
        let gray = Frame(number: 1, time: 0, image: GrayImage(width: 1, height: 1, pixels: [77])).rgb()
        #expect(gray == [77, 77, 77])
    }

    @Test("a picture fitted to a smaller box keeps the frame's shape and colours, and is never enlarged")
    func fitted() throws {
        // 640×360: the left half red, the right half blue, in 4:2:0.
        let red = (y: UInt8(76), cb: UInt8(85), cr: UInt8(255)), blue = (y: UInt8(29), cb: UInt8(255), cr: UInt8(107))
        let luma = (0..<360).flatMap { _ in (0..<640).map { $0 < 320 ? red.y : blue.y } }
        let cb = (0..<180).flatMap { _ in (0..<320).map { $0 < 160 ? red.cb : blue.cb } }
        let cr = (0..<180).flatMap { _ in (0..<320).map { $0 < 160 ? red.cr : blue.cr } }
        let frame = Frame(number: 1, time: 0, image: GrayImage(width: 640, height: 360, pixels: luma),
                          chroma: Frame.Chroma(width: 320, height: 180, cb: cb, cr: cr))
        let picture = frame.picture(fitting: (width: 320, height: 400))
        #expect((picture.width, picture.height) == (320, 180))
        #expect(picture.bgra.count == 320 * 180 * 4)
        let left = Array(picture.bgra[(90 * 320 + 40) * 4..<(90 * 320 + 41) * 4])
        let right = Array(picture.bgra[(90 * 320 + 280) * 4..<(90 * 320 + 281) * 4])
        #expect(left[2] >= 250 && left[1] <= 4 && left[0] <= 4 && left[3] == 255, "red came out as \(left)")
        #expect(right[0] >= 250 && right[1] <= 4 && right[2] <= 4 && right[3] == 255, "blue came out as \(right)")
        // A bigger box, or none, gives the frame's own size, pixel for pixel.
        let whole = frame.picture(fitting: (width: 1920, height: 1080))
        #expect((whole.width, whole.height) == (640, 360))
        #expect(whole.bgra == frame.picture().bgra)
        // A gray gradient shrunk by half keeps its mean level.
        let ramp = Frame(number: 1, time: 0, image: GrayImage(width: 256, height: 2, pixels: (0..<512).map { UInt8($0 % 256) }))
        let half = ramp.picture(fitting: (width: 128, height: 1))
        let mean = stride(from: 0, to: half.bgra.count, by: 4).map { Int(half.bgra[$0]) }.reduce(0, +) / (half.width * half.height)
        #expect((half.width, half.height) == (128, 1) && abs(mean - 127) <= 2)
    }

    @Test("a stream cut inside a frame's chroma is refused with the frame's number, colour kept or not")
    func cutChroma() {
        let data = Self.stream(luma: [UInt8](repeating: 9, count: 8), cb: [1, 2], cr: [3, 4], cut: 1)
        for color in [true, false] {
            #expect(throws: CaptureError.truncatedFrame(frame: 1, received: 11, expected: 12)) { try Self.read(data, color: color) }
        }
    }

    @Test("a monochrome stream has no chroma and shows gray")
    func mono() throws {
        var data = Data(Scenes.y4mHeader(width: 4, height: 2, colorSpace: "mono").utf8)
        data += Data("FRAME\n".utf8)
        data += Data([UInt8](repeating: 200, count: 8))
        let frame = try #require(try Self.read(data))
        #expect(frame.chroma == nil && frame.rgb() == [UInt8](repeating: 200, count: 24))
    }
}

/// What a frame measures for the guidance shown while nothing is read.
@Suite("Capture: frame quality")
struct FrameQualityTests {
    /// A 640×480 page of black and white squares 8 pixels wide, on a light background.
    static func checkerboard(level: UInt8 = 255) -> GrayImage {
        var pixels = [UInt8](repeating: 0, count: 640 * 480)
        for y in 0..<480 { for x in 0..<640 where (x / 8 + y / 8) % 2 == 0 { pixels[y * 640 + x] = level } }
        return GrayImage(width: 640, height: 480, pixels: pixels)
    }

    @Test("a sharp, bright page says move closer; dark says more light; blurred says hold still")
    func guidance() {
        let sharp = FrameQuality(Self.checkerboard())
        #expect(sharp.guidance == .moveCloser, "\(sharp)")
        let dark = FrameQuality(Self.checkerboard(level: 40))
        #expect(dark.guidance == .moreLight, "\(dark)")
        let blurred = FrameQuality(Self.checkerboard().boxBlurred(radius: 6))
        #expect(blurred.guidance == .holdStill, "\(blurred)")
        #expect(blurred.brightness > FrameQuality.darkBelow)
    }

    @Test("a blank frame, a tiny one and an empty one give answers, never a trap")
    func edges() {
        #expect(FrameQuality(GrayImage(width: 640, height: 480, filledWith: 200)).guidance == .holdStill)
        #expect(FrameQuality(GrayImage(width: 1, height: 1, filledWith: 0)).guidance == .moreLight)
        #expect(FrameQuality(GrayImage(width: 3, height: 2, pixels: [0, 255, 0, 255, 0, 255])).sharpness == 255)
    }
}
