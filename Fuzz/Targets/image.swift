// Image files (`ImageDecoder.decode`: PNG, JPEG and PNM chosen by their first bytes): any
// bytes are refused with an error or give an image within the pixel limit whose buffer
// matches its size.
@testable import QRSealKit

/// Small, so that a header declaring a large image is refused rather than allocated.
let limit = 1 << 18

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzImage(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = bytes(data, size)
    let decoder = ImageDecoder(maxPixels: limit)
    guard let image = try? decoder.decode(input) else { return 0 }
    require(image.width > 0 && image.height > 0, "an image of \(image.width)x\(image.height)")
    require(image.width * image.height <= limit, "\(image.width)x\(image.height) passes the limit \(limit)")
    require(image.pixels.count == image.width * image.height, "buffer does not match the size")
    // Colour PNGs are read a second way (for --annotate); it must agree on the size.
    if ImageDecoder.sniff(input) == .png, let color = try? decoder.decodePNGColor(input) {
        require(color.width == image.width && color.height == image.height, "colour and gray sizes differ")
    }
    return 0
}
