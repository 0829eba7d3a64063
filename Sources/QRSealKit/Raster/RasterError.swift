/// Why an image could not be read or written.
public enum RasterError: Error, Equatable, Sendable {
    /// The input holds no bytes at all.
    case empty
    /// The first bytes match none of the formats we read (`ImageDecoder.Format`).
    case unknownFormat
    /// A file of more pages or frames than `ImageDecoder.maxPictures`.
    case tooManyPictures(format: String, limit: Int)
    /// The header declares more pixels than the caller allows; nothing was allocated.
    case tooLarge(width: Int, height: Int, limit: Int)
    /// The header declares a zero or negative size.
    case badDimensions(width: Int, height: Int)
    /// The file is of a known format but damaged or truncated; the text says how.
    case damaged(format: String, reason: String)
    /// A JPEG made of more scans than `limit` (`ImageDecoder.maxScans`); refused before decoding.
    case tooManyScans(count: Int, limit: Int)
    /// The file uses a feature of its format that we do not read.
    case unsupported(format: String, reason: String)
    /// Encoding an image failed; the text says how.
    case encodeFailed(reason: String)
    /// The library that reads this format could not be opened.
    case library(format: String, LibraryError)
}

extension RasterError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .empty:
            return "empty file"
        case .unknownFormat:
            return "not an image (expected PNG, JPEG, PNM, BMP, GIF, TIFF, WebP, PDF or SVG)"
        case let .tooManyPictures(format, limit):
            return "\(format) file has more than \(limit) pages or frames"
        case let .tooLarge(width, height, limit):
            return "image is \(width)x\(height) (\(pixelCount(Double(width) * Double(height)))), "
                + "above the limit of \(pixelCount(Double(limit)))"
        case let .badDimensions(width, height):
            return "image declares an invalid size \(width)x\(height)"
        case let .damaged(format, reason):
            return "damaged \(format) image: \(reason)"
        case let .tooManyScans(count, limit):
            return "JPEG image has \(count) scans, more than the \(limit) this reader decodes"
        case let .unsupported(format, reason):
            return "unsupported \(format) image: \(reason)"
        case let .encodeFailed(reason):
            return "cannot encode image: \(reason)"
        case let .library(format, error):
            return "cannot read \(format) images: \(error)"
        }
    }
}

/// "12 megapixels", "2.5 megapixels", or "4000 pixels" below one megapixel.
private func pixelCount(_ pixels: Double) -> String {
    guard pixels >= 1_000_000 else { return "\(Int(pixels)) pixels" }
    let mp = pixels / 1_000_000
    if mp >= 10 || mp == mp.rounded() { return "\(Int(mp.rounded())) megapixels" }
    return "\((mp * 10).rounded() / 10) megapixels"
}

extension RasterError {
    /// `.damaged` for a C library's own message, lowercased at the start to read like ours
    /// ("Invalid IHDR data" → "invalid IHDR data"), with its ways of saying the file ends
    /// early all reported as "truncated".
    static func damaged(format: String, libraryMessage message: String) -> RasterError {
        let lower = message.lowercased()
        let truncation = ["read beyond end of data", "premature end of jpeg file",
                          "premature end of data segment", "not enough image data"]
        if truncation.contains(where: lower.contains) { return .damaged(format: format, reason: "truncated") }
        var reason = message.isEmpty ? "unreadable data" : message
        // Keep acronyms such as "IDAT" or "JPEG" as they are.
        if let first = reason.first, first.isUppercase, reason.dropFirst().first?.isUppercase != true {
            reason = first.lowercased() + reason.dropFirst()
        }
        return .damaged(format: format, reason: reason)
    }
}
