// Files of several pictures and the formats read through Debian's libraries or our own BMP
// reader (`ImageDecoder.decodeEach`: BMP, GIF, TIFF, WebP, PDF, SVG, chosen by their first
// bytes): any bytes are refused with an error or give pictures within the pixel and picture
// limits whose buffers match their sizes, numbered from 1 in order when there are several.
@testable import QRSealKit

/// Small, so that a header declaring a large image, or a page drawn large, is refused or
/// drawn small rather than allocated.
let limit = 1 << 18
let pictures = 8

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPictures(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = bytes(data, size)
    let decoder = ImageDecoder(maxPixels: limit, maxPictures: pictures)
    var count = 0
    var numbers: [Int] = []
    do {
        try decoder.decodeEach(input) { image, part in
            count += 1
            require(image.width > 0 && image.height > 0, "an image of \(image.width)x\(image.height)")
            require(image.width * image.height <= limit, "\(image.width)x\(image.height) passes the limit \(limit)")
            require(image.pixels.count == image.width * image.height, "buffer does not match the size")
            if let part { numbers.append(part.number) }
        }
    } catch {
        require(!error.description.isEmpty, "an error without a description")
        return 0
    }
    require(count >= 1 && count <= pictures, "\(count) pictures")
    require(numbers.isEmpty ? count == 1 : numbers == Array(1...count), "pictures numbered \(numbers)")
    return 0
}
