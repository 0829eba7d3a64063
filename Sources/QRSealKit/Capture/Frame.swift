/// One picture from a camera or a stream, reduced to its luma: all detection needs.
public struct Frame: Sendable {
    /// Counted from 1, in the order the source delivered the frames.
    public let number: Int
    /// Seconds since the source's first frame: from a stream's frame rate, or from the
    /// driver's capture timestamps for a camera.
    public let time: Double
    public let image: GrayImage

    public init(number: Int, time: Double, image: GrayImage) {
        self.number = number
        self.time = time
        self.image = image
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
