import CPNG

extension ImageDecoder {
    /// Decodes a PNG of any colour type, bit depth or interlacing to grayscale, wrapping
    /// libpng's simplified API (`png_image_begin_read_from_memory`, `png_image_finish_read`).
    ///
    /// Colour is reduced to luma with the BT.601 weights, as for JPEG and PNM; transparent
    /// areas are composited onto white; 16-bit files without gamma information are taken
    /// to be sRGB, like 8-bit ones.
    func decodePNG(_ bytes: [UInt8]) throws(RasterError) -> GrayImage {
        let (width, height, color, samples) = try readPNG(bytes, asColor: false)
        guard color else { return GrayImage(width: width, height: height, pixels: samples) }
        // Colour files are read as RGB and reduced with the BT.601 weights here, so a PNG
        // gives the same gray as the JPEG or PPM of the same picture; libpng's own
        // reduction works in linear light and would make red text far lighter.
        var pixels = [UInt8](repeating: 0, count: width * height)
        samples.withUnsafeBufferPointer { rgb in
            pixels.withUnsafeMutableBufferPointer { gray in
                for index in 0..<gray.count {
                    let r = Int(rgb[3 * index]), g = Int(rgb[3 * index + 1]), b = Int(rgb[3 * index + 2])
                    gray[index] = luma(r, g, b)
                }
            }
        }
        return GrayImage(width: width, height: height, pixels: pixels)
    }

    /// A PNG read as 8-bit RGB, whatever its colour type.
    func decodePNGColor(_ bytes: [UInt8]) throws(RasterError) -> RGBImage {
        let (width, height, _, samples) = try readPNG(bytes, asColor: true)
        return RGBImage(width: width, height: height, samples: samples)
    }

    /// The 8-bit samples of a PNG: RGB when `asColor` or when the file is in colour, else
    /// gray; `color` says which. Transparency is composited onto white.
    private func readPNG(_ bytes: [UInt8], asColor: Bool) throws(RasterError)
        -> (width: Int, height: Int, color: Bool, samples: [UInt8]) {
        var image = png_image()
        image.version = png_uint_32(PNG_IMAGE_VERSION)
        // Releases libpng's state on every path; a no-op once finish_read has run.
        defer { png_image_free(&image) }

        let began = bytes.withUnsafeBytes { raw in
            png_image_begin_read_from_memory(&image, raw.baseAddress, raw.count)
        }
        guard began != 0 else { throw .damaged(format: "PNG", libraryMessage: pngMessage(image)) }

        let width = Int(image.width)
        let height = Int(image.height)
        try checkSize(width: width, height: height)

        let color = asColor || image.format & png_uint_32(PNG_FORMAT_FLAG_COLOR) != 0
        let channels = color ? 3 : 1
        // libpng gives up past a png_int_32 row stride or a 4 GiB buffer, so those are
        // limits whatever the caller allows.
        let libraryLimit = Int(UInt32.max) / channels
        let (stride, overflow) = width.multipliedReportingOverflow(by: channels)
        guard !overflow, stride <= Int(Int32.max) else {
            throw .tooLarge(width: width, height: height, limit: min(maxPixels, libraryLimit))
        }

        image.format = png_uint_32(color ? PNG_FORMAT_FLAG_COLOR : 0)  // PNG_FORMAT_RGB or _GRAY
        // Only affects 16-bit files lacking gAMA/sRGB: libpng would take them as linear
        // light and brighten every mid-tone, unlike the viewers people check files with.
        image.flags |= png_uint_32(PNG_IMAGE_FLAG_16BIT_sRGB)

        // libpng composites any alpha onto this colour (for gray output, its green).
        var white = png_color(red: 255, green: 255, blue: 255)
        // libpng refuses buffers past 4 GiB only inside finish_read, after we would have
        // allocated one; refuse first.
        let (bufferSize, tooBig) = stride.multipliedReportingOverflow(by: height)
        guard !tooBig, bufferSize <= Int(UInt32.max) else {
            throw .tooLarge(width: width, height: height, limit: min(maxPixels, libraryLimit))
        }
        var finished: Int32 = 0
        // libpng writes every byte, so the buffer is left uninitialised.
        let samples = [UInt8](unsafeUninitializedCapacity: bufferSize) { buffer, count in
            finished = png_image_finish_read(&image, &white, buffer.baseAddress, png_int_32(stride), nil)
            count = bufferSize
        }
        guard finished != 0 else { throw .damaged(format: "PNG", libraryMessage: pngMessage(image)) }
        return (width, height, color, samples)
    }
}

/// Writes a `GrayImage` as PNG.
public enum PNGEncoder {
    /// Encodes `image` as PNG with libpng's `png_image_write_to_memory`, with its resolution
    /// in a pHYs chunk when `dpi` is given.
    ///
    /// An image holding only black (0) and white (255), such as a rendered symbol, is written
    /// as a 1-bit two-colour PNG; any other image as 8-bit grayscale.
    public static func encode(_ image: GrayImage, dpi: Int? = nil) throws(RasterError) -> [UInt8] {
        let png = try simplified(image)
        guard let dpi else { return png }
        return try withResolution(png, dpi: dpi)
    }

    /// `png` with a pHYs chunk of `dpi` dots per inch (as pixels per metre, rounded) right
    /// after IHDR, where the format wants it (before IDAT).
    ///
    /// libpng writes pHYs only through its full API (`png_set_pHYs`), whose errors are
    /// reported by `longjmp`, which Swift cannot take part in; the simplified API has no
    /// pHYs, so the chunk is added to its output, its CRC-32 from zlib's `crc32`.
    static func withResolution(_ png: [UInt8], dpi: Int) throws(RasterError) -> [UInt8] {
        guard dpi > 0 else { throw .encodeFailed(reason: "resolution must be positive, not \(dpi) dpi") }
        let perMetre = UInt32(clamping: Int((Double(dpi) / 0.0254).rounded()))
        // Signature (8), then IHDR: length (4), type (4), 13 bytes of data, CRC (4).
        let afterHeader = 8 + 4 + 4 + 13 + 4
        guard png.count > afterHeader, Array(png[12..<16]) == Array("IHDR".utf8) else {
            throw .encodeFailed(reason: "libpng's output does not start with IHDR")
        }
        let body = Array("pHYs".utf8) + bigEndian(perMetre) + bigEndian(perMetre) + [1]  // 1: the metre
        let crc = body.withUnsafeBufferPointer { UInt32(crc32(0, $0.baseAddress, uInt($0.count))) }
        let chunk = bigEndian(UInt32(body.count - 4)) + body + bigEndian(crc)
        return Array(png[..<afterHeader]) + chunk + Array(png[afterHeader...])
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        withUnsafeBytes(of: value.bigEndian, Array.init)
    }

    /// The PNG of `image` as libpng's simplified API writes it.
    private static func simplified(_ image: GrayImage) throws(RasterError) -> [UInt8] {
        guard image.width > 0, image.height > 0 else {
            throw .encodeFailed(reason: "image is empty (\(image.width)x\(image.height))")
        }
        guard image.width <= Int(Int32.max), image.height <= Int(Int32.max) else {
            throw .encodeFailed(reason: "image is too large for PNG (\(image.width)x\(image.height))")
        }

        let bilevel = image.pixels.allSatisfy { $0 == 0 || $0 == 255 }
        var png = png_image()
        png.version = png_uint_32(PNG_IMAGE_VERSION)
        png.width = png_uint_32(image.width)
        png.height = png_uint_32(image.height)
        // Both calls below free their own state, but an early failure may leave it behind.
        defer { png_image_free(&png) }

        let samples: [UInt8]
        let colormap: [UInt8]
        if bilevel {
            // With two colour-map entries libpng chooses a 1-bit palette, about an eighth
            // the size of 8-bit gray for the same symbol.
            // PNG_FORMAT_RGB_COLORMAP, spelled out because Swift cannot import that macro.
            png.format = png_uint_32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_COLORMAP)
            png.colormap_entries = 2
            samples = image.pixels.map { $0 == 0 ? 0 : 1 }
            colormap = [0, 0, 0, 255, 255, 255]
        } else {
            png.format = png_uint_32(PNG_FORMAT_GRAY)
            samples = image.pixels
            colormap = []
        }
        return try write(&png, samples: samples, stride: image.width,
                         colormap: bilevel ? colormap : nil)
    }

    /// Encodes `image` as 8-bit RGB PNG.
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
        return try write(&png, samples: image.samples, stride: image.width * 3, colormap: nil)
    }

    /// Runs `png_image_write_to_memory` twice: once for the size, once to write.
    private static func write(_ png: inout png_image, samples: [UInt8], stride: Int,
                              colormap: [UInt8]?) throws(RasterError) -> [UInt8] {
        let rowStride = png_int_32(stride)
        var size: png_alloc_size_t = 0
        let sized = samples.withUnsafeBytes { pixels in
            (colormap ?? []).withUnsafeBytes { map in
                png_image_write_to_memory(&png, nil, &size, 0, pixels.baseAddress, rowStride,
                                          colormap == nil ? nil : map.baseAddress)
            }
        }
        guard sized != 0, size > 0 else {
            throw .encodeFailed(reason: pngMessage(png, fallback: "libpng could not size the output"))
        }

        var output = [UInt8](repeating: 0, count: Int(size))
        let written = samples.withUnsafeBytes { pixels in
            (colormap ?? []).withUnsafeBytes { map in
                output.withUnsafeMutableBytes { out in
                    png_image_write_to_memory(&png, out.baseAddress, &size, 0, pixels.baseAddress,
                                              rowStride, colormap == nil ? nil : map.baseAddress)
                }
            }
        }
        guard written != 0, Int(size) <= output.count else {
            throw .encodeFailed(reason: pngMessage(png, fallback: "libpng could not write the output"))
        }
        output.removeLast(output.count - Int(size))
        return output
    }
}

/// The text libpng left in `png_image.message`, copied out of the fixed C array.
private func pngMessage(_ image: png_image, fallback: String = "") -> String {
    var message = image.message
    let text = withUnsafeBytes(of: &message) { raw -> String in
        let bytes = raw.prefix { $0 != 0 }
        return String(decoding: bytes, as: UTF8.self)
    }
    return text.isEmpty ? fallback : text
}
