import CGtk

extension Widget {
    /// Runs `body` when the keys `trigger` names ("<Control>f", "Delete") are pressed while
    /// the keyboard focus is inside this widget: a `GtkShortcutController` of one
    /// `GtkShortcut` (trigger parsed by `gtk_shortcut_trigger_parse_string`, action a
    /// `GtkCallbackAction`). The widget owns the controller; the closure lives as long.
    func addShortcut(_ trigger: String, _ body: @escaping () -> Void) {
        guard let parsed = gtk_shortcut_trigger_parse_string(trigger) else {
            preconditionFailure("not a shortcut trigger: \(trigger)")
        }
        let action = gtk_callback_action_new({ _, _, data in
            Handler<() -> Void>.from(data)()
            return 1
        }, Handler.retained(body), releaseHandler)
        let controller = gtk_shortcut_controller_new()
        gtk_shortcut_controller_add_shortcut(controller, gtk_shortcut_new(parsed, action))
        gtk_widget_add_controller(widget, controller)
    }
}
