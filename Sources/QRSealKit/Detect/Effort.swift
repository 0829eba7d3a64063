/// How hard `Detector` tries on an image, like VisionKit's `qualityLevel`.
public enum Effort: String, CaseIterable, Sendable {
    /// zxing-cpp's quick search on the image as it is, once, then, when it read nothing,
    /// our own locator (`QRLocator`) for dense and curved QR codes: for live frames and
    /// clean images.
    case fast
    /// As `fast` (the locator whatever the quick search read), then, while nothing has been read or finder patterns lie outside every
    /// code read, both engines' own searches on the image as it is, then further passes
    /// (both engines on inverted, thresholded, sharpened and enlarged copies). On images up to 4 megapixels the passes that read
    /// something in measurement always run, and the time budget cuts only the rest. The
    /// default.
    case balanced
    /// Every pass, even after something was read, then both engines on overlapping tiles
    /// for crowded pictures, within a larger time budget.
    case thorough

    /// How long detection may go on starting further passes on an image of `pixels`
    /// pixels: a fixed part plus a part per megapixel, since every pass costs in proportion
    /// to the image's size. A pass that has started always runs to its end.
    public func timeBudget(pixels: Int) -> Duration {
        let megapixels = Double(pixels) / 1_000_000
        switch self {
        case .fast: return .zero
        case .balanced: return .milliseconds(10) + .milliseconds(20) * megapixels
        case .thorough: return .milliseconds(500) + .milliseconds(250) * megapixels
        }
    }
}
