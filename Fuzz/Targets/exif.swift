// EXIF orientation (`ExifOrientation(jpeg:)` and `(tiff:)`): the JPEG marker walk and the
// TIFF IFD read never trap, and an orientation found turns an image into one of the
// expected size that turns back.
@testable import QRSealKit

let sample = GrayImage(width: 3, height: 2, pixels: [1, 2, 3, 4, 5, 6])

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzExif(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = bytes(data, size)
    // The input as a whole JPEG, and as the TIFF body of an EXIF segment.
    for orientation in [ExifOrientation(jpeg: input), ExifOrientation(tiff: input[...])] {
        guard let orientation else { continue }
        let turned = sample.applying(orientation)
        let swaps = orientation.rawValue >= 5
        require(turned.width == (swaps ? sample.height : sample.width), "width after \(orientation)")
        require(turned.pixels.sorted() == sample.pixels, "pixels lost after \(orientation)")
    }
    return 0
}
