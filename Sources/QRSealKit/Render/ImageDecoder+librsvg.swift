import CRsvg

extension ImageDecoder {
    /// The longer side an SVG is drawn at, at least: its own size when larger, within the
    /// pixel limit. A code drawn small in its units still gets enough pixels a module.
    public static let svgSide = 2048.0

    /// Draws an SVG onto white with librsvg on cairo (`rsvg_handle_new_from_data`,
    /// `rsvg_handle_get_intrinsic_size_in_pixels`, `rsvg_handle_render_document`). The data
    /// has no base file, so librsvg loads nothing else (no image or stylesheet it names).
    func decodeSVG(_ bytes: [UInt8]) throws(RasterError) -> GrayImage {
        do { try SharedLibrary.rsvg.load() } catch { throw .library(format: "SVG", error) }
        var error: UnsafeMutablePointer<qrseal_gerror>?
        guard let handle = bytes.withUnsafeBufferPointer({ rsvg_handle_new_from_data($0.baseAddress, UInt($0.count), &error) }) else {
            throw Self.rsvgError(error)
        }
        defer { g_object_unref(UnsafeMutableRawPointer(handle)) }
        var size = (width: 0.0, height: 0.0)
        // Without a size of its own (a width in percent, no viewBox), a square of svgSide.
        if rsvg_handle_get_intrinsic_size_in_pixels(handle, &size.width, &size.height) == 0
            || !(size.width > 0 && size.height > 0 && size.width.isFinite && size.height.isFinite) {
            size = (Self.svgSide, Self.svgSide)
        }
        let preferred = max(1, Self.svgSide / max(size.width, size.height))
        let scale = drawingScale(width: size.width, height: size.height, preferred: preferred)
        let (width, height) = pixelSize(size.width, size.height, scale: scale)
        return try drawn(format: "SVG", width: width, height: height, scale: scale) { cr throws(RasterError) in
            var viewport = RsvgRectangle(x: 0, y: 0, width: size.width, height: size.height)
            var error: UnsafeMutablePointer<qrseal_gerror>?
            guard rsvg_handle_render_document(handle, cr, &viewport, &error) != 0 else { throw Self.rsvgError(error) }
        }
    }

    /// librsvg's qrseal_gerror as a `RasterError`, freed.
    private static func rsvgError(_ error: UnsafeMutablePointer<qrseal_gerror>?) -> RasterError {
        guard let error else { return .damaged(format: "SVG", reason: "unreadable document") }
        defer { qrseal_g_error_free(error) }
        let message = error.pointee.message.map { String(cString: $0) } ?? "unreadable document"
        return .damaged(format: "SVG", libraryMessage: message)
    }
}
