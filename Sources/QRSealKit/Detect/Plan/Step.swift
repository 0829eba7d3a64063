import FoundationEssentials
import Glibc

/// One way of preparing a copy of the image for an engine, and how its points map back.
enum Step: Hashable, Sendable {
    /// A light border of this fraction of the larger side, but never wider than the smaller
    /// side (a code is no larger than that): codes printed to the edge lack the quiet zone
    /// both engines need.
    case pad(Double)
    /// Shrunk so the larger side is at most this many pixels, when it is larger.
    case shrinkTo(Int)
    /// Shrunk by area averaging so that it holds at most this many pixels, when it holds
    /// more: the smaller level of a pyramid, on which a large photo's copies are made.
    case fitPixels(Int)
    /// The rectangle (`x`, `y`, `width`, `height`) of the image, clipped to it: a region
    /// around finder patterns that no code read explains.
    case region(x: Int, y: Int, width: Int, height: Int)
    /// Enlarged by a whole factor, pixel blocks kept hard, so the smaller side reaches at
    /// least this many pixels; does not apply to images already that large.
    case enlargeTo(Int)
    /// Smoothly enlarged by this factor, when the smaller side is below 600 pixels.
    case upscale(Double)
    /// Unsharp mask over a square of this radius.
    case sharpen(radius: Int)
    /// Box blur over a square of this radius: noise and halftone dots merge.
    case blur(radius: Int)
    /// Local threshold over a square of this fraction of the smaller side.
    case threshold(Double)
    /// Light and dark swapped, for light-on-dark codes.
    case invert
    /// Levels darkened by this gamma (`GrayImage.darkened(gamma:)`): the light gaps of
    /// bars blurred into a washed-out photo stand apart from the bars again.
    case darken(Double)
    /// Dark areas grown by this many pixels: dot-shaped modules touch again.
    case growDark(Int)
    /// Light areas grown by this many pixels: noise specks and ink bleed go.
    case growLight(Int)
    /// Tile (`column`, `row`) of `count` × `count` overlapping tiles, each 2/(count+1) of a
    /// side: a page of many small codes, each large within its tile.
    case tile(count: Int, column: Int, row: Int)

    /// Enlarged copies are made only up to this many pixels: a long thin image must not
    /// become a huge one.
    static let maxEnlargedPixels = 16_000_000

    /// The prepared copy and its mapping to the image it was made from, or nil when this
    /// step does not apply to an image of this size or its copy would hold more than
    /// `maxPixels` pixels.
    func apply(to image: GrayImage, maxPixels: Int) -> (GrayImage, PixelMapping)? {
        let w = image.width, h = image.height
        let maxEnlarged = min(maxPixels, Self.maxEnlargedPixels)
        switch self {
        case .pad(let fraction):
            let border = min(max(4, Int(Double(max(w, h)) * fraction)), max(4, min(w, h)))
            guard Self.fits(w + 2 * border, h + 2 * border, maxPixels) else { return nil }
            return (image.padded(by: border), .offset(-Double(border), -Double(border)))
        case .shrinkTo(let side):
            guard max(w, h) > side, let small = image.scaled(by: Double(side) / Double(max(w, h))) else { return nil }
            return (small, .scaled(Double(small.width) / Double(w), Double(small.height) / Double(h)))
        case .fitPixels(let most):
            guard w * h > most, let small = image.scaled(by: (Double(most) / Double(w * h)).squareRoot()) else { return nil }
            return (small, .scaled(Double(small.width) / Double(w), Double(small.height) / Double(h)))
        case let .region(x, y, width, height):
            guard let part = image.cropped(x: x, y: y, width: width, height: height) else { return nil }
            return (part, .offset(Double(max(0, x)), Double(max(0, y))))
        case .enlargeTo(let side):
            guard min(w, h) < side else { return nil }
            let factor = min(8, (side + min(w, h) - 1) / max(1, min(w, h)))
            guard factor >= 2, Self.fits(w * factor, h * factor, maxEnlarged),
                  let big = image.enlarged(by: factor) else { return nil }
            return (big, .scaled(Double(factor), Double(factor)))
        case .upscale(let factor):
            guard min(w, h) < 600, let big = image.scaled(by: factor, maxPixels: maxEnlarged) else { return nil }
            return (big, .scaled(Double(big.width) / Double(w), Double(big.height) / Double(h)))
        case .sharpen(let radius):
            return (image.sharpened(radius: radius), .identity)
        case .blur(let radius):
            return (image.boxBlurred(radius: radius), .identity)
        case .threshold(let fraction):
            let radius = max(3, Int(Double(min(w, h)) * fraction))
            return (image.adaptiveThreshold(radius: radius), .identity)
        case .invert:
            return (image.inverted(), .identity)
        case .darken(let gamma):
            return (image.darkened(gamma: gamma), .identity)
        case .growDark(let radius):
            return (image.morphed(radius: radius, keepDarkest: true), .identity)
        case .growLight(let radius):
            return (image.morphed(radius: radius, keepDarkest: false), .identity)
        case let .tile(count, column, row):
            let x = column * w / (count + 1), y = row * h / (count + 1)
            guard min(w, h) / (count + 1) >= 48,
                  let part = image.cropped(x: x, y: y, width: 2 * w / (count + 1), height: 2 * h / (count + 1))
            else { return nil }
            return (part, .offset(Double(x), Double(y)))
        }
    }

    /// Whether a `width` × `height` image holds at most `maxPixels` pixels, without overflow.
    private static func fits(_ width: Int, _ height: Int, _ maxPixels: Int) -> Bool {
        let (product, overflow) = width.multipliedReportingOverflow(by: height)
        return !overflow && product <= maxPixels
    }
}
