/// Why a sheet, an animation or an animated image could not be made.
public enum RenderError: Error, Equatable, Sendable {
    /// The message has no symbol to draw.
    case noSymbols
    /// More symbols than a sheet or an animated image takes (`limit`); refused before drawing.
    case tooManySymbols(count: Int, limit: Int)
    /// `perPage` codes of `version` do not fit a page of `paper` at the smallest module
    /// size a sheet prints; `fits` do.
    case tooDense(perPage: Int, fits: Int, version: Int, paper: Paper)
    /// A frame would be larger than `limit` pixels a side.
    case frameTooLarge(side: Int, limit: Int)
    /// All frames together would be more than `limit` pixels.
    case animationTooLarge(pixels: Int, limit: Int)
    /// A frame rate outside what the format can show.
    case frameRate(Double)
    /// cairo failed while writing the PDF; its own text.
    case pdf(reason: String)
    /// giflib failed while writing the GIF; its own text.
    case gif(reason: String)
    /// cairo or giflib, opened on first use, cannot be loaded.
    case library(LibraryError)
}

extension RenderError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .noSymbols:
            return "nothing to draw: the message has no code"
        case let .tooManySymbols(count, limit):
            return "the message takes \(count) codes, more than the \(limit) a sheet or animation holds"
        case let .tooDense(perPage, fits, version, paper):
            let mm = Sheet.minimumModuleMillimetres
            return "\(perPage) codes of version \(version) do not fit a \(paper.displayName) page with modules "
                + "of at least \(mm) mm; at most \(fits) do"
        case let .frameTooLarge(side, limit):
            return "a frame would be \(side) pixels wide, more than \(limit)"
        case let .animationTooLarge(pixels, limit):
            return "the frames would be \(pixels) pixels in all, more than \(limit); a smaller scale makes fewer"
        case let .frameRate(fps):
            return "cannot show \(fps) frames per second"
        case let .pdf(reason):
            return "cannot write the PDF: \(reason)"
        case let .gif(reason):
            return "cannot write the GIF: \(reason)"
        case let .library(error):
            return error.description
        }
    }
}
