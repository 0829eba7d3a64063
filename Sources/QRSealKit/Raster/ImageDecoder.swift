/// Reads PNG, JPEG and PNM images into a `GrayImage`, choosing the format by content.
public struct ImageDecoder: Sendable {
    /// The default refusal threshold: 100 megapixels.
    public static let defaultMaxPixels = 100_000_000

    /// Images whose header declares more pixels than this are refused before any
    /// pixel buffer is allocated.
    public var maxPixels: Int

    public init(maxPixels: Int = ImageDecoder.defaultMaxPixels) {
        self.maxPixels = maxPixels
    }

    /// The formats we recognise by their first bytes.
    public enum Format: String, Sendable {
        case png = "PNG", jpeg = "JPEG", pnm = "PNM"
    }

    /// The format `bytes` start with, or nil.
    public static func sniff(_ bytes: [UInt8]) -> Format? {
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if bytes.count >= 2, bytes[0] == UInt8(ascii: "P"),
           (UInt8(ascii: "1")...UInt8(ascii: "6")).contains(bytes[1]) {
            return .pnm
        }
        return nil
    }

    /// Decodes `bytes` to grayscale. Colour is reduced to luma; transparency is
    /// composited onto white; JPEG EXIF orientation is applied.
    public func decode(_ bytes: [UInt8]) throws(RasterError) -> GrayImage {
        guard !bytes.isEmpty else { throw .empty }
        switch Self.sniff(bytes) {
        case .png?: return try decodePNG(bytes)
        case .jpeg?: return try decodeJPEG(bytes)
        case .pnm?: return try decodePNM(bytes)
        case nil: throw .unknownFormat
        }
    }

    /// Throws `.tooLarge` or `.badDimensions` unless a `width` × `height` image may be allocated.
    func checkSize(width: Int, height: Int) throws(RasterError) {
        guard width > 0, height > 0 else { throw .badDimensions(width: width, height: height) }
        let (product, overflow) = width.multipliedReportingOverflow(by: height)
        guard !overflow, product <= maxPixels else {
            throw .tooLarge(width: width, height: height, limit: maxPixels)
        }
    }
}
