import CGtk

/// `GdkMemoryTexture`: a picture in memory, ready to show.
final class Texture: Object {
    let width: Int, height: Int

    /// A texture of RGB pixels, 3 bytes each, rows `width * 3` bytes apart.
    convenience init(rgb pixels: [UInt8], width: Int, height: Int) {
        precondition(pixels.count == width * height * 3, "RGB pixels do not fill \(width)x\(height)")
        self.init(pixels, width: width, height: height, format: GDK_MEMORY_R8G8B8, bytesPerPixel: 3)
    }

    /// A texture of opaque pixels of 4 bytes each, B, G, R and A (premultiplied: the
    /// layout cairo draws from without converting), rows `width * 4` bytes apart.
    convenience init(bgra pixels: [UInt8], width: Int, height: Int) {
        precondition(pixels.count == width * height * 4, "BGRA pixels do not fill \(width)x\(height)")
        self.init(pixels, width: width, height: height, format: GDK_MEMORY_B8G8R8A8_PREMULTIPLIED, bytesPerPixel: 4)
    }

    private init(_ pixels: [UInt8], width: Int, height: Int, format: GdkMemoryFormat, bytesPerPixel: Int) {
        self.width = width
        self.height = height
        let bytes = pixels.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count)) }
        defer { g_bytes_unref(bytes) }
        super.init(owning: UnsafeMutableRawPointer(gdk_memory_texture_new(Int32(width), Int32(height), format,
                                                                         bytes, gsize(width * bytesPerPixel))))
    }
}

/// `GtkPicture`: shows a texture, scaled to fit and keeping its shape.
final class Picture: Widget {
    private(set) var texture: Texture?

    init(name: String) {
        super.init(sinking: UnsafeMutableRawPointer(gtk_picture_new()))
        gtk_picture_set_content_fit(p(), GTK_CONTENT_FIT_CONTAIN)
        accessibleName = name
    }

    func show(_ texture: Texture?) {
        self.texture = texture
        gtk_picture_set_paintable(p(), texture.map { OpaquePointer($0.raw) })
    }
}

/// `GtkDrawingArea`: drawn by a Swift function with cairo, and clicked.
final class DrawingArea: Widget {
    init(draw: @escaping (Painter) -> Void) {
        super.init(sinking: UnsafeMutableRawPointer(gtk_drawing_area_new()))
        gtk_drawing_area_set_draw_func(p(), { _, cairo, width, height, data in
            guard let cairo else { return }
            Handler<(Painter) -> Void>.from(data)(Painter(cairo: cairo, width: Double(width), height: Double(height)))
        }, Handler.retained(draw), releaseHandler)
    }

    /// Calls `body` with the place of each primary click.
    func onClick(_ body: @escaping (Double, Double) -> Void) {
        let gesture = Object(owning: UnsafeMutableRawPointer(gtk_gesture_click_new()))
        gesture.onPressed("pressed", { _, x, y in body(x, y) })
        add(gesture)
    }
}

/// Drawing with cairo inside a `DrawingArea`'s draw function.
struct Painter {
    let cairo: OpaquePointer
    let width: Double, height: Double

    func color(_ r: Double, _ g: Double, _ b: Double, _ a: Double = 1) { cairo_set_source_rgba(cairo, r, g, b, a) }

    func polygon(_ points: [(Double, Double)], lineWidth: Double, fill: Bool = false) {
        guard let first = points.first else { return }
        cairo_new_path(cairo)
        cairo_move_to(cairo, first.0, first.1)
        for p in points.dropFirst() { cairo_line_to(cairo, p.0, p.1) }
        cairo_close_path(cairo)
        cairo_set_line_width(cairo, lineWidth)
        cairo_set_line_join(cairo, CAIRO_LINE_JOIN_ROUND)
        if fill { cairo_fill_preserve(cairo) }
        cairo_stroke(cairo)
    }

    func rectangle(x: Double, y: Double, width: Double, height: Double, fill: Bool) {
        cairo_rectangle(cairo, x, y, width, height)
        fill ? cairo_fill(cairo) : cairo_stroke(cairo)
    }

    /// Draws `text` with its top-left corner at (x, y); answers its width and height.
    @discardableResult
    func text(_ text: String, x: Double, y: Double, size: Double, measureOnly: Bool = false) -> (Double, Double) {
        cairo_select_font_face(cairo, "Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD)
        cairo_set_font_size(cairo, size)
        var extents = cairo_text_extents_t()
        cairo_text_extents(cairo, text, &extents)
        if !measureOnly {
            cairo_move_to(cairo, x, y - extents.y_bearing)
            cairo_show_text(cairo, text)
        }
        return (extents.x_advance, extents.height)
    }
}
