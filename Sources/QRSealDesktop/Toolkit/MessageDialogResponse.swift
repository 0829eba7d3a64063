import CGtk

extension MessageDialog {
    /// Answers the dialog as if the button `id` was pressed (`adw_message_dialog_response`):
    /// Enter in its entry does what the default button does.
    /// The dialog then closes, as it does when a button is pressed.
    func respond(_ id: String) {
        adw_message_dialog_response(p(), id)
        gtk_window_close(p())
    }
}
