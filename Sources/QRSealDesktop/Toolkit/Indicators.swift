import CGtk

/// `GtkImage` showing a named icon (a symbolic icon takes the style's colours).
final class Icon: Widget {
    /// `name` is the icon's; `description` what a screen reader says (none: decoration only).
    init(_ name: String, description: String? = nil) {
        super.init(sinking: UnsafeMutableRawPointer(gtk_image_new_from_icon_name(name)))
        if let description {
            accessibleName = description
            tooltip = description
        }
    }
}

/// `GtkProgressBar`: how far something has come, with a text over it.
final class ProgressBar: Widget {
    init(name: String) {
        super.init(sinking: UnsafeMutableRawPointer(gtk_progress_bar_new()))
        accessibleName = name
    }

    /// From 0 to 1.
    var fraction: Double {
        get { gtk_progress_bar_get_fraction(p()) }
        set { gtk_progress_bar_set_fraction(p(), min(1, max(0, newValue))) }
    }

    /// Shown on the bar (plain text).
    func show(text: String) {
        gtk_progress_bar_set_text(p(), text)
        gtk_progress_bar_set_show_text(p(), 1)
    }
}
