import CCairo

extension Sheet {
    /// The sheet as a PDF document, drawn with cairo's PDF surface
    /// (`cairo_pdf_surface_create_for_stream`): each code one path of filled rectangles, one
    /// per run of dark modules, so that it prints sharp at any resolution; text in DejaVu
    /// Sans through cairo's toy font API, embedded as a subset with its Unicode mapping.
    public func pdf(progress: ((_ drawn: Int, _ total: Int) -> Void)? = nil) throws(RenderError) -> [UInt8] {
        try PDFWriter.write(drawing, progress: progress)
    }
}

/// Owns the cairo surface and context of one PDF and the bytes cairo hands back.
final class PDFWriter {
    var bytes: [UInt8] = []

    /// `progress` is told of every code drawn, and of how many there are.
    static func write(_ drawing: SheetDrawing, progress: ((Int, Int) -> Void)? = nil) throws(RenderError) -> [UInt8] {
        try load(.cairo)
        let writer = PDFWriter()
        let closure = Unmanaged.passUnretained(writer).toOpaque()
        guard let surface = cairo_pdf_surface_create_for_stream({ closure, data, length in
            guard let closure, let data else { return CAIRO_STATUS_WRITE_ERROR }
            let writer = Unmanaged<PDFWriter>.fromOpaque(closure).takeUnretainedValue()
            writer.bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(length)))
            return CAIRO_STATUS_SUCCESS
        }, closure, drawing.width, drawing.height) else { throw .pdf(reason: "no surface") }
        defer { cairo_surface_destroy(surface) }
        try check(cairo_surface_status(surface))
        cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_TITLE, drawing.title)
        cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_SUBJECT, drawing.subject)
        cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATOR, "qrseal")
        guard let cr = cairo_create(surface) else { throw .pdf(reason: "no context") }
        defer { cairo_destroy(cr) }
        let total = drawing.pages.reduce(0) { $0 + $1.codes.count }
        var drawn = 0
        for page in drawing.pages {
            cairo_set_source_rgb(cr, 0, 0, 0)
            for code in page.codes {
                try draw(code, on: cr)
                drawn += 1
                progress?(drawn, total)
            }
            for text in page.texts { draw(text, on: cr) }
            cairo_show_page(cr)
            try check(cairo_status(cr))
        }
        cairo_surface_finish(surface)
        try check(cairo_surface_status(surface))
        return withExtendedLifetime(writer) { writer.bytes }
    }

    private static func check(_ status: cairo_status_t) throws(RenderError) {
        guard status != CAIRO_STATUS_SUCCESS else { return }
        throw .pdf(reason: String(cString: cairo_status_to_string(status)))
    }

    /// One rectangle per horizontal run of dark modules, all filled as one path, drawn in
    /// module units on a recording surface that the page paints scaled: cairo writes it as a
    /// form whose coordinates are whole numbers, a third the size of the same path in points.
    private static func draw(_ code: SheetDrawing.Code, on cr: OpaquePointer) throws(RenderError) {
        let m = code.matrix
        var extents = cairo_rectangle_t(x: 0, y: 0, width: Double(m.size), height: Double(m.size))
        guard let form = cairo_recording_surface_create(CAIRO_CONTENT_COLOR_ALPHA, &extents) else {
            throw .pdf(reason: "no recording surface")
        }
        defer { cairo_surface_destroy(form) }
        guard let pen = cairo_create(form) else { throw .pdf(reason: "no context") }
        defer { cairo_destroy(pen) }
        m.modules.withUnsafeBufferPointer { modules in
            for y in 0..<m.size {
                let row = y * m.size
                var x = 0
                while x < m.size {
                    guard modules[row + x] else { x += 1; continue }
                    let start = x
                    while x < m.size && modules[row + x] { x += 1 }
                    cairo_rectangle(pen, Double(start), Double(y), Double(x - start), 1)
                }
            }
        }
        cairo_set_source_rgb(pen, 0, 0, 0)
        cairo_fill(pen)
        try check(cairo_status(pen))
        cairo_save(cr)
        cairo_translate(cr, code.x, code.y)
        cairo_scale(cr, code.module, code.module)
        cairo_set_source_surface(cr, form, 0, 0)
        cairo_paint(cr)
        cairo_restore(cr)
    }

    static func draw(_ text: SheetDrawing.Text, on cr: OpaquePointer) {
        cairo_select_font_face(cr, text.style == .mono ? "DejaVu Sans Mono" : "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL,
                               text.style == .bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL)
        let (line, width) = fitted(text, on: cr)
        let x: Double
        switch text.align {
        case .left: x = text.x
        case .center: x = text.x - width / 2
        case .right: x = text.x - width
        }
        cairo_move_to(cr, x, text.y)
        cairo_show_text(cr, line)
    }

    /// The text and its width once it fits `text.width`: set smaller down to 6 points, then
    /// shortened in the middle, where a long file name keeps its start and its extension.
    private static func fitted(_ text: SheetDrawing.Text, on cr: OpaquePointer) -> (String, Double) {
        var size = text.size
        cairo_set_font_size(cr, size)
        var width = advance(text.text, on: cr)
        while width > text.width && size > 6 {
            size = max(6, size - 0.5)
            cairo_set_font_size(cr, size)
            width = advance(text.text, on: cr)
        }
        var characters = Array(text.text)
        var line = text.text
        while width > text.width && characters.count > 2 {
            characters.remove(at: characters.count / 2)
            let half = characters.count / 2
            line = String(characters[..<half]) + "…" + String(characters[half...])
            width = advance(line, on: cr)
        }
        return (line, width)
    }

    private static func advance(_ text: String, on cr: OpaquePointer) -> Double {
        var extents = cairo_text_extents_t()
        cairo_text_extents(cr, text, &extents)
        return extents.x_advance
    }
}

/// A line of text drawn as pixels with cairo's image surface (`cairo_image_surface_create`,
/// CAIRO_FORMAT_A8), for the label under each frame of an animated GIF.
enum TextStrip {
    /// `text` centred in black on a white strip of `width` × `height` pixels, shortened to fit.
    static func image(_ text: String, width: Int, height: Int) throws(RenderError) -> GrayImage {
        try load(.cairo)
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_A8, Int32(width), Int32(height)) else {
            throw .gif(reason: "no image surface")
        }
        defer { cairo_surface_destroy(surface) }
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS, let cr = cairo_create(surface) else {
            throw .gif(reason: String(cString: cairo_status_to_string(cairo_surface_status(surface))))
        }
        defer { cairo_destroy(cr) }
        // A8 holds coverage: the text is drawn opaque, then read back as dark on light.
        let size = Double(height) * 0.6
        PDFWriter.draw(SheetDrawing.Text(text: text, x: Double(width) / 2, y: Double(height) * 0.72, size: size,
                                         align: .center, width: Double(width) - 4), on: cr)
        cairo_surface_flush(surface)
        let stride = Int(cairo_image_surface_get_stride(surface))
        guard let data = cairo_image_surface_get_data(surface) else { throw .gif(reason: "no image data") }
        var image = GrayImage(width: width, height: height, filledWith: 255)
        for y in 0..<height {
            for x in 0..<width where data[y * stride + x] >= 128 { image.pixels[y * width + x] = 0 }
        }
        return image
    }
}

/// Opens `library` (cairo, giflib) before the first call into it, as a `RenderError`.
func load(_ library: SharedLibrary) throws(RenderError) {
    do { try library.load() } catch { throw .library(error) }
}
