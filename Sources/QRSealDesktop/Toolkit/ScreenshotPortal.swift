import CGtk

/// The desktop's Screenshot portal (`org.freedesktop.portal.Screenshot`): the user picks what
/// to capture in the desktop's own dialog, and the portal answers with a file. Where no
/// portal answers (a bare X server, a desktop without one) `checkAvailable` says so.
enum ScreenshotPortal {
    private static let service = "org.freedesktop.portal.Desktop"
    private static let path = "/org/freedesktop/portal/desktop"
    private static let interface = "org.freedesktop.portal.Screenshot"

    /// Asks the portal for its version, which only a running portal with a screenshot
    /// backend gives; `body` runs on the main thread.
    static func checkAvailable(_ body: @escaping (Bool) -> Void) {
        guard let bus = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, nil) else { return body(false) }
        defer { g_object_unref(UnsafeMutableRawPointer(bus)) }
        let arguments = g_variant_new_tuple([g_variant_new_string(interface), g_variant_new_string("version")], 2)
        g_dbus_connection_call(bus, service, path, "org.freedesktop.DBus.Properties", "Get", arguments, nil,
                               G_DBUS_CALL_FLAGS_NONE, 3000, nil, { source, result, data in
            let body = Unmanaged<Handler<(Bool) -> Void>>.fromOpaque(data!).takeRetainedValue().body
            let reply = g_dbus_connection_call_finish(OpaquePointer(source), result, nil)
            if let reply { g_variant_unref(reply) }
            body(reply != nil)
        }, Handler.retained(body))
    }

    /// Takes a screenshot through the portal (interactive: the desktop asks what to take);
    /// `body` gets the picture's file path, or nil when the user cancels or it fails.
    static func take(_ body: @escaping (String?) -> Void) {
        guard let bus = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, nil) else { return body(nil) }
        let connection = Object(owning: UnsafeMutableRawPointer(bus))
        // The request's answer comes as a Response signal on a request object; subscribe to
        // every Response of the portal and take the first, which is ours (one request at a time).
        var subscription: guint = 0
        let finish = Handler<(String?) -> Void>.retained({ path in
            g_dbus_connection_signal_unsubscribe(connection.p(), subscription)
            body(path)
        })
        subscription = g_dbus_connection_signal_subscribe(connection.p(), service, "org.freedesktop.portal.Request", "Response",
                                                          nil, nil, G_DBUS_SIGNAL_FLAGS_NONE, { _, _, _, _, _, parameters, data in
            let finish = Handler<(String?) -> Void>.from(data)
            var uri: String?
            if let parameters, g_variant_n_children(parameters) == 2 {
                let code = g_variant_get_child_value(parameters, 0)!
                let results = g_variant_get_child_value(parameters, 1)!
                defer { g_variant_unref(code); g_variant_unref(results) }
                if g_variant_get_uint32(code) == 0,
                   let value = g_variant_lookup_value(results, "uri", g_variant_type_checked_("s")) {
                    uri = String(cString: g_variant_get_string(value, nil))
                    g_variant_unref(value)
                }
            }
            let path = uri.flatMap { takeString(g_filename_from_uri($0, nil, nil)) }
            finish(path)
        }, finish, releaseHandler)
        let options = g_variant_builder_new(g_variant_type_checked_("a{sv}"))
        g_variant_builder_add_value(options, g_variant_new_dict_entry(g_variant_new_string("interactive"),
                                                                      g_variant_new_variant(g_variant_new_boolean(1))))
        let arguments = g_variant_new_tuple([g_variant_new_string(""), g_variant_builder_end(options)], 2)
        g_variant_builder_unref(options)
        g_dbus_connection_call(connection.p(), service, path, interface, "Screenshot", arguments, nil,
                               G_DBUS_CALL_FLAGS_NONE, -1, nil, { source, result, data in
            let failed = Unmanaged<Handler<() -> Void>>.fromOpaque(data!).takeRetainedValue().body
            if let reply = g_dbus_connection_call_finish(OpaquePointer(source), result, nil) { g_variant_unref(reply) } else { failed() }
        }, Handler.retained({ g_dbus_connection_signal_unsubscribe(connection.p(), subscription); body(nil) }))
    }
}
