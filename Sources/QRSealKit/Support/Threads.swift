import Glibc

// Threads and their locks, on POSIX threads directly. Foundation's NSLock, NSCondition and
// Thread are the only reasons the package would link the whole of Foundation, whose ICU data
// alone is 34 MB of a binary (issue 29, "a smaller install"); FoundationEssentials has none
// of them.

/// A mutual-exclusion lock: what NSLock was here.
public final class Lock: @unchecked Sendable {
    fileprivate let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

    public init() { pthread_mutex_init(mutex, nil) }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    public func lock() { pthread_mutex_lock(mutex) }
    public func unlock() { pthread_mutex_unlock(mutex) }

    public func withLock<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
        lock()
        defer { unlock() }
        return try body()
    }
}

/// A lock with a condition to wait for under it: what NSCondition was here.
public final class Condition: @unchecked Sendable {
    private let lockItself = Lock()
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    public init() { pthread_cond_init(condition, nil) }

    deinit {
        pthread_cond_destroy(condition)
        condition.deallocate()
    }

    public func lock() { lockItself.lock() }
    public func unlock() { lockItself.unlock() }
    /// Waits, the lock held, until signalled (or woken spuriously: wait in a loop).
    public func wait() { pthread_cond_wait(condition, lockItself.mutex) }
    public func signal() { pthread_cond_signal(condition) }
    public func broadcast() { pthread_cond_broadcast(condition) }

    public func withLock<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
        try lockItself.withLock(body)
    }
}

/// Threads of our own, outside Dispatch's pool: for work that waits (a recognizer's start, a
/// camera's frames) or must not wait behind Dispatch's other work.
public enum Threads {
    /// Starts a detached thread running `body`, named `name` (the first 15 bytes: what `top -H`
    /// and a debugger show), with the default stack of a process's threads.
    public static func start(name: String, _ body: @escaping @Sendable () -> Void) {
        let box = Unmanaged.passRetained(Body(body, name: name)).toOpaque()
        var thread = pthread_t()
        let started = pthread_create(&thread, nil, { context in
            let body = Unmanaged<Body>.fromOpaque(context!).takeRetainedValue()
            Threads.setName(body.name)
            body.run()
            return nil
        }, box)
        // Out of threads is out of memory as far as the caller can tell: end as Swift does.
        precondition(started == 0, "cannot start a thread: \(String(cString: strerror(started)))")
        pthread_detach(thread)
    }

    /// Names the calling thread (pthread_setname_np(3) is not in Swift's Glibc module).
    fileprivate static func setName(_ name: String) {
        let fd = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { return }
        let bytes = Array(name.utf8.prefix(15))
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
    }

    /// Sleeps this thread for `duration`, however it is woken by signals.
    public static func sleep(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        guard seconds > 0 || attoseconds > 0 else { return }
        var asked = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
        var left = timespec()
        while nanosleep(&asked, &left) != 0 && errno == EINTR { asked = left }
    }

    private final class Body {
        let run: @Sendable () -> Void
        let name: String
        init(_ run: @escaping @Sendable () -> Void, name: String) {
            self.run = run
            self.name = name
        }
    }
}
