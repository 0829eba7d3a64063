import CGtk

/// One strong reference to a GObject (a widget, a controller, a texture), dropped in
/// `deinit`: the Swift value is the reference's one owner.
///
/// Widgets are created floating; `init(sinking:)` takes that floating reference for this
/// value (`g_object_ref_sink`). Objects handed over with a full reference that is not floating
/// (controllers, textures, toasts, file choosers) use `init(owning:)`.
///
/// Everything here is used on the main thread only, the thread that runs the main loop.
/// Worker threads reach it through `MainLoop.post`.
class Object {
    let raw: UnsafeMutableRawPointer

    init(sinking raw: UnsafeMutableRawPointer) {
        self.raw = raw
        g_object_ref_sink(raw)
    }

    init(owning raw: UnsafeMutableRawPointer) {
        self.raw = raw
    }

    deinit { g_object_unref(raw) }

    /// The object as the C type a function expects (`GTK_BUTTON (obj)` and the like).
    func p<T>() -> UnsafeMutablePointer<T> { raw.assumingMemoryBound(to: T.self) }
    /// The object as an opaque C pointer, for types whose struct C keeps private.
    func p() -> OpaquePointer { OpaquePointer(raw) }
    /// The object as an opaque C pointer, for types whose struct C keeps private.
    var opaque: OpaquePointer { OpaquePointer(raw) }
}

/// A Swift closure kept alive for a C callback; released by the callback's destroy notify.
final class Handler<Body> {
    let body: Body
    init(_ body: Body) { self.body = body }

    /// A retained pointer for C's user data; `release(_:)` gives it back.
    static func retained(_ body: Body) -> UnsafeMutableRawPointer {
        Unmanaged.passRetained(Handler(body)).toOpaque()
    }

    static func from(_ data: UnsafeMutableRawPointer?) -> Body {
        Unmanaged<Handler<Body>>.fromOpaque(data!).takeUnretainedValue().body
    }
}

/// Releases a `Handler` given as C user data (a `GDestroyNotify`).
let releaseHandler: @convention(c) (UnsafeMutableRawPointer?) -> Void = { data in
    if let data { Unmanaged<AnyObject>.fromOpaque(data).release() }
}

/// Turns a GLib string the caller must free into a Swift string, freeing it.
func takeString(_ pointer: UnsafeMutablePointer<CChar>?) -> String? {
    guard let pointer else { return nil }
    defer { g_free(pointer) }
    return String(cString: pointer)
}
