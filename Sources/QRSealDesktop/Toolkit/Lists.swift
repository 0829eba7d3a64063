import CGtk

/// `AdwActionRow`: a row of a list with a title, a subtitle, an icon before and widgets after.
final class Row: Widget {
    private var kept: [Widget] = []
    private var iconWidget: UnsafeMutablePointer<GtkWidget>?

    init(title: String, subtitle: String = "", icon: String? = nil) {
        super.init(sinking: UnsafeMutableRawPointer(adw_action_row_new()))
        set(title: title, subtitle: subtitle)
        if let icon { set(icon: icon) }
    }

    /// Title and subtitle, shown as plain text (never as markup: they come from outside).
    func set(title: String, subtitle: String) {
        adw_preferences_row_set_use_markup(p(), 0)
        adw_preferences_row_set_title(p(), title)
        adw_action_row_set_subtitle(p(), subtitle)
        adw_action_row_set_subtitle_lines(p(), 2)
        adw_action_row_set_title_lines(p(), 2)
        accessibleName = subtitle.isEmpty ? title : "\(title), \(subtitle)"
    }

    func set(icon: String) {
        if let iconWidget { adw_action_row_remove(p(), iconWidget) }
        let image = gtk_image_new_from_icon_name(icon)!
        adw_action_row_add_prefix(p(), image)
        iconWidget = image
    }

    func addSuffix(_ child: Widget) {
        kept.append(child)
        adw_action_row_add_suffix(p(), child.widget)
    }

    /// Makes the row activatable (Enter or a click activates it).
    func activatable(_ on: Bool = true) {
        gtk_list_box_row_set_activatable(p(), on ? 1 : 0)
    }
}

/// `GtkListBox` of `Row`s (or any widgets), in the boxed-list style.
final class ListBox: Widget {
    private(set) var rows: [Widget] = []

    init(name: String) {
        super.init(sinking: UnsafeMutableRawPointer(gtk_list_box_new()))
        gtk_list_box_set_selection_mode(p(), GTK_SELECTION_NONE)
        addStyle("boxed-list")
        accessibleName = name
    }

    func append(_ row: Widget) {
        rows.append(row)
        gtk_list_box_append(p(), row.widget)
    }

    func insert(_ row: Widget, at index: Int) {
        rows.insert(row, at: index)
        gtk_list_box_insert(p(), row.widget, Int32(index))
    }

    func remove(_ row: Widget) {
        guard let index = rows.firstIndex(where: { $0 === row }) else { return }
        gtk_list_box_remove(p(), row.widget)
        rows.remove(at: index)
    }

    func removeAll() {
        for row in rows { gtk_list_box_remove(p(), row.widget) }
        rows.removeAll()
    }

    /// Calls `body` with the index of a row activated (clicked, or Enter on it).
    func onActivate(_ body: @escaping (Int) -> Void) {
        onPointer("row-activated", { [unowned self] row in
            guard let row, let index = self.rows.firstIndex(where: { $0.raw == row }) else { return }
            body(index)
        })
    }

    /// Shown in place of the rows when there are none.
    func set(placeholder: Widget) {
        placeholderWidget = placeholder
        gtk_list_box_set_placeholder(p(), placeholder.widget)
    }

    private var placeholderWidget: Widget?
}

extension ListBox {
    /// Adds a row at the top.
    func prepend(_ row: Widget) {
        insert(row, at: 0)
    }
}
