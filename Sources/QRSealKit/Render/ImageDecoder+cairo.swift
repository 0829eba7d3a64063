import CCairo

extension ImageDecoder {
    /// What PDF pages and SVG images are drawn on: a white `width` × `height` cairo image
    /// surface (`cairo_image_surface_create`, CAIRO_FORMAT_RGB24) scaled by `scale`, handed to
    /// `draw` as a `cairo_t`, then read back as gray. The size is checked against the pixel
    /// limit first; `format` names the file's format in errors.
    func drawn(format: String, width: Int, height: Int, scale: Double,
               _ draw: (OpaquePointer) throws(RasterError) -> Void) throws(RasterError) -> GrayImage {
        try checkSize(width: width, height: height)
        guard width <= 32767, height <= 32767 else { throw .tooLarge(width: width, height: height, limit: maxPixels) }
        do { try SharedLibrary.cairo.load() } catch { throw .library(format: format, error) }
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(width), Int32(height)) else {
            throw .damaged(format: format, reason: "no image surface")
        }
        defer { cairo_surface_destroy(surface) }
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS, let cr = cairo_create(surface) else {
            throw .damaged(format: format, reason: String(cString: cairo_status_to_string(cairo_surface_status(surface))))
        }
        defer { cairo_destroy(cr) }
        cairo_set_source_rgb(cr, 1, 1, 1)
        cairo_paint(cr)
        cairo_scale(cr, scale, scale)
        try draw(cr)
        cairo_surface_flush(surface)
        let stride = Int(cairo_image_surface_get_stride(surface))
        guard let data = cairo_image_surface_get_data(surface) else { throw .damaged(format: format, reason: "no image data") }
        // RGB24: a 32-bit word per pixel, blue in its low byte.
        let pixels = [UInt8](unsafeUninitializedCapacity: width * height) { gray, count in
            for y in 0..<height {
                let row = data + y * stride
                for x in 0..<width {
                    gray[y * width + x] = luma(Int(row[4 * x + 2]), Int(row[4 * x + 1]), Int(row[4 * x]))
                }
            }
            count = width * height
        }
        return GrayImage(width: width, height: height, pixels: pixels)
    }

    /// The pixels a `width` × `height` page covers at `scale` (a part of a pixel at the edge
    /// dropped, so that a page scaled to the pixel limit stays within it); at least one.
    func pixelSize(_ width: Double, _ height: Double, scale: Double) -> (width: Int, height: Int) {
        func pixels(_ length: Double) -> Int {
            let scaled = (length * scale).rounded(.down)
            return scaled.isFinite ? Int(max(1, min(scaled, 1e9))) : 1
        }
        return (pixels(width), pixels(height))
    }

    /// The scale from a page's units to pixels: `preferred`, lowered until a `width` × `height`
    /// page fits within the pixel limit.
    func drawingScale(width: Double, height: Double, preferred: Double) -> Double {
        guard width > 0, height > 0, width.isFinite, height.isFinite else { return preferred }
        return min(preferred, (Double(maxPixels) / (width * height)).squareRoot() * 0.999)
    }
}
