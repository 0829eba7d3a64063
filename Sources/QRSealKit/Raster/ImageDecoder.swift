/// Reads image files into `GrayImage`s, choosing the format by content: PNG, JPEG, PNM,
/// BMP, TIFF, WebP, GIF, PDF and SVG; every page or frame of those that hold several.
public struct ImageDecoder: Sendable {
    /// The default refusal threshold: 100 megapixels.
    public static let defaultMaxPixels = 100_000_000
    /// The most pages or frames read from one file (`maxPictures`' default).
    public static let defaultMaxPictures = 1000

    /// Images whose header declares more pixels than this are refused before any
    /// pixel buffer is allocated; PDF and SVG are drawn within it.
    public var maxPixels: Int
    /// A file of more pages or frames than this is refused when the one past it is reached.
    public var maxPictures: Int

    public init(maxPixels: Int = ImageDecoder.defaultMaxPixels, maxPictures: Int = ImageDecoder.defaultMaxPictures) {
        self.maxPixels = maxPixels
        self.maxPictures = maxPictures
    }

    /// The formats we recognise by their first bytes.
    public enum Format: String, Sendable, CaseIterable {
        case png = "PNG", jpeg = "JPEG", pnm = "PNM", bmp = "BMP", gif = "GIF", tiff = "TIFF", webp = "WebP",
             pdf = "PDF", svg = "SVG"

        /// What one picture of a file of this format is called: PDF and TIFF have pages, GIF frames.
        var pictureKind: ImagePart.Kind {
            self == .gif ? .frame : .page
        }
    }

    /// How many first bytes `sniff` may look at (an SVG's `<svg` may follow a long comment).
    public static let sniffLength = SVGSniffer.window

    /// The format `bytes` start with, or nil.
    public static func sniff(_ bytes: [UInt8]) -> Format? {
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if bytes.count >= 2, bytes[0] == UInt8(ascii: "P"),
           (UInt8(ascii: "1")...UInt8(ascii: "6")).contains(bytes[1]) {
            return .pnm
        }
        if bytes.starts(with: Array("GIF87a".utf8)) || bytes.starts(with: Array("GIF89a".utf8)) { return .gif }
        if bytes.starts(with: [0x49, 0x49, 0x2A, 0x00]) || bytes.starts(with: [0x4D, 0x4D, 0x00, 0x2A])
            || bytes.starts(with: [0x49, 0x49, 0x2B, 0x00]) || bytes.starts(with: [0x4D, 0x4D, 0x00, 0x2B]) {
            return .tiff
        }
        if bytes.count >= 12, bytes.starts(with: Array("RIFF".utf8)), Array(bytes[8..<12]) == Array("WEBP".utf8) {
            return .webp
        }
        if bytes.starts(with: Array("BM".utf8)), bytes.count >= 18 { return .bmp }
        if bytes.starts(with: Array("%PDF-".utf8)) { return .pdf }
        if SVGSniffer.looksLikeSVG(bytes) { return .svg }
        return nil
    }

    /// Decodes `bytes` to grayscale: the first page or frame of a file that holds several.
    /// Colour is reduced to luma; transparency is composited onto white; JPEG EXIF
    /// orientation is applied.
    public func decode(_ bytes: [UInt8]) throws(RasterError) -> GrayImage {
        var first: GrayImage?
        try decodeEach(bytes, limit: 1, stopping: true) { image, _ in first = first ?? image }
        guard let first else { throw .damaged(format: Self.sniff(bytes)?.rawValue ?? "image", reason: "no picture in it") }
        return first
    }

    /// Decodes every picture of `bytes` (each page of a PDF or TIFF, each frame of a GIF)
    /// and hands each to `body` in order, one at a time, so that only one is held at once.
    /// `part` is nil for a file of one picture. A damaged picture, or one past
    /// `maxPictures`, throws after the pictures before it were handed over.
    public func decodeEach(_ bytes: [UInt8], _ body: (GrayImage, ImagePart?) -> Void) throws(RasterError) {
        try decodeEach(bytes, limit: maxPictures, stopping: false, body)
    }

    private func decodeEach(_ bytes: [UInt8], limit: Int, stopping: Bool, _ body: (GrayImage, ImagePart?) -> Void) throws(RasterError) {
        guard !bytes.isEmpty else { throw .empty }
        guard let format = Self.sniff(bytes) else { throw .unknownFormat }
        switch format {
        case .png: body(try decodePNG(bytes), nil)
        case .jpeg: body(try decodeJPEG(bytes), nil)
        case .pnm: body(try decodePNM(bytes), nil)
        case .bmp: body(try decodeBMP(bytes), nil)
        case .webp: body(try decodeWebP(bytes), nil)
        case .svg: body(try decodeSVG(bytes), nil)
        case .gif, .tiff, .pdf:
            var pictures: [GrayImage] = []
            var count = 0
            // A multi-picture reader hands pictures over one by one; the first is held back
            // until a second shows whether the file has several (and so needs numbering).
            let take: (GrayImage) throws(RasterError) -> Bool = { image throws(RasterError) in
                count += 1
                if count > limit {
                    if stopping { return false }
                    throw .tooManyPictures(format: format.rawValue, limit: limit)
                }
                if count == 1 { pictures.append(image); return true }
                if count == 2 { body(pictures.removeFirst(), ImagePart(kind: format.pictureKind, number: 1)) }
                body(image, ImagePart(kind: format.pictureKind, number: count))
                return true
            }
            switch format {
            case .gif: try decodeGIFFrames(bytes, take)
            case .tiff: try decodeTIFFPages(bytes, take)
            default: try decodePDFPages(bytes, take)
            }
            // A file of several that holds none (a GIF of extension blocks only, a PDF of no
            // pages) is damaged, as an image file of one picture without its picture is.
            guard count > 0 else { throw .damaged(format: format.rawValue, reason: "no picture in it") }
            if let only = pictures.first { body(only, nil) }
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

/// Which picture of a file of several an image is: "page 3", "frame 2" (from 1).
public struct ImagePart: Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable { case page, frame }
    public let kind: Kind
    public let number: Int

    public init(kind: Kind, number: Int) {
        self.kind = kind
        self.number = number
    }

    public var description: String { "\(kind.rawValue) \(number)" }
}
