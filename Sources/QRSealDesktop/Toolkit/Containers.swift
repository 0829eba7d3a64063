import CGtk

/// `GtkBox`: children in a row or a column.
final class Box: Widget {
    enum Orientation { case horizontal, vertical }
    private(set) var children: [Widget] = []

    init(_ orientation: Orientation, spacing: Int = 0) {
        let o = orientation == .horizontal ? GTK_ORIENTATION_HORIZONTAL : GTK_ORIENTATION_VERTICAL
        super.init(sinking: UnsafeMutableRawPointer(gtk_box_new(o, Int32(spacing))))
    }

    func append(_ child: Widget) {
        children.append(child)
        gtk_box_append(p(), child.widget)
    }

    /// Inserts `child` after `sibling`, or first when `sibling` is nil.
    func insert(_ child: Widget, after sibling: Widget?) {
        let index = sibling.flatMap { s in children.firstIndex { $0 === s } }.map { $0 + 1 } ?? 0
        children.insert(child, at: index)
        gtk_box_insert_child_after(p(), child.widget, sibling?.widget)
    }

    func remove(_ child: Widget) {
        guard let index = children.firstIndex(where: { $0 === child }) else { return }
        gtk_box_remove(p(), child.widget)
        children.remove(at: index)
    }

    func removeAll() {
        for child in children { gtk_box_remove(p(), child.widget) }
        children.removeAll()
    }
}

/// `GtkOverlay`: a main child with others drawn over it.
final class Overlay: Widget {
    private var kept: [Widget] = []

    init(_ child: Widget) {
        super.init(sinking: UnsafeMutableRawPointer(gtk_overlay_new()))
        kept.append(child)
        gtk_overlay_set_child(p(), child.widget)
    }

    func add(overlay: Widget) {
        kept.append(overlay)
        gtk_overlay_add_overlay(p(), overlay.widget)
    }
}

/// `GtkScrolledWindow` around one child.
final class Scrolled: Widget {
    private let child: Widget

    init(_ child: Widget, horizontal: Bool = false) {
        self.child = child
        super.init(sinking: UnsafeMutableRawPointer(gtk_scrolled_window_new()))
        gtk_scrolled_window_set_child(p(), child.widget)
        gtk_scrolled_window_set_policy(p(), horizontal ? GTK_POLICY_AUTOMATIC : GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
    }
}

/// `GtkPaned`: two children side by side with a handle between.
final class Paned: Widget {
    private let first: Widget, second: Widget

    init(_ first: Widget, _ second: Widget, position: Int) {
        self.first = first
        self.second = second
        super.init(sinking: UnsafeMutableRawPointer(gtk_paned_new(GTK_ORIENTATION_HORIZONTAL)))
        gtk_paned_set_start_child(p(), first.widget)
        gtk_paned_set_end_child(p(), second.widget)
        gtk_paned_set_position(p(), Int32(position))
        gtk_paned_set_shrink_start_child(p(), 0)
        gtk_paned_set_shrink_end_child(p(), 0)
    }
}
