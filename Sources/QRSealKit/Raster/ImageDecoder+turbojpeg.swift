import CTurboJPEG

extension ImageDecoder {
    /// Decodes a baseline or progressive JPEG to grayscale and turns it upright by its EXIF
    /// orientation, wrapping TurboJPEG's `tjDecompressHeader3` and `tjDecompress2`.
    ///
    /// A file that ends early or whose scan data stops short is refused as damaged, even
    /// though libjpeg would hand back an image with a gray band in place of the missing
    /// part; other warnings (such as stray bytes between segments) leave a whole image and
    /// are ignored.
    func decodeJPEG(_ bytes: [UInt8]) throws(RasterError) -> GrayImage {
        let (width, height, pixels) = try readJPEG(bytes, format: TJPF_GRAY, channels: 1)
        let image = GrayImage(width: width, height: height, pixels: pixels)
        guard let orientation = ExifOrientation(jpeg: bytes) else { return image }
        return image.applying(orientation)
    }

    /// A JPEG decoded to RGB, with the same checks, and turned upright the same way.
    func decodeJPEGColor(_ bytes: [UInt8]) throws(RasterError) -> RGBImage {
        let (width, height, samples) = try readJPEG(bytes, format: TJPF_RGB, channels: 3)
        let image = RGBImage(width: width, height: height, samples: samples)
        guard let orientation = ExifOrientation(jpeg: bytes) else { return image }
        return image.applying(orientation)
    }

    /// The most scans a JPEG may have. Encoders write 6 (gray) or 10 (colour) progressive
    /// scans by default (`jpeg_simple_progression`), and those that optimise the scan script
    /// stay under a few dozen; each scan is a full pass over the image's coefficients, so a
    /// file of hundreds of tiny scans costs minutes. libjpeg-turbo's own limit
    /// (`TJFLAG_LIMITSCANS`, 500) still let a 490-scan file take about a minute.
    public static let maxScans = 100

    /// The header checks (too many scans and CMYK refused, size checked before allocating),
    /// then the pixels.
    private func readJPEG(_ bytes: [UInt8], format: TJPF, channels: Int) throws(RasterError)
        -> (width: Int, height: Int, samples: [UInt8]) {
        let scans = JPEGSegments(bytes).reduce(0) { $0 + ($1.marker == JPEGSegments.startOfScan ? 1 : 0) }
        guard scans <= Self.maxScans else { throw .tooManyScans(count: scans, limit: Self.maxScans) }
        let decompressor = try JPEGDecompressor()
        let (width, height, colorspace) = try decompressor.header(bytes)
        if colorspace == Int32(TJCS_CMYK.rawValue) || colorspace == Int32(TJCS_YCCK.rawValue) {
            throw .unsupported(format: "JPEG", reason: "CMYK colour")
        }
        try checkSize(width: width, height: height)
        let samples = try decompressor.decompress(bytes, width: width, height: height,
                                                  format: format, channels: channels)
        return (width, height, samples)
    }
}

/// Owns one TurboJPEG decompression handle (`tjInitDecompress`) and frees it with
/// `tjDestroy` when the value goes away, whichever way decoding ends.
private final class JPEGDecompressor {
    private let handle: tjhandle

    /// Creates the handle with `tjInitDecompress`.
    init() throws(RasterError) {
        guard let handle = tjInitDecompress() else {
            throw .damaged(format: "JPEG", libraryMessage: Self.message(nil))
        }
        self.handle = handle
    }

    deinit { tjDestroy(handle) }

    /// The declared width, height and TurboJPEG colourspace, read with `tjDecompressHeader3`.
    func header(_ bytes: [UInt8]) throws(RasterError) -> (width: Int, height: Int, colorspace: Int32) {
        var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = 0, colorspace: Int32 = 0
        let status = bytes.withUnsafeBufferPointer { buffer in
            tjDecompressHeader3(handle, buffer.baseAddress, UInt(buffer.count),
                                &width, &height, &subsampling, &colorspace)
        }
        // A warning (stray bytes before a marker, say) still yields the header; whether the
        // image is whole is for tjDecompress2 to find out.
        if status != 0, tjGetErrorCode(handle) == Int32(TJERR_FATAL.rawValue) || width == 0 || height == 0 {
            throw failure()
        }
        // A stream that ends before its frame header reads as tables only, with no size.
        guard width != 0 || height != 0 else {
            throw .damaged(format: "JPEG", reason: "truncated before the frame header")
        }
        return (Int(width), Int(height), colorspace)
    }

    /// The image as `channels` bytes per pixel, decoded with `tjDecompress2` into `format`.
    func decompress(_ bytes: [UInt8], width: Int, height: Int, format: TJPF, channels: Int) throws(RasterError) -> [UInt8] {
        var pixels = [UInt8](repeating: 255, count: width * height * channels)
        // LIMITSCANS refuses progressive files built with thousands of scans to burn CPU.
        let flags = Int32(TJFLAG_ACCURATEDCT | TJFLAG_LIMITSCANS)
        let status = bytes.withUnsafeBufferPointer { buffer in
            pixels.withUnsafeMutableBufferPointer { out in
                tjDecompress2(handle, buffer.baseAddress, UInt(buffer.count), out.baseAddress,
                              Int32(width), 0, Int32(height), Int32(format.rawValue), flags)
            }
        }
        if status != 0 {
            let error = failure()
            // A warning still fills the buffer; only those meaning missing data are fatal to us.
            if tjGetErrorCode(handle) == Int32(TJERR_FATAL.rawValue) || Self.isMissingData(error) {
                throw error
            }
        }
        return pixels
    }

    /// The current error as `.damaged`, naming truncation plainly.
    private func failure() -> RasterError {
        .damaged(format: "JPEG", libraryMessage: Self.message(handle))
    }

    private static func isMissingData(_ error: RasterError) -> Bool {
        error == .damaged(format: "JPEG", reason: "truncated")
    }

    /// The text of `tjGetErrorStr2`, copied out before the handle can change it.
    private static func message(_ handle: tjhandle?) -> String {
        guard let cString = tjGetErrorStr2(handle) else { return "" }
        return String(cString: cString)
    }
}
