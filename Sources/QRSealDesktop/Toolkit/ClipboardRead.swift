import CGtk

extension Clipboard {
    /// What the clipboard holds, read without blocking: a picture as RGBA bytes, or text.
    enum Contents {
        case picture(width: Int, height: Int, rgba: [UInt8])
        case text(String)
        case nothing
    }

    /// Reads the clipboard (`gdk_clipboard_read_texture_async`, else `…_read_text_async`);
    /// `body` runs on the main thread with what it held.
    func read(_ body: @escaping (Contents) -> Void) {
        let formats = gdk_clipboard_get_formats(pointer)
        if gdk_content_formats_contain_gtype(formats, gdk_texture_get_type()) != 0 {
            gdk_clipboard_read_texture_async(pointer, nil, { source, result, data in
                let body = Unmanaged<Handler<(Contents) -> Void>>.fromOpaque(data!).takeRetainedValue().body
                guard let texture = gdk_clipboard_read_texture_finish(OpaquePointer(source), result, nil) else {
                    return body(.nothing)
                }
                defer { g_object_unref(UnsafeMutableRawPointer(texture)) }
                let width = Int(gdk_texture_get_width(texture)), height = Int(gdk_texture_get_height(texture))
                guard width > 0, height > 0, width * height <= 1 << 26 else { return body(.nothing) }
                var rgba = [UInt8](repeating: 0, count: width * height * 4)
                rgba.withUnsafeMutableBufferPointer { gdk_texture_download(texture, $0.baseAddress, gsize(width * 4)) }
                body(.picture(width: width, height: height, rgba: rgba))
            }, Handler.retained(body))
        } else {
            gdk_clipboard_read_text_async(pointer, nil, { source, result, data in
                let body = Unmanaged<Handler<(Contents) -> Void>>.fromOpaque(data!).takeRetainedValue().body
                let text = takeString(gdk_clipboard_read_text_finish(OpaquePointer(source), result, nil))
                body(text.map { .text($0) } ?? .nothing)
            }, Handler.retained(body))
        }
    }
}

/// Whether a D-Bus name has an owner on the session bus (`org.freedesktop.DBus.NameHasOwner`),
/// asked without blocking; `body` runs on the main thread.
func sessionBusHasOwner(_ name: String, _ body: @escaping (Bool) -> Void) {
    guard let bus = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, nil) else { return body(false) }
    defer { g_object_unref(UnsafeMutableRawPointer(bus)) }
    g_dbus_connection_call(bus, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "NameHasOwner",
                           g_variant_new_tuple([g_variant_new_string(name)], 1), nil, G_DBUS_CALL_FLAGS_NONE, 2000, nil,
                           { source, result, data in
        let body = Unmanaged<Handler<(Bool) -> Void>>.fromOpaque(data!).takeRetainedValue().body
        guard let reply = g_dbus_connection_call_finish(OpaquePointer(source), result, nil) else { return body(false) }
        defer { g_variant_unref(reply) }
        let value = g_variant_get_child_value(reply, 0)
        defer { g_variant_unref(value) }
        body(g_variant_get_boolean(value) != 0)
    }, Handler.retained(body))
}
