import FoundationEssentials
import Glibc

import CGtk

/// The GLib main loop, from any thread: work for the main thread is posted to it, and never
/// the other way round (nothing on the main thread waits for a worker).
enum MainLoop {
    /// Runs `body` on the main thread at the next idle moment (`g_idle_add_full`, which is
    /// safe to call from any thread).
    static func post(_ body: @escaping @Sendable () -> Void) {
        g_idle_add_full(G_PRIORITY_DEFAULT, { data in
            Handler<@Sendable () -> Void>.from(data)()
            return 0  // G_SOURCE_REMOVE
        }, Handler.retained(body), releaseHandler)
    }

    /// Runs `body` on the main thread every `milliseconds` while it answers true
    /// (`g_timeout_add_full`). Answers the source's id, for `cancel`.
    @discardableResult
    static func every(milliseconds: Int, _ body: @escaping () -> Bool) -> UInt32 {
        g_timeout_add_full(G_PRIORITY_DEFAULT, guint(milliseconds), { data in
            Handler<() -> Bool>.from(data)() ? 1 : 0
        }, Handler.retained(body), releaseHandler)
    }

    static func cancel(_ source: UInt32) { g_source_remove(source) }
}

/// A value handed between threads whose owner guarantees that one thread uses it at a time
/// (a closure over widgets that a worker carries back to the main thread untouched).
struct UncheckedBox<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
