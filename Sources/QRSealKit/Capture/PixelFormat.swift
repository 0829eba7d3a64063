/// The camera pixel formats we read, named by their V4L2 four-character codes, in the order
/// we ask for them: formats whose luma is there to copy first, compressed ones last.
public enum PixelFormat: String, CaseIterable, Sendable {
    /// `V4L2_PIX_FMT_GREY`: 8-bit luma only.
    case grey = "GREY"
    /// `V4L2_PIX_FMT_YUYV`: packed 4:2:2, Y0 U Y1 V.
    case yuyv = "YUYV"
    /// `V4L2_PIX_FMT_UYVY`: packed 4:2:2, U Y0 V Y1.
    case uyvy = "UYVY"
    /// `V4L2_PIX_FMT_NV12` and `NV21`: a luma plane, then interleaved chroma.
    case nv12 = "NV12", nv21 = "NV21"
    /// `V4L2_PIX_FMT_YUV420` and `YVU420`: three planes, luma first.
    case yu12 = "YU12", yv12 = "YV12"
    /// `V4L2_PIX_FMT_MJPEG` and `JPEG`: each frame a JPEG image, decoded with TurboJPEG.
    case mjpeg = "MJPG", jpeg = "JPEG"

    /// The code as V4L2 stores it: the four ASCII letters, first letter in the low byte.
    public var fourcc: UInt32 { Self.fourcc(rawValue) }

    public init?(fourcc: UInt32) {
        guard let match = Self.allCases.first(where: { $0.fourcc == fourcc }) else { return nil }
        self = match
    }

    static func fourcc(_ code: String) -> UInt32 {
        code.utf8.prefix(4).enumerated().reduce(0) { $0 | UInt32($1.element) << (8 * UInt32($1.offset)) }
    }

    /// The four letters of any code, for messages; non-printing bytes show as `?`.
    public static func name(of fourcc: UInt32) -> String {
        let bytes = (0..<4).map { UInt8(truncatingIfNeeded: fourcc >> (8 * $0)) }
        let printable = bytes.map { (0x20..<0x7F).contains($0) ? $0 : UInt8(ascii: "?") }
        return String(decoding: printable, as: UTF8.self).trimmingSuffix(" ")
    }

    /// Bytes per pixel of the first plane's rows, for checking a driver's `bytesperline`.
    var lumaStep: Int {
        switch self {
        case .yuyv, .uyvy: return 2
        default: return 1
        }
    }

    /// The luma of one captured frame. `data` is the buffer as the driver filled it (its
    /// `bytesused`), `bytesPerLine` the stride of its first plane.
    func luma(_ data: UnsafeRawBufferPointer, width: Int, height: Int, bytesPerLine: Int) throws(CaptureError) -> GrayImage {
        switch self {
        case .mjpeg, .jpeg:
            do {
                return try ImageDecoder(maxPixels: max(width * height, 1) * 4).decode(Array(data))
            } catch {
                throw .badFrame(reason: error.description)
            }
        case .grey, .nv12, .nv21, .yu12, .yv12, .yuyv, .uyvy:
            let stride = max(bytesPerLine, width * lumaStep)
            let needed = stride * (height - 1) + width * lumaStep
            guard width > 0, height > 0, data.count >= needed else {
                throw .badFrame(reason: "\(data.count) bytes where a \(width)x\(height) \(rawValue) frame needs \(needed)")
            }
            let offset = self == .uyvy ? 1 : 0
            let step = lumaStep
            let pixels = [UInt8](unsafeUninitializedCapacity: width * height) { out, count in
                for y in 0..<height {
                    let row = data.baseAddress!.assumingMemoryBound(to: UInt8.self) + y * stride + offset
                    let target = out.baseAddress! + y * width
                    if step == 1 {
                        target.initialize(from: row, count: width)
                    } else {
                        for x in 0..<width { (target + x).initialize(to: row[x * step]) }
                    }
                }
                count = width * height
            }
            return GrayImage(width: width, height: height, pixels: pixels)
        }
    }
}

private extension String {
    func trimmingSuffix(_ c: Character) -> String {
        var s = self
        while s.last == c { s.removeLast() }
        return s
    }
}
