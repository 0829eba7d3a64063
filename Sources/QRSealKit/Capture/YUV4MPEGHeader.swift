/// The stream header of a YUV4MPEG2 stream (`ffmpeg -f yuv4mpegpipe`, mjpegtools): the line
/// `YUV4MPEG2 W1280 H720 F30:1 Ip A1:1 C420jpeg`, then frames, each a `FRAME` line and the
/// planes Y, then Cb and Cr unless the colour space is `mono`.
///
/// Parameters are one letter and a value, separated by single spaces: W width and H height
/// (required), F frame rate, A pixel aspect, I interlacing, C colour space (default 420jpeg),
/// X comments. Unknown letters are skipped, as ffmpeg does.
public struct YUV4MPEGHeader: Equatable, Sendable {
    /// The 8-bit colour spaces we read. Only the luma plane is used; the others are read past.
    public enum ColorSpace: String, CaseIterable, Sendable {
        case c420jpeg = "420jpeg", c420paldv = "420paldv", c420mpeg2 = "420mpeg2", c420 = "420"
        case c422 = "422", c444 = "444", mono = "mono"

        /// Bytes in the Cb and Cr planes together of a `width` × `height` frame.
        func chromaBytes(width: Int, height: Int) -> Int {
            let halfWidth = (width + 1) / 2, halfHeight = (height + 1) / 2
            switch self {
            case .c420jpeg, .c420paldv, .c420mpeg2, .c420: return 2 * halfWidth * halfHeight
            case .c422: return 2 * halfWidth * height
            case .c444: return 2 * width * height
            case .mono: return 0
            }
        }
    }

    public static let magic: [UInt8] = Array("YUV4MPEG2".utf8)
    /// Longest header or frame line we accept, so that a stream without line breaks is refused.
    static let maxLineLength = 4096
    /// The frame rate assumed when the header gives none, as ffmpeg assumes.
    public static let defaultFrameRate = (numerator: 25, denominator: 1)

    public var width: Int
    public var height: Int
    /// Frames per second as a fraction; nil when the header gives none (or `F0:0`).
    public var frameRate: (numerator: Int, denominator: Int)?
    public var colorSpace: ColorSpace

    public init(width: Int, height: Int, frameRate: (numerator: Int, denominator: Int)? = (30, 1),
                colorSpace: ColorSpace = .c420jpeg) {
        self.width = width
        self.height = height
        self.frameRate = frameRate
        self.colorSpace = colorSpace
    }

    public static func == (a: Self, b: Self) -> Bool {
        a.width == b.width && a.height == b.height && a.colorSpace == b.colorSpace
            && a.frameRate?.numerator == b.frameRate?.numerator && a.frameRate?.denominator == b.frameRate?.denominator
    }

    /// Bytes of picture data in one frame: the luma plane and any chroma planes.
    public var frameBytes: Int { width * height + colorSpace.chromaBytes(width: width, height: height) }

    /// Seconds from the first frame to frame `number` (counted from 1).
    public func time(ofFrame number: Int) -> Double {
        let rate = frameRate ?? Self.defaultFrameRate
        return Double(number - 1) * Double(rate.denominator) / Double(rate.numerator)
    }

    /// Parses the header line, without its line break. Throws `.notAStream` unless it starts
    /// with the magic, `.badHeader` when a parameter is malformed or W or H is missing,
    /// `.unsupportedColorSpace`, or `.tooLarge` when a frame would exceed `maxPixels`.
    public static func parse(_ line: [UInt8], maxPixels: Int) throws(CaptureError) -> YUV4MPEGHeader {
        guard line.starts(with: magic), line.count == magic.count || line[magic.count] == 0x20 else {
            throw .notAStream
        }
        var width: Int?, height: Int?
        var rate: (Int, Int)?
        var colorSpace = ColorSpace.c420jpeg
        for token in line.dropFirst(magic.count).split(separator: 0x20, omittingEmptySubsequences: true) {
            let tag = Character(Unicode.Scalar(token.first!))
            let value = String(decoding: token.dropFirst(), as: UTF8.self)
            switch tag {
            case "W": width = try dimension(value, name: "width (W)")
            case "H": height = try dimension(value, name: "height (H)")
            case "F":
                guard let (n, d) = ratio(value), (n == 0) == (d == 0) else {
                    throw .badHeader(reason: "frame rate F\(value) is not two whole numbers N:D")
                }
                rate = n == 0 ? nil : (n, d)
            case "A":
                guard ratio(value) != nil else {
                    throw .badHeader(reason: "pixel aspect A\(value) is not two whole numbers N:D")
                }
            case "I":
                guard ["p", "t", "b", "m", "?"].contains(value) else {
                    throw .badHeader(reason: "interlacing I\(value) is not one of p, t, b, m")
                }
            case "C":
                // ffmpeg adds "XYSCSS=…" separately; the C value itself must be one we know.
                guard let space = ColorSpace(rawValue: value) else { throw .unsupportedColorSpace(value) }
                colorSpace = space
            default:
                break  // X comments and letters from later versions of the format
            }
        }
        guard let width else { throw .badHeader(reason: "no width (W)") }
        guard let height else { throw .badHeader(reason: "no height (H)") }
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        guard !overflow, pixels <= maxPixels else { throw .tooLarge(width: width, height: height, limit: maxPixels) }
        return YUV4MPEGHeader(width: width, height: height, frameRate: rate, colorSpace: colorSpace)
    }

    private static func dimension(_ value: String, name: String) throws(CaptureError) -> Int {
        guard !value.isEmpty, value.count <= 9, value.allSatisfy(\.isASCIIDigit), let n = Int(value), n > 0 else {
            throw .badHeader(reason: "\(name) '\(value)' is not a whole number above 0")
        }
        return n
    }

    private static func ratio(_ value: String) -> (Int, Int)? {
        let parts = value.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty && $0.count <= 9 && $0.allSatisfy(\.isASCIIDigit) }),
              let n = Int(parts[0]), let d = Int(parts[1]) else { return nil }
        return (n, d)
    }
}

private extension Character {
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
