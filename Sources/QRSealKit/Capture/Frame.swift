/// One picture from a camera or a stream, reduced to its luma: all detection needs.
public struct Frame: Sendable {
    /// Counted from 1, in the order the source delivered the frames.
    public let number: Int
    /// Seconds since the source's first frame: from a stream's frame rate, or from the
    /// driver's capture timestamps for a camera.
    public let time: Double
    public let image: GrayImage
    /// The colour, when the source was asked to keep it (for display; detection reads `image`).
    public let chroma: Chroma?

    public init(number: Int, time: Double, image: GrayImage, chroma: Chroma? = nil) {
        self.number = number
        self.time = time
        self.image = image
        self.chroma = chroma
    }

    /// The Cb and Cr planes of a frame, each `width` × `height` (half the frame's in a 4:2:0
    /// stream, half its width in 4:2:2, the whole frame in 4:4:4).
    public struct Chroma: Sendable, Equatable {
        public let width: Int, height: Int
        public let cb: [UInt8], cr: [UInt8]

        public init(width: Int, height: Int, cb: [UInt8], cr: [UInt8]) {
            precondition(cb.count == width * height && cr.count == width * height, "chroma planes of the wrong size")
            self.width = width
            self.height = height
            self.cb = cb
            self.cr = cr
        }

        /// The size of each chroma plane of a stream's frames; nil for a monochrome stream.
        static func planeSize(_ header: YUV4MPEGHeader) -> (width: Int, height: Int)? {
            let halfWidth = (header.width + 1) / 2, halfHeight = (header.height + 1) / 2
            switch header.colorSpace {
            case .c420jpeg, .c420paldv, .c420mpeg2, .c420: return (halfWidth, halfHeight)
            case .c422: return (halfWidth, header.height)
            case .c444: return (header.width, header.height)
            case .mono: return nil
            }
        }
    }
}

/// Where frames come from: a camera (`CameraSource`) or a stream (`YUV4MPEGReader`).
/// A scan session is given the frames and never the source.
public protocol FrameSource: AnyObject {
    /// The width of the frames, in pixels.
    var width: Int { get }
    /// The height of the frames, in pixels.
    var height: Int { get }
    /// The next frame; nil when a stream has ended (a camera never ends). Throws `.stopped`
    /// when its stop check says so while it waits.
    func nextFrame() throws(CaptureError) -> Frame?
}
