/// An 8-bit RGB raster, row-major, three bytes per pixel (red, green, blue).
///
/// Detection works on `GrayImage`; this type exists for what people look at, such as a
/// copy of the input with the symbols found outlined on it.
public struct RGBImage: Sendable, Equatable {
    public let width: Int
    public let height: Int
    public var samples: [UInt8]

    /// Wraps `samples`, which must hold exactly `width * height * 3` bytes.
    public init(width: Int, height: Int, samples: [UInt8]) {
        precondition(width >= 0 && height >= 0 && samples.count == width * height * 3,
                     "sample buffer does not match \(width)x\(height) RGB")
        self.width = width
        self.height = height
        self.samples = samples
    }

    /// The gray image in colour: each pixel's three samples equal to its gray value.
    public init(_ gray: GrayImage) {
        var samples = [UInt8](repeating: 0, count: gray.pixels.count * 3)
        gray.pixels.withUnsafeBufferPointer { src in
            samples.withUnsafeMutableBufferPointer { dst in
                for i in 0..<src.count {
                    dst[3 * i] = src[i]
                    dst[3 * i + 1] = src[i]
                    dst[3 * i + 2] = src[i]
                }
            }
        }
        self.init(width: gray.width, height: gray.height, samples: samples)
    }

    /// One colour.
    public struct Color: Sendable, Equatable {
        public var red: UInt8, green: UInt8, blue: UInt8
        public init(red: UInt8, green: UInt8, blue: UInt8) {
            self.red = red
            self.green = green
            self.blue = blue
        }
        public static let green = Color(red: 0, green: 200, blue: 60)
        public static let blue = Color(red: 20, green: 90, blue: 230)
        public static let black = Color(red: 0, green: 0, blue: 0)
        public static let white = Color(red: 255, green: 255, blue: 255)
    }

    /// Sets pixel (x, y) to `color`; points outside the image are ignored.
    public mutating func set(_ x: Int, _ y: Int, _ color: Color) {
        guard x >= 0, y >= 0, x < width, y < height else { return }
        let i = 3 * (y * width + x)
        samples[i] = color.red
        samples[i + 1] = color.green
        samples[i + 2] = color.blue
    }

    /// The colour of pixel (x, y), which must be inside the image.
    public subscript(x: Int, y: Int) -> Color {
        let i = 3 * (y * width + x)
        return Color(red: samples[i], green: samples[i + 1], blue: samples[i + 2])
    }

    /// One plane of the image as gray: 0 red, 1 green, 2 blue.
    func plane(_ channel: Int) -> GrayImage {
        var out = [UInt8](repeating: 0, count: width * height)
        for i in 0..<out.count { out[i] = samples[3 * i + channel] }
        return GrayImage(width: width, height: height, pixels: out)
    }

    /// The image made of three gray planes of one size.
    init(planes: [GrayImage]) {
        let w = planes[0].width, h = planes[0].height
        var samples = [UInt8](repeating: 0, count: w * h * 3)
        for (channel, plane) in planes.enumerated() {
            for i in 0..<(w * h) { samples[3 * i + channel] = plane.pixels[i] }
        }
        self.init(width: w, height: h, samples: samples)
    }

    /// The image turned upright as `orientation` says, like `GrayImage.applying(_:)`.
    public func applying(_ orientation: ExifOrientation) -> RGBImage {
        guard orientation != .up else { return self }
        return RGBImage(planes: (0..<3).map { plane($0).applying(orientation) })
    }
}
