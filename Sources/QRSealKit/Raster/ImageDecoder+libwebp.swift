import CWebP

extension ImageDecoder {
    /// Decodes a still WebP image (lossy or lossless) to grayscale, alpha over white, with
    /// libwebp's `WebPGetFeatures` (size checked before allocating) and `WebPDecodeRGBAInto`.
    /// An animated WebP is refused as unsupported.
    func decodeWebP(_ bytes: [UInt8]) throws(RasterError) -> GrayImage {
        do { try SharedLibrary.webp.load() } catch { throw .library(format: "WebP", error) }
        var features = WebPBitstreamFeatures()
        let status = bytes.withUnsafeBufferPointer { WebPGetFeatures($0.baseAddress, $0.count, &features) }
        switch status {
        case VP8_STATUS_OK: break
        case VP8_STATUS_NOT_ENOUGH_DATA: throw .damaged(format: "WebP", reason: "truncated")
        default: throw .damaged(format: "WebP", reason: Self.webpReason(status))
        }
        guard features.has_animation == 0 else { throw .unsupported(format: "WebP", reason: "animated images") }
        let width = Int(features.width), height = Int(features.height)
        try checkSize(width: width, height: height)
        let count = width * height * 4
        var decoded = false
        let rgba = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            decoded = bytes.withUnsafeBufferPointer { input in
                WebPDecodeRGBAInto(input.baseAddress, input.count, buffer.baseAddress, count, Int32(width * 4))
            } != nil
            if !decoded { buffer.initialize(repeating: 0) }
            initialized = count
        }
        // Features read from the header; the data after it may still end early or be damaged.
        guard decoded else { throw .damaged(format: "WebP", reason: "truncated or damaged image data") }
        return GrayImage(overWhite: rgba, width: width, height: height)
    }

    private static func webpReason(_ status: VP8StatusCode) -> String {
        switch status {
        case VP8_STATUS_BITSTREAM_ERROR: return "bad bitstream"
        case VP8_STATUS_UNSUPPORTED_FEATURE: return "a feature this reader lacks"
        case VP8_STATUS_OUT_OF_MEMORY: return "out of memory"
        default: return "unreadable data"
        }
    }
}
