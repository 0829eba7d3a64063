import CGtk

/// `GtkMenuButton` opening a `GtkPopover` that holds any widget (a column of check buttons).
final class MenuButton: Widget {
    private let content: Widget
    private let popover: AnyWidget

    init(icon: String, name: String, content: Widget) {
        self.content = content
        let popover = gtk_popover_new()!
        gtk_popover_set_child(UnsafeMutableRawPointer(popover).assumingMemoryBound(to: GtkPopover.self), content.widget)
        self.popover = AnyWidget(popover)
        super.init(sinking: UnsafeMutableRawPointer(gtk_menu_button_new()))
        gtk_menu_button_set_icon_name(p(), icon)
        gtk_menu_button_set_popover(p(), popover)
        tooltip = name
        accessibleName = name
    }
}
