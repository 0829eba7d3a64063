import CGtk

/// Signal handlers: each is a Swift closure kept alive exactly as long as the connection,
/// which GObject ends when the object is finalized (or the handler is disconnected); the
/// closure is then released by the connection's destroy notify.
///
/// A handler must not hold its own widget's Swift owner strongly (`[weak self]`): the widget
/// holds the handler, and the cycle would keep both alive.
extension Object {
    /// A signal with no arguments: "clicked", "activate", "changed", "search-changed", "toggled".
    @discardableResult
    func on(_ signal: String, _ body: @escaping () -> Void) -> UInt {
        connect(signal, thunk: unsafeBitCast(voidThunk, to: UnsafeMutableRawPointer.self), data: Handler.retained(body))
    }

    /// A signal with one pointer argument: "row-activated" (the row), "response" (its id),
    /// "notify::…" (the property's spec).
    @discardableResult
    func onPointer(_ signal: String, _ body: @escaping (UnsafeMutableRawPointer?) -> Void) -> UInt {
        connect(signal, thunk: unsafeBitCast(pointerThunk, to: UnsafeMutableRawPointer.self), data: Handler.retained(body))
    }

    /// A signal whose handler answers whether it handled the event ("close-request").
    @discardableResult
    func onHandled(_ signal: String, _ body: @escaping () -> Bool) -> UInt {
        connect(signal, thunk: unsafeBitCast(boolThunk, to: UnsafeMutableRawPointer.self), data: Handler.retained(body))
    }

    /// A click gesture's "pressed": the number of presses and where, in widget coordinates.
    @discardableResult
    func onPressed(_ signal: String, _ body: @escaping (Int, Double, Double) -> Void) -> UInt {
        connect(signal, thunk: unsafeBitCast(pressedThunk, to: UnsafeMutableRawPointer.self), data: Handler.retained(body))
    }

    /// A key controller's "key-pressed": the key value and modifier state; answers whether handled.
    @discardableResult
    func onKey(_ signal: String, _ body: @escaping (UInt32, UInt32) -> Bool) -> UInt {
        connect(signal, thunk: unsafeBitCast(keyThunk, to: UnsafeMutableRawPointer.self), data: Handler.retained(body))
    }

    /// A drop target's "drop": the dropped value (a `GValue`), answering whether it was taken.
    @discardableResult
    func onDrop(_ signal: String, _ body: @escaping (UnsafeMutablePointer<GValue>?) -> Bool) -> UInt {
        connect(signal, thunk: unsafeBitCast(dropThunk, to: UnsafeMutableRawPointer.self), data: Handler.retained(body))
    }

    func disconnect(_ id: UInt) { g_signal_handler_disconnect(raw, gulong(id)) }

    private func connect(_ signal: String, thunk: UnsafeMutableRawPointer, data: UnsafeMutableRawPointer) -> UInt {
        UInt(qrs_signal_connect(raw, signal, thunk, data, { data, _ in releaseHandler(data) }))
    }
}

private let voidThunk: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = { _, data in
    Handler<() -> Void>.from(data)()
}
private let pointerThunk: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = {
    _, argument, data in Handler<(UnsafeMutableRawPointer?) -> Void>.from(data)(argument)
}
private let boolThunk: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> gboolean = { _, data in
    Handler<() -> Bool>.from(data)() ? 1 : 0
}
private let pressedThunk: @convention(c) (UnsafeMutableRawPointer?, Int32, Double, Double, UnsafeMutableRawPointer?) -> Void = {
    _, count, x, y, data in Handler<(Int, Double, Double) -> Void>.from(data)(Int(count), x, y)
}
private let keyThunk: @convention(c) (UnsafeMutableRawPointer?, UInt32, UInt32, UInt32, UnsafeMutableRawPointer?) -> gboolean = {
    _, keyval, _, state, data in Handler<(UInt32, UInt32) -> Bool>.from(data)(keyval, state) ? 1 : 0
}
private let dropThunk: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<GValue>?, Double, Double,
                                       UnsafeMutableRawPointer?) -> gboolean = {
    _, value, _, _, data in Handler<(UnsafeMutablePointer<GValue>?) -> Bool>.from(data)(value) ? 1 : 0
}
