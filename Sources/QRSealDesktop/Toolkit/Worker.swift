import Dispatch

/// Work that may take long (SQLite on a big inbox, scrypt for a passphrase, an export), run
/// on a worker thread with its result handed back to the main thread.
enum Worker {
    /// Runs `work` on `queue`, then `done` with its result on the main thread. `work` sees
    /// only what it captured (Sendable values); `done` may touch widgets.
    static func run<Result: Sendable>(on queue: DispatchQueue = .global(qos: .userInitiated),
                                      _ work: @escaping @Sendable () -> Result,
                                      then done: @escaping (Result) -> Void) {
        let done = UncheckedBox(done)
        queue.async {
            let result = work()
            MainLoop.post { done.value(result) }
        }
    }
}
