/// How hard `Detector` tries on an image, like VisionKit's `qualityLevel`.
public enum Effort: String, CaseIterable, Sendable {
    /// zxing-cpp's quick search on the image as it is, once, then, when it read nothing,
    /// our own locator (`QRLocator`) for dense and curved QR codes: for live frames and
    /// clean images.
    case fast
    /// As `fast`, then, while nothing has been read or finder patterns or bars lie outside
    /// every code read, both engines' own searches on the image as it is, the locator again with
    /// a wider tolerance for blurred finder patterns, both engines on each region around
    /// finder patterns no code read explains, then further passes (both engines on
    /// inverted, thresholded and enlarged copies, made from a copy shrunk to 4
    /// megapixels for a larger photo). The default.
    case balanced
    /// Every pass, even after something was read, then both engines on overlapping tiles
    /// for crowded pictures.
    case thorough

    /// How much CPU time detection's budgeted stages may spend on an image of `pixels`
    /// pixels before no further one starts: a fixed part plus a part per megapixel, since
    /// every pass costs in proportion to the image's size. CPU time, not the clock, so that a
    /// loaded machine does not reach it sooner. A safety net against a pathological input,
    /// many times what an image takes, so that what an effort reads does not depend on the
    /// machine. A pass that has started always runs to its end. `fast` has no budgeted stage
    /// today; it has `balanced`'s net, so that one added to it runs.
    public func timeBudget(pixels: Int) -> TimeBudget {
        let megapixels = Double(pixels) / 1_000_000
        switch self {
        case .fast, .balanced: return .cpu(.seconds(10) + .seconds(2) * megapixels)
        case .thorough: return .cpu(.seconds(30) + .seconds(5) * megapixels)
        }
    }
}
