import CGtk

extension Widget {
    /// Calls `began`, `moved` and `ended` with a primary-button drag's start and offset, in
    /// widget coordinates (`GtkGestureDrag`).
    func onDrag(began: @escaping (Double, Double) -> Void, moved: @escaping (Double, Double) -> Void,
                ended: @escaping (Double, Double) -> Void) {
        let gesture = Object(owning: UnsafeMutableRawPointer(gtk_gesture_drag_new()))
        gesture.onPoint("drag-begin", began)
        gesture.onPoint("drag-update", moved)
        gesture.onPoint("drag-end", ended)
        add(gesture)
    }

    /// Calls `body` with the paths of files dropped on the widget (`GtkDropTarget` of
    /// `GdkFileList`); answers whether they were taken.
    func onDropFiles(_ body: @escaping ([String]) -> Bool) {
        let target = Object(owning: UnsafeMutableRawPointer(gtk_drop_target_new(gdk_file_list_get_type(), GDK_ACTION_COPY)))
        target.onDrop("drop") { value in
            guard let value, let list = g_value_get_boxed(value) else { return false }
            var paths: [String] = []
            var node = gdk_file_list_get_files(OpaquePointer(list))
            let head = node
            while let current = node {
                if let file = current.pointee.data, let path = takeString(g_file_get_path(OpaquePointer(file))) {
                    paths.append(path)
                }
                node = current.pointee.next
            }
            g_slist_free(head)
            return body(paths)
        }
        add(target)
    }

    /// Calls `body` for a key pressed while the widget has focus (`GtkEventControllerKey`):
    /// the key's name (`gdk_keyval_name`: "v", "Escape") and whether Control was held.
    func onKeyPress(_ body: @escaping (String, Bool) -> Bool) {
        let controller = Object(owning: UnsafeMutableRawPointer(gtk_event_controller_key_new()))
        controller.onKey("key-pressed") { keyval, state in
            let name = gdk_keyval_name(keyval).map { String(cString: $0) } ?? ""
            return body(name, state & GDK_CONTROL_MASK.rawValue != 0)
        }
        add(controller)
    }
}

extension Object {
    /// A signal with two doubles ("drag-begin", "drag-update", "drag-end").
    @discardableResult
    func onPoint(_ signal: String, _ body: @escaping (Double, Double) -> Void) -> UInt {
        UInt(qrs_signal_connect(raw, signal, unsafeBitCast(pointThunk, to: UnsafeMutableRawPointer.self),
                                Handler.retained(body), { data, _ in releaseHandler(data) }))
    }
}

private let pointThunk: @convention(c) (UnsafeMutableRawPointer?, Double, Double, UnsafeMutableRawPointer?) -> Void = {
    _, x, y, data in Handler<(Double, Double) -> Void>.from(data)(x, y)
}
