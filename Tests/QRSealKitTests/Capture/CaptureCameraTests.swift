import Foundation
import Testing
import TestSupport
@testable import QRSealKit

/// The camera side without a camera (none exists on the build machines): each way opening
/// a path that is not a usable camera fails, the V4L2 request codes, listing devices, and
/// turning each pixel format a driver may deliver into luma.
@Suite("Capture: cameras and pixel formats")
struct CaptureCameraTests {
    let dir = try! TempDir()

    static func openError(_ path: String) -> CaptureError? {
        do {
            _ = try CameraSource(path: path)
            return nil
        } catch {
            return error
        }
    }

    @Test("paths that are not cameras: each its own error")
    func notCameras() throws {
        let file = try dir.write("frames.y4m", Data("YUV4MPEG2 W4 H4\n".utf8))
        let fifo = dir.path("fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(Self.openError("/dev/video-qrseal-test-missing") == .noDevice)
        #expect(Self.openError(dir.path("missing/video0")) == .noDevice)
        #expect(Self.openError(file) == .notADevice(kind: "a regular file"))
        #expect(Self.openError(dir.url.path) == .notADevice(kind: "a directory"))
        #expect(Self.openError(fifo) == .notADevice(kind: "a pipe"))
        // A character device that is no video device: VIDIOC_QUERYCAP fails with ENOTTY.
        #expect(Self.openError("/dev/null") == .notVideoDevice)
    }

    @Test("the probe doctor uses reports the same problems, and nothing for what is not there")
    func probe() {
        #expect(VideoDevices.probe("/dev/null").problem == .notVideoDevice)
        #expect(VideoDevices.probe("/dev/null").card == nil)
        #expect(VideoDevices.probe("/dev/video-qrseal-test-missing").problem == .noDevice)
        #expect(!VideoDevices.probe("/dev/null").canCapture)
    }

    @Test("a device that goes away mid-scan reads as disconnected, other failures name the call")
    func failures() {
        #expect(VideoDeviceHandle.failure("VIDIOC_DQBUF", ENODEV) == .disconnected)
        #expect(VideoDeviceHandle.failure("VIDIOC_QBUF", ENXIO) == .disconnected)
        #expect(VideoDeviceHandle.failure("VIDIOC_STREAMON", EBUSY) == .busy)
        #expect(VideoDeviceHandle.failure("VIDIOC_S_FMT", EINVAL).description == "VIDIOC_S_FMT failed: invalid argument")
    }

    @Test("video devices are listed in number order, other names ignored")
    func listing() throws {
        for name in ["video10", "video2", "video0", "videoX", "vbi0", "video"] { try dir.write(name, Data()) }
        #expect(VideoDevices.list(in: dir.url.path) == ["video0", "video2", "video10"].map { dir.path($0) })
        #expect(VideoDevices.list(in: dir.path("none")).isEmpty)
    }

    #if arch(x86_64) || arch(arm64)
    @Test("V4L2 request codes match the kernel's <linux/videodev2.h> on 64-bit Linux")
    func requestCodes() {
        #expect(V4L2Request.queryCapability == 0x8068_5600)
        #expect(V4L2Request.enumerateFormats == 0xC040_5602)
        #expect(V4L2Request.setFormat == 0xC0D0_5605)
        #expect(V4L2Request.requestBuffers == 0xC014_5608)
        #expect(V4L2Request.queryBuffer == 0xC058_5609)
        #expect(V4L2Request.queueBuffer == 0xC058_560F)
        #expect(V4L2Request.dequeueBuffer == 0xC058_5611)
        #expect(V4L2Request.streamOn == 0x4004_5612)
        #expect(V4L2Request.streamOff == 0x4004_5613)
    }
    #endif

    @Test("four-character codes both ways")
    func fourcc() {
        #expect(PixelFormat.yuyv.fourcc == 0x5659_5559)
        #expect(PixelFormat(fourcc: 0x4750_4A4D) == .mjpeg)
        #expect(PixelFormat.name(of: 0x3436_3248) == "H264")
        #expect(PixelFormat.name(of: 0x2020_3859) == "Y8")
        #expect(PixelFormat(fourcc: 0x3436_3248) == nil)
    }

    /// A 6x3 luma pattern and the same pixels packed as each format, rows padded to 16 bytes.
    static let luma: [UInt8] = (0..<18).map { UInt8(10 * $0 + 5) }

    static func packed(_ format: PixelFormat, stride: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        for y in 0..<3 {
            var row: [UInt8] = []
            for x in 0..<6 {
                let v = luma[y * 6 + x]
                switch format {
                case .yuyv: row += [v, 200]
                case .uyvy: row += [200, v]
                default: row.append(v)
                }
            }
            bytes += row + [UInt8](repeating: 0xEE, count: stride - row.count)
        }
        // Chroma planes after the luma, which must be ignored.
        return bytes + [UInt8](repeating: 77, count: 40)
    }

    @Test("luma from every uncompressed format, with padded rows",
          arguments: [PixelFormat.grey, .yuyv, .uyvy, .nv12, .nv21, .yu12, .yv12])
    func uncompressed(format: PixelFormat) throws {
        let data = Self.packed(format, stride: 16)
        let image = try data.withUnsafeBytes { try format.luma($0, width: 6, height: 3, bytesPerLine: 16) }
        #expect(image == GrayImage(width: 6, height: 3, pixels: Self.luma))
    }

    @Test("a buffer shorter than its frame is a damaged frame, not a crash")
    func shortBuffer() {
        let data = [UInt8](repeating: 0, count: 20)
        #expect(throws: CaptureError.badFrame(reason: "20 bytes where a 6x3 YUYV frame needs 44")) {
            try data.withUnsafeBytes { try PixelFormat.yuyv.luma($0, width: 6, height: 3, bytesPerLine: 16) }
        }
    }

    @Test("MJPEG frames are decoded with TurboJPEG; a damaged one is a damaged frame")
    func mjpeg() throws {
        var image = GrayImage(width: 32, height: 16, filledWith: 255)
        for y in 4..<12 { for x in 4..<12 { image[x, y] = 0 } }
        let pgm = Data("P5\n32 16\n255\n".utf8) + Data(image.pixels)
        try dir.write("frame.pgm", pgm)
        #expect(try Tools.run("convert", [dir.path("frame.pgm"), "-quality", "95", dir.path("frame.jpg")]).status == 0)
        let jpeg = [UInt8](try Data(contentsOf: dir.url.appendingPathComponent("frame.jpg")))
        let decoded = try jpeg.withUnsafeBytes { try PixelFormat.mjpeg.luma($0, width: 32, height: 16, bytesPerLine: 0) }
        #expect(decoded.width == 32 && decoded.height == 16)
        #expect(decoded[6, 6] < 40 && decoded[20, 8] > 215)
        let cut = Array(jpeg.prefix(jpeg.count / 2))
        #expect(throws: CaptureError.self) {
            try cut.withUnsafeBytes { try PixelFormat.mjpeg.luma($0, width: 32, height: 16, bytesPerLine: 0) }
        }
    }
}
