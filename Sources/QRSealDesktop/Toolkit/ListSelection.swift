import CGtk

/// A `ListBox` whose rows can be selected one at a time (shown highlighted, moved with the
/// arrow keys): a list beside the details of its selected row.
extension ListBox {
    /// Lets one row be selected; `body` gets its index, or nil when none is.
    func selectsOne(_ body: @escaping (Int?) -> Void) {
        gtk_list_box_set_selection_mode(p(), GTK_SELECTION_SINGLE)
        onPointer("row-selected", { [unowned self] row in
            body(row.flatMap { row in self.rows.firstIndex { $0.raw == row } })
        })
    }

    /// Selects the row at `index` (nil or out of range: none).
    func select(_ index: Int?) {
        if let index, rows.indices.contains(index) {
            gtk_list_box_select_row(p(), rows[index].p())
        } else {
            gtk_list_box_unselect_all(p())
        }
    }
}

extension Widget {
    /// Whether the keyboard focus is on this widget or inside it (`gtk_root_get_focus`).
    var containsFocus: Bool {
        guard let root = gtk_widget_get_root(widget), let focus = gtk_root_get_focus(root) else { return false }
        return focus == widget || gtk_widget_is_ancestor(focus, widget) != 0
    }
}

extension ListBox {
    /// Gives the keyboard focus to the selected row, or to the list when none is.
    func focusSelected() {
        if let row = gtk_list_box_get_selected_row(p()) {
            _ = gtk_widget_grab_focus(UnsafeMutableRawPointer(row).assumingMemoryBound(to: GtkWidget.self))
        } else {
            grabFocus()
        }
    }
}
