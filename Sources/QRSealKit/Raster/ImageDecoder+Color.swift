import CPNG
import CTurboJPEG

extension ImageDecoder {
    /// Decodes `bytes` in colour, for pictures people look at (an annotated copy of an
    /// input), with the same size limits and geometry as `decode(_:)`: transparency over
    /// white, JPEG EXIF orientation applied. PNM images come back gray in RGB form.
    public func decodeColor(_ bytes: [UInt8]) throws(RasterError) -> RGBImage {
        guard !bytes.isEmpty else { throw .empty }
        switch Self.sniff(bytes) {
        case .png?: return try decodePNGColor(bytes)
        case .jpeg?: return try decodeJPEGColor(bytes)
        case .pnm?: return RGBImage(try decodePNM(bytes))
        case nil: throw .unknownFormat
        }
    }

    /// A PNG read as 8-bit RGB through libpng's simplified API (`png_image_finish_read`
    /// with `PNG_FORMAT_RGB`).
    private func decodePNGColor(_ bytes: [UInt8]) throws(RasterError) -> RGBImage {
        var image = png_image()
        image.version = png_uint_32(PNG_IMAGE_VERSION)
        defer { png_image_free(&image) }
        let began = bytes.withUnsafeBytes { raw in
            png_image_begin_read_from_memory(&image, raw.baseAddress, raw.count)
        }
        guard began != 0 else { throw .damaged(format: "PNG", libraryMessage: libpngMessage(image)) }
        let width = Int(image.width), height = Int(image.height)
        try checkSize(width: width, height: height)
        // libpng refuses row strides past png_int_32 and buffers past 4 GiB; refuse first.
        let stride = width * 3
        let (size, overflow) = stride.multipliedReportingOverflow(by: height)
        guard stride <= Int(Int32.max), !overflow, size <= Int(UInt32.max) else {
            throw .tooLarge(width: width, height: height, limit: min(maxPixels, Int(UInt32.max) / 3))
        }
        image.format = png_uint_32(PNG_FORMAT_FLAG_COLOR)
        image.flags |= png_uint_32(PNG_IMAGE_FLAG_16BIT_sRGB)
        var white = png_color(red: 255, green: 255, blue: 255)
        var finished: Int32 = 0
        let samples = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            finished = png_image_finish_read(&image, &white, buffer.baseAddress, png_int_32(stride), nil)
            count = size
        }
        guard finished != 0 else { throw .damaged(format: "PNG", libraryMessage: libpngMessage(image)) }
        return RGBImage(width: width, height: height, samples: samples)
    }

    /// A JPEG read as RGB with TurboJPEG (`tjDecompressHeader3`, `tjDecompress2` into
    /// `TJPF_RGB`) and turned upright by its EXIF orientation.
    private func decodeJPEGColor(_ bytes: [UInt8]) throws(RasterError) -> RGBImage {
        guard let handle = tjInitDecompress() else {
            throw .damaged(format: "JPEG", libraryMessage: "cannot start the decoder")
        }
        defer { tjDestroy(handle) }
        var w: Int32 = 0, h: Int32 = 0, subsampling: Int32 = 0, colorspace: Int32 = 0
        let header = bytes.withUnsafeBufferPointer {
            tjDecompressHeader3(handle, $0.baseAddress, UInt($0.count), &w, &h, &subsampling, &colorspace)
        }
        guard header == 0 || tjGetErrorCode(handle) != Int32(TJERR_FATAL.rawValue), w > 0, h > 0 else {
            throw .damaged(format: "JPEG", libraryMessage: String(cString: tjGetErrorStr2(handle)))
        }
        if colorspace == Int32(TJCS_CMYK.rawValue) || colorspace == Int32(TJCS_YCCK.rawValue) {
            throw .unsupported(format: "JPEG", reason: "CMYK colour")
        }
        let width = Int(w), height = Int(h)
        try checkSize(width: width, height: height)
        var samples = [UInt8](repeating: 255, count: width * height * 3)
        let flags = Int32(TJFLAG_ACCURATEDCT | TJFLAG_LIMITSCANS)
        let status = bytes.withUnsafeBufferPointer { src in
            samples.withUnsafeMutableBufferPointer { dst in
                tjDecompress2(handle, src.baseAddress, UInt(src.count), dst.baseAddress,
                              w, 0, h, Int32(TJPF_RGB.rawValue), flags)
            }
        }
        // As for gray: a warning still fills the buffer, a fatal error does not.
        if status != 0, tjGetErrorCode(handle) == Int32(TJERR_FATAL.rawValue) {
            throw .damaged(format: "JPEG", libraryMessage: String(cString: tjGetErrorStr2(handle)))
        }
        let image = RGBImage(width: width, height: height, samples: samples)
        guard let orientation = ExifOrientation(jpeg: bytes) else { return image }
        return image.applying(orientation)
    }
}

extension PNGEncoder {
    /// Encodes `image` as 8-bit RGB PNG with libpng's `png_image_write_to_memory`.
    public static func encode(_ image: RGBImage) throws(RasterError) -> [UInt8] {
        guard image.width > 0, image.height > 0 else {
            throw .encodeFailed(reason: "image is empty (\(image.width)x\(image.height))")
        }
        guard image.width * 3 <= Int(Int32.max), image.height <= Int(Int32.max) else {
            throw .encodeFailed(reason: "image is too large for PNG (\(image.width)x\(image.height))")
        }
        var png = png_image()
        png.version = png_uint_32(PNG_IMAGE_VERSION)
        png.width = png_uint_32(image.width)
        png.height = png_uint_32(image.height)
        png.format = png_uint_32(PNG_FORMAT_FLAG_COLOR)
        defer { png_image_free(&png) }
        let stride = png_int_32(image.width * 3)
        var size: png_alloc_size_t = 0
        let sized = image.samples.withUnsafeBytes {
            png_image_write_to_memory(&png, nil, &size, 0, $0.baseAddress, stride, nil)
        }
        guard sized != 0, size > 0 else { throw .encodeFailed(reason: "libpng could not size the output") }
        var output = [UInt8](repeating: 0, count: Int(size))
        let written = image.samples.withUnsafeBytes { pixels in
            output.withUnsafeMutableBytes { out in
                png_image_write_to_memory(&png, out.baseAddress, &size, 0, pixels.baseAddress, stride, nil)
            }
        }
        guard written != 0, Int(size) <= output.count else {
            throw .encodeFailed(reason: "libpng could not write the output")
        }
        output.removeLast(output.count - Int(size))
        return output
    }
}

/// The text libpng left in `png_image.message`, copied out of the fixed C array.
private func libpngMessage(_ image: png_image) -> String {
    var message = image.message
    return withUnsafeBytes(of: &message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
}
