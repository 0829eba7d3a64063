@testable import QRSealKit

extension FinderCensus {
    /// The census of `image` binarized as the plan binarizes a copy (`Binarizer`), taken as
    /// the plan takes the census of the image as it is: what the tests look at; the plan
    /// takes it from `PreparedImages`.
    init(_ image: GrayImage) {
        self.init(dark: Binarizer.binarized(image), width: image.width, height: image.height, besideCentre: true)
    }
}
