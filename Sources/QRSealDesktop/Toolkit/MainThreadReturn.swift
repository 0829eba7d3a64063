/// The way back from a worker thread to an object of the main thread (a page): made on the
/// main thread before the work starts, carried by the worker, which posts its result
/// through it. The object is held weakly and reached only on the main thread, so a page
/// gone meanwhile simply gets nothing.
final class MainThreadReturn<T: AnyObject>: @unchecked Sendable {
    private weak var object: T?

    init(_ object: T) { self.object = object }

    /// Runs `body` with the object on the main thread (`MainLoop.post`), if it still exists.
    func post(_ body: @escaping (T) -> Void) {
        let call = UncheckedCall { [self] in
            if let object = self.object { body(object) }
        }
        MainLoop.post { call.body() }
    }
}

/// A closure that only the main thread runs, carried across a thread by `MainThreadReturn`.
private final class UncheckedCall: @unchecked Sendable {
    let body: () -> Void
    init(_ body: @escaping () -> Void) { self.body = body }
}
