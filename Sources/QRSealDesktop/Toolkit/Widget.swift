import CGtk

/// A GTK widget owned by Swift. Subclasses create their widget and add what is particular
/// to it; what every widget has (accessible name, tooltip, sensitivity, layout hints, style
/// classes, controllers) is here.
class Widget: Object {
    var widget: UnsafeMutablePointer<GtkWidget> { p() }

    /// The name a screen reader announces (the accessible label).
    var accessibleName: String = "" {
        didSet { qrs_accessible_set_label(raw, accessibleName) }
    }

    /// A longer description for screen readers.
    func describe(_ text: String) { qrs_accessible_set_description(raw, text) }

    var tooltip: String? {
        get { gtk_widget_get_tooltip_text(widget).map { String(cString: $0) } }
        set { gtk_widget_set_tooltip_text(widget, newValue) }
    }

    var isSensitive: Bool {
        get { gtk_widget_get_sensitive(widget) != 0 }
        set { gtk_widget_set_sensitive(widget, newValue ? 1 : 0) }
    }

    var isVisible: Bool {
        get { gtk_widget_get_visible(widget) != 0 }
        set { gtk_widget_set_visible(widget, newValue ? 1 : 0) }
    }

    var expandsHorizontally: Bool {
        get { gtk_widget_get_hexpand(widget) != 0 }
        set { gtk_widget_set_hexpand(widget, newValue ? 1 : 0) }
    }

    var expandsVertically: Bool {
        get { gtk_widget_get_vexpand(widget) != 0 }
        set { gtk_widget_set_vexpand(widget, newValue ? 1 : 0) }
    }

    var width: Int { Int(gtk_widget_get_width(widget)) }
    var height: Int { Int(gtk_widget_get_height(widget)) }
    /// Device pixels per unit of `width` and `height` (2 on a doubled display).
    var scaleFactor: Int { Int(gtk_widget_get_scale_factor(widget)) }

    enum Align { case fill, start, end, center }

    func align(horizontal: Align? = nil, vertical: Align? = nil) {
        if let horizontal { gtk_widget_set_halign(widget, horizontal.gtk) }
        if let vertical { gtk_widget_set_valign(widget, vertical.gtk) }
    }

    func margins(_ all: Int) { margins(top: all, bottom: all, start: all, end: all) }

    func margins(top: Int, bottom: Int, start: Int, end: Int) {
        gtk_widget_set_margin_top(widget, Int32(top))
        gtk_widget_set_margin_bottom(widget, Int32(bottom))
        gtk_widget_set_margin_start(widget, Int32(start))
        gtk_widget_set_margin_end(widget, Int32(end))
    }

    func minimumSize(width: Int = -1, height: Int = -1) {
        gtk_widget_set_size_request(widget, Int32(width), Int32(height))
    }

    func addStyle(_ name: String) { gtk_widget_add_css_class(widget, name) }
    func removeStyle(_ name: String) { gtk_widget_remove_css_class(widget, name) }

    func grabFocus() { _ = gtk_widget_grab_focus(widget) }

    func queueDraw() { gtk_widget_queue_draw(widget) }

    /// Adds an event controller; the widget takes it, and `controller` keeps its own reference.
    func add(_ controller: Object) {
        g_object_ref(controller.raw)
        gtk_widget_add_controller(widget, controller.p())
    }

    /// The clipboard of the widget's display.
    var clipboard: Clipboard { Clipboard(gtk_widget_get_clipboard(widget)) }

    /// The window the widget is in, if any (for dialogs' parents).
    var rootWindow: UnsafeMutablePointer<GtkWindow>? {
        guard let root = gtk_widget_get_root(widget) else { return nil }
        return UnsafeMutableRawPointer(root).assumingMemoryBound(to: GtkWindow.self)
    }
}

extension Widget.Align {
    var gtk: GtkAlign {
        switch self {
        case .fill: return GTK_ALIGN_FILL
        case .start: return GTK_ALIGN_START
        case .end: return GTK_ALIGN_END
        case .center: return GTK_ALIGN_CENTER
        }
    }
}

/// A widget made elsewhere (by GTK, or by a constructor without a class of its own here).
final class AnyWidget: Widget {
    init(_ pointer: UnsafeMutablePointer<GtkWidget>) { super.init(sinking: UnsafeMutableRawPointer(pointer)) }
}

/// `GdkClipboard`: text and pictures to the clipboard, and back.
struct Clipboard {
    let pointer: OpaquePointer

    init(_ pointer: OpaquePointer) { self.pointer = pointer }

    func set(text: String) { gdk_clipboard_set_text(pointer, text) }

    func set(texture: Texture) { gdk_clipboard_set_texture(pointer, texture.p()) }
}
