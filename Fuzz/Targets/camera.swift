// A camera's buffers (`PixelFormat.luma`, `lumaAndChroma`), as a driver may fill them: any
// format, size and stride, any bytes. A frame is read or refused; its luma is the size asked,
// its chroma no larger, and nothing is read past the buffer (AddressSanitizer would say).
@testable import QRSealKit

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCamera(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = bytes(data, size)
    guard input.count >= 4 else { return 0 }
    let format = PixelFormat.allCases[Int(input[0]) % PixelFormat.allCases.count]
    let width = Int(input[1]) % 64 + 1, height = Int(input[2]) % 64 + 1
    let bytesPerLine = Int(input[3]) * 2
    let buffer = Array(input.dropFirst(4))
    buffer.withUnsafeBytes { raw in
        if let gray = try? format.luma(raw, width: width, height: height, bytesPerLine: bytesPerLine), format != .mjpeg, format != .jpeg {
            require(gray.width == width && gray.height == height, "luma \(gray.width)x\(gray.height) for \(width)x\(height)")
        }
        if let (gray, chroma) = try? format.lumaAndChroma(raw, width: width, height: height, bytesPerLine: bytesPerLine) {
            if let chroma {
                require(chroma.cb.count == chroma.width * chroma.height, "chroma plane size")
                if format != .mjpeg, format != .jpeg {
                    require(chroma.width <= width && chroma.height <= height, "chroma larger than the frame")
                }
                require(Frame(number: 1, time: 0, image: gray, chroma: chroma).rgb().count == 3 * gray.pixels.count, "RGB")
            }
        }
    }
    return 0
}
