import CGtk

/// A plain `GtkWindow` shown full screen over the app's window, with one child; Escape
/// (or closing it any other way) closes it and calls `closed`.
final class FullscreenWindow: Widget {
    private let child: Widget
    private let keys: Object
    private var closed: (() -> Void)?

    init(parent: Widget, title: String, child: Widget, closed: @escaping () -> Void) {
        self.child = child
        self.closed = closed
        keys = Object(owning: UnsafeMutableRawPointer(gtk_event_controller_key_new()))
        super.init(sinking: UnsafeMutableRawPointer(gtk_window_new()))
        // A toplevel is owned by GTK's list of windows as well; ours is the reference we keep.
        gtk_window_set_title(p(), title)
        if let parent = parent.rootWindow {
            gtk_window_set_transient_for(p(), parent)
            let native = OpaquePointer(UnsafeMutableRawPointer(parent))
            if let surface = gtk_native_get_surface(native),
               let monitor = gdk_display_get_monitor_at_surface(gdk_surface_get_display(surface), surface) {
                var area = GdkRectangle()
                gdk_monitor_get_geometry(monitor, &area)
                gtk_window_set_default_size(p(), area.width, area.height)
            }
        }
        gtk_window_set_child(p(), child.widget)
        accessibleName = title
        keys.onKey("key-pressed") { [unowned self] key, _ in
            guard key == UInt32(GDK_KEY_Escape) else { return false }
            self.close()
            return true
        }
        add(keys)
        onHandled("close-request") { [unowned self] in
            let body = self.closed
            self.closed = nil
            body?()
            return false
        }
    }

    /// Shows the window, full screen; without a window manager to make it so (Xvfb), it
    /// still opens as large as the parent's monitor.
    func present() {
        gtk_window_fullscreen(p())
        gtk_window_present(p())
    }

    func close() { gtk_window_close(p()) }
}
