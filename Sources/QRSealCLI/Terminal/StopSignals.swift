import FoundationEssentials
import Glibc
import QRSealKit
import Synchronization

/// SIGINT and SIGTERM turned into a flag that a live scan checks between frames and while it
/// waits for one, so that Ctrl-C ends the scan cleanly: what was read is already stored,
/// the summary is printed, the camera is released.
enum StopSignals {
    /// The last signal received while a scan runs, or 0.
    private static let received = Atomic<Int32>(0)
    /// Scans running in this process (tests run several at once) and the dispositions to
    /// put back when the last one ends.
    private static let lock = Lock()
    nonisolated(unsafe) private static var scans = 0
    nonisolated(unsafe) private static var previous: [(Int32, sigaction)] = []

    static var signal: Int32 { received.load(ordering: .relaxed) }

    /// Installs the handlers (for the first scan running) and unblocks the signals on the
    /// calling thread; returns that thread's previous mask, for `end`.
    static func begin() -> sigset_t {
        lock.lock()
        defer { lock.unlock() }
        if scans == 0 {
            received.store(0, ordering: .relaxed)
            for number in [SIGINT, SIGTERM] {
                var action = sigaction()
                action.__sigaction_handler.sa_handler = { number in StopSignals.received.store(number, ordering: .relaxed) }
                sigemptyset(&action.sa_mask)
                // Reads restart; the sources wait in poll(2), which returns early, and check
                // the flag. A second signal gets the default action (SA_RESETHAND), so a
                // scan that does not stop can still be killed.
                action.sa_flags = Int32(SA_RESTART) | Int32(bitPattern: UInt32(SA_RESETHAND))
                var old = sigaction()
                if sigaction(number, &action, &old) == 0 { previous.append((number, old)) }
            }
        }
        scans += 1
        // A parent may have started us with these blocked (the mask is inherited); a
        // blocked Ctrl-C would never reach the handler.
        var stops = sigset_t(), mask = sigset_t()
        sigemptyset(&stops)
        sigaddset(&stops, SIGINT)
        sigaddset(&stops, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &stops, &mask)
        return mask
    }

    /// Puts the calling thread's mask back and, when the last scan ends, the dispositions.
    static func end(_ mask: sigset_t) {
        var old = mask
        pthread_sigmask(SIG_SETMASK, &old, nil)
        lock.lock()
        defer { lock.unlock() }
        scans -= 1
        guard scans == 0 else { return }
        for (number, action) in previous {
            var old = action
            sigaction(number, &old, nil)
        }
        previous = []
    }

    /// How a signal is named in the summary.
    static func name(_ number: Int32) -> String {
        number == SIGINT ? "Ctrl-C (SIGINT)" : number == SIGTERM ? "SIGTERM" : "signal \(number)"
    }
}
