import CTIFF

extension ImageDecoder {
    /// Decodes every page (directory) of a TIFF to grayscale, alpha over white, with libtiff's
    /// RGBA interface on the bytes in memory (`TIFFClientOpenExt`, `TIFFRGBAImageBegin`,
    /// `TIFFRGBAImageGet`, `TIFFReadDirectory`); `take` returns false to stop early.
    ///
    /// libtiff's errors and warnings come to handlers of this one file
    /// (`TIFFOpenOptionsSetErrorHandlerExtR`), never to standard error: the first error is
    /// the `RasterError`'s reason. Its single allocations are capped at the pixel limit's
    /// worth of RGBA, so that a header cannot make it allocate past what we would.
    func decodeTIFFPages(_ bytes: [UInt8], _ take: (GrayImage) throws(RasterError) -> Bool) throws(RasterError) {
        do { try SharedLibrary.tiff.load() } catch { throw .library(format: "TIFF", error) }
        let source = TIFFSource(bytes)
        guard let options = TIFFOpenOptionsAlloc() else { throw .damaged(format: "TIFF", reason: "out of memory") }
        defer { TIFFOpenOptionsFree(options) }
        let context = Unmanaged.passUnretained(source).toOpaque()
        TIFFOpenOptionsSetErrorHandlerExtR(options, tiffError, context)
        TIFFOpenOptionsSetWarningHandlerExtR(options, tiffWarning, context)
        let (budget, overflow) = maxPixels.multipliedReportingOverflow(by: 4)
        TIFFOpenOptionsSetMaxSingleMemAlloc(options, tmsize_t(overflow ? Int.max : max(budget, 1 << 24)))
        let opened = withExtendedLifetime(source) {
            TIFFClientOpenExt("image", "rm", context, tiffRead, tiffWrite, tiffSeek, tiffClose, tiffSize,
                              tiffMap, tiffUnmap, options)
        }
        guard let tiff = opened else { throw source.failure(otherwise: "not a readable TIFF") }
        defer { withExtendedLifetime(source) { TIFFClose(tiff) } }
        repeat {
            let page = try withExtendedLifetime(source) { () throws(RasterError) in try readPage(tiff, source) }
            guard try take(page) else { return }
        } while withExtendedLifetime(source, { TIFFReadDirectory(tiff) }) != 0
        if source.firstError != nil { throw source.failure(otherwise: "") }
    }

    /// The current directory's picture.
    private func readPage(_ tiff: OpaquePointer, _ source: TIFFSource) throws(RasterError) -> GrayImage {
        var image = TIFFRGBAImage()
        var message = [CChar](repeating: 0, count: 1024)
        guard TIFFRGBAImageBegin(&image, tiff, 0, &message) != 0 else {
            throw source.failure(otherwise: String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        defer { TIFFRGBAImageEnd(&image) }
        let width = Int(image.width), height = Int(image.height)
        try checkSize(width: width, height: height)
        image.req_orientation = UInt16(ORIENTATION_TOPLEFT)
        var raster = [UInt32](repeating: 0, count: width * height)
        guard TIFFRGBAImageGet(&image, &raster, UInt32(width), UInt32(height)) != 0 else {
            throw source.failure(otherwise: "unreadable image data")
        }
        // Packed R, G, B, A from the low byte up, colour premultiplied by alpha.
        let pixels = [UInt8](unsafeUninitializedCapacity: width * height) { gray, count in
            for i in 0..<(width * height) {
                let p = raster[i]
                let y = Int(luma(Int(p & 0xFF), Int(p >> 8 & 0xFF), Int(p >> 16 & 0xFF))), a = Int(p >> 24)
                gray[i] = UInt8(min(255, y + 255 - a))
            }
            count = width * height
        }
        return GrayImage(width: width, height: height, pixels: pixels)
    }
}

/// The bytes libtiff reads through the procedures below, and the first error it reported.
private final class TIFFSource {
    let bytes: [UInt8]
    var offset = 0
    var firstError: String?

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// The error libtiff reported, or `otherwise`; a read past the end is "truncated".
    func failure(otherwise: String) -> RasterError {
        let message = firstError ?? otherwise
        let lower = message.lowercased()
        if lower.contains("read error") || lower.contains("cannot read") || lower.contains("premature")
            || lower.contains("not enough") || lower.contains("past end") || lower.contains("seek error") {
            return .damaged(format: "TIFF", reason: "truncated or damaged (\(message))")
        }
        return .damaged(format: "TIFF", libraryMessage: message)
    }

    static func from(_ handle: UnsafeMutableRawPointer?) -> TIFFSource? {
        handle.map { Unmanaged<TIFFSource>.fromOpaque($0).takeUnretainedValue() }
    }
}

/// Keeps libtiff's first error message (formatted with vsnprintf); returning 1 stops libtiff's
/// own handlers, which would print it.
private func tiffError(_ tiff: OpaquePointer?, _ user: UnsafeMutableRawPointer?, _ module: UnsafePointer<CChar>?,
                       _ format: UnsafePointer<CChar>?, _ arguments: CVaListPointer?) -> Int32 {
    guard let source = TIFFSource.from(user), let format, let arguments else { return 1 }
    if source.firstError == nil {
        var buffer = [CChar](repeating: 0, count: 512)
        _ = vsnprintf(&buffer, buffer.count, format, arguments)
        source.firstError = String(cString: buffer)
    }
    return 1
}

/// Warnings (unknown tags and the like) leave a readable image: dropped.
private func tiffWarning(_ tiff: OpaquePointer?, _ user: UnsafeMutableRawPointer?, _ module: UnsafePointer<CChar>?,
                         _ format: UnsafePointer<CChar>?, _ arguments: CVaListPointer?) -> Int32 { 1 }

private func tiffRead(_ handle: UnsafeMutableRawPointer?, _ buffer: UnsafeMutableRawPointer?, _ size: tmsize_t) -> tmsize_t {
    guard let source = TIFFSource.from(handle), let buffer, size > 0 else { return 0 }
    let n = max(0, min(Int(size), source.bytes.count - source.offset))
    if n > 0 {
        source.bytes.withUnsafeBytes { buffer.copyMemory(from: $0.baseAddress! + source.offset, byteCount: n) }
    }
    source.offset += n
    return tmsize_t(n)
}

private func tiffWrite(_ handle: UnsafeMutableRawPointer?, _ buffer: UnsafeMutableRawPointer?, _ size: tmsize_t) -> tmsize_t { 0 }

private func tiffSeek(_ handle: UnsafeMutableRawPointer?, _ offset: toff_t, _ whence: Int32) -> toff_t {
    guard let source = TIFFSource.from(handle) else { return toff_t.max }
    let base: Int
    switch whence {
    case SEEK_SET: base = 0
    case SEEK_CUR: base = source.offset
    case SEEK_END: base = source.bytes.count
    default: return toff_t.max
    }
    // Offsets are unsigned; a relative seek backwards arrives as a huge value.
    let (target, overflow) = base.addingReportingOverflow(Int(truncatingIfNeeded: offset))
    guard !overflow, target >= 0 else { return toff_t.max }
    source.offset = target
    return toff_t(target)
}

private func tiffClose(_ handle: UnsafeMutableRawPointer?) -> Int32 { 0 }

private func tiffSize(_ handle: UnsafeMutableRawPointer?) -> toff_t {
    toff_t(TIFFSource.from(handle)?.bytes.count ?? 0)
}

/// No mapping: libtiff then reads through tiffRead, which checks every length.
private func tiffMap(_ handle: UnsafeMutableRawPointer?, _ base: UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
                     _ size: UnsafeMutablePointer<toff_t>?) -> Int32 { 0 }

private func tiffUnmap(_ handle: UnsafeMutableRawPointer?, _ base: UnsafeMutableRawPointer?, _ size: toff_t) {}
