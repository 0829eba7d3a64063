import CGtk

/// What the desktop does for the app: opening a link with the user's own application.
enum Desktop {
    /// Opens `uri` with the desktop's default application for its scheme
    /// (`g_app_info_launch_default_for_uri`); answers why not when it cannot, nil when it did.
    static func open(uri: String) -> String? {
        var error: UnsafeMutablePointer<GError>?
        if g_app_info_launch_default_for_uri(uri, nil, &error) != 0 { return nil }
        guard let error else { return "no application opens it" }
        defer { g_error_free(error) }
        return String(cString: error.pointee.message)
    }
}
