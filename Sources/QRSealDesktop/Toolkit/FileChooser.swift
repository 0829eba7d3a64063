import CGtk

/// `GtkFileChooserNative`: the desktop's own file chooser (a portal's when there is one),
/// to open a file or to name one to save.
enum FileChooser {
    enum Purpose { case open, save(suggested: String) }

    /// Asks for a file; `body` gets its path, or nothing when the user cancels.
    static func ask(_ purpose: Purpose, title: String, parent: Widget, accept: String,
                    patterns: [(name: String, pattern: String)] = [], _ body: @escaping (String?) -> Void) {
        let action: GtkFileChooserAction
        switch purpose {
        case .open: action = GTK_FILE_CHOOSER_ACTION_OPEN
        case .save: action = GTK_FILE_CHOOSER_ACTION_SAVE
        }
        let native = Object(owning: UnsafeMutableRawPointer(gtk_file_chooser_native_new(title, parent.rootWindow, action,
                                                                                        accept, "_Cancel")))
        if case .save(let suggested) = purpose { gtk_file_chooser_set_current_name(native.p(), suggested) }
        for (name, pattern) in patterns {
            let filter = gtk_file_filter_new()!
            gtk_file_filter_set_name(filter, name)
            gtk_file_filter_add_pattern(filter, pattern)
            gtk_file_chooser_add_filter(native.p(), filter)
            g_object_unref(UnsafeMutableRawPointer(filter))
        }
        var keep: Object? = native
        native.onInteger("response", { response in
            var path: String?
            if response == Int(GTK_RESPONSE_ACCEPT.rawValue), let file = gtk_file_chooser_get_file(native.p()) {
                path = takeString(g_file_get_path(file))
                g_object_unref(UnsafeMutableRawPointer(file))
            }
            body(path)
            keep = nil
        })
        gtk_native_dialog_set_modal(native.p(), 1)
        gtk_native_dialog_show(native.p())
        _ = keep
    }
}

extension Object {
    /// A signal with one integer argument ("response" of a native dialog).
    @discardableResult
    func onInteger(_ signal: String, _ body: @escaping (Int) -> Void) -> UInt {
        UInt(qrs_signal_connect(raw, signal, unsafeBitCast(integerThunk, to: UnsafeMutableRawPointer.self),
                                Handler.retained(body), { data, _ in releaseHandler(data) }))
    }
}

private let integerThunk: @convention(c) (UnsafeMutableRawPointer?, Int32, UnsafeMutableRawPointer?) -> Void = {
    _, value, data in Handler<(Int) -> Void>.from(data)(Int(value))
}
