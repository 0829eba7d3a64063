/// An 8-bit grayscale raster, row-major, 0 = black and 255 = white.
///
/// Every image the tool reads is turned into one of these before detection, and
/// every symbol it renders is drawn into one before it is written out.
public struct GrayImage: Sendable, Equatable {
    public let width: Int
    public let height: Int
    public var pixels: [UInt8]

    /// Wraps `pixels`, which must hold exactly `width * height` bytes.
    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(width >= 0 && height >= 0 && pixels.count == width * height,
                     "pixel buffer does not match \(width)x\(height)")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// A `width` × `height` image filled with `value`.
    public init(width: Int, height: Int, filledWith value: UInt8) {
        self.init(width: width, height: height,
                  pixels: [UInt8](repeating: value, count: width * height))
    }

    public subscript(x: Int, y: Int) -> UInt8 {
        get { pixels[y * width + x] }
        set { pixels[y * width + x] = newValue }
    }
}
