import CGtk

/// Joining a Wi-Fi network through NetworkManager's D-Bus API
/// (`org.freedesktop.NetworkManager.AddAndActivateConnection`), as GNOME's settings do: the
/// password goes to NetworkManager over the system bus, never through a command line.
enum NetworkManager {
    struct Network {
        let ssid: String
        /// As the library names it: "none", "WEP", "WPA", "WPA3", "WPA-EAP", or nil when
        /// the code left it unsaid (WPA when there is a password).
        let security: String?
        let password: String?
        let hidden: Bool
    }

    /// Asks NetworkManager to add and join the network; `body` gets nil on success or the
    /// reason it failed, on the main thread.
    static func join(_ network: Network, _ body: @escaping (String?) -> Void) {
        if let security = network.security, !["none", "WEP", "WPA", "WPA3"].contains(security) {
            return body("\(security) networks need a user name and certificates, which a code does not carry; join it in the system's settings")
        }
        var error: UnsafeMutablePointer<GError>?
        guard let bus = g_bus_get_sync(G_BUS_TYPE_SYSTEM, nil, &error) else {
            let reason = error.map { String(cString: $0.pointee.message) } ?? "no system bus"
            if let error { g_error_free(error) }
            return body("cannot reach NetworkManager: " + reason)
        }
        defer { g_object_unref(UnsafeMutableRawPointer(bus)) }
        var sections: [(String, [(String, OpaquePointer)])] = [
            ("connection", [("type", g_variant_new_string("802-11-wireless")), ("id", g_variant_new_string(network.ssid))]),
        ]
        let ssid = Array(network.ssid.utf8)
        let ssidBytes = ssid.withUnsafeBufferPointer {
            g_variant_new_fixed_array(g_variant_type_checked_("y"), $0.baseAddress, gsize($0.count), 1)!
        }
        sections.append(("802-11-wireless", [("ssid", ssidBytes), ("mode", g_variant_new_string("infrastructure")),
                                             ("hidden", g_variant_new_boolean(network.hidden ? 1 : 0))]))
        let password = network.password ?? ""
        switch (network.security, password.isEmpty) {
        case ("none"?, _), (nil, true):
            break
        case ("WEP"?, _):
            sections.append(("802-11-wireless-security", [("key-mgmt", g_variant_new_string("none")),
                                                          ("wep-key0", g_variant_new_string(password))]))
        case ("WPA3"?, _):
            sections.append(("802-11-wireless-security", [("key-mgmt", g_variant_new_string("sae")),
                                                          ("psk", g_variant_new_string(password))]))
        case ("WPA"?, _), (nil, false):
            sections.append(("802-11-wireless-security", [("key-mgmt", g_variant_new_string("wpa-psk")),
                                                          ("psk", g_variant_new_string(password))]))
        default:
            break
        }
        let outer = g_variant_builder_new(g_variant_type_checked_("a{sa{sv}}"))
        for (name, entries) in sections {
            let inner = g_variant_builder_new(g_variant_type_checked_("a{sv}"))
            for (key, value) in entries {
                g_variant_builder_add_value(inner, g_variant_new_dict_entry(g_variant_new_string(key), g_variant_new_variant(value)))
            }
            g_variant_builder_add_value(outer, g_variant_new_dict_entry(g_variant_new_string(name), g_variant_builder_end(inner)))
            g_variant_builder_unref(inner)
        }
        let arguments = g_variant_new_tuple([g_variant_builder_end(outer), g_variant_new_object_path("/"),
                                             g_variant_new_object_path("/")], 3)
        g_variant_builder_unref(outer)
        g_dbus_connection_call(bus, "org.freedesktop.NetworkManager", "/org/freedesktop/NetworkManager",
                               "org.freedesktop.NetworkManager", "AddAndActivateConnection", arguments, nil,
                               G_DBUS_CALL_FLAGS_NONE, 30000, nil, { source, result, data in
            let body = Unmanaged<Handler<(String?) -> Void>>.fromOpaque(data!).takeRetainedValue().body
            var error: UnsafeMutablePointer<GError>?
            if let reply = g_dbus_connection_call_finish(OpaquePointer(source), result, &error) {
                g_variant_unref(reply)
                return body(nil)
            }
            var reason = error.map { String(cString: $0.pointee.message) } ?? "NetworkManager did not answer"
            if let error {
                if g_dbus_error_is_remote_error(error) != 0 { g_dbus_error_strip_remote_error(error); reason = String(cString: error.pointee.message) }
                g_error_free(error)
            }
            body(reason)
        }, Handler.retained(body))
    }
}
