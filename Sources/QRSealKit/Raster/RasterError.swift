/// Why an image could not be read or written.
public enum RasterError: Error, Equatable, Sendable {
    /// The input holds no bytes at all.
    case empty
    /// The first bytes match none of the formats we read (PNG, JPEG, PNM).
    case unknownFormat
    /// The header declares more pixels than the caller allows; nothing was allocated.
    case tooLarge(width: Int, height: Int, limit: Int)
    /// The header declares a zero or negative size.
    case badDimensions(width: Int, height: Int)
    /// The file is of a known format but damaged or truncated; the text says how.
    case damaged(format: String, reason: String)
    /// The file uses a feature of its format that we do not read.
    case unsupported(format: String, reason: String)
    /// Encoding an image failed; the text says how.
    case encodeFailed(reason: String)
}

extension RasterError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .empty:
            return "empty file"
        case .unknownFormat:
            return "not an image (expected PNG, JPEG or PNM)"
        case let .tooLarge(width, height, limit):
            let mp = Double(width) * Double(height) / 1_000_000
            return "image is \(width)x\(height) (\(formatMegapixels(mp)) megapixels), "
                + "above the limit of \(formatMegapixels(Double(limit) / 1_000_000)) megapixels"
        case let .badDimensions(width, height):
            return "image declares an invalid size \(width)x\(height)"
        case let .damaged(format, reason):
            return "damaged \(format) image: \(reason)"
        case let .unsupported(format, reason):
            return "unsupported \(format) image: \(reason)"
        case let .encodeFailed(reason):
            return "cannot encode image: \(reason)"
        }
    }
}

private func formatMegapixels(_ value: Double) -> String {
    if value >= 10 || value == value.rounded() { return String(Int(value.rounded())) }
    return String((value * 10).rounded() / 10)
}
