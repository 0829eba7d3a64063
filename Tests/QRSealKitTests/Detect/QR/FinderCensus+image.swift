@testable import QRSealKit

extension FinderCensus {
    /// The census of `image` binarized as the plan binarizes a copy (`Binarizer`): what the
    /// tests look at; the plan takes it from `PreparedImages`.
    init(_ image: GrayImage) {
        self.init(dark: Binarizer.binarized(image), width: image.width, height: image.height)
    }
}
