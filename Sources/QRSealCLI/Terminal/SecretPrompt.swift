import FoundationEssentials
import Glibc

/// The terminal state to put back if a signal ends the process while a passphrase is typed
/// with echo off; without it, Ctrl-C at the prompt leaves the shell not echoing.
///
/// The handler does only async-signal-safe things: tcsetattr(3), a line feed with write(2),
/// and sigaction(2) + raise(3) to die by the same signal with its default action.
enum SecretPrompt {
    static let signals = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]

    /// Set before the handlers are installed and cleared after they are removed, so the
    /// handler never sees them half-written.
    nonisolated(unsafe) private static var terminal: Int32 = -1
    nonisolated(unsafe) private static var saved = termios()

    /// What `end` puts back: the dispositions replaced and the calling thread's signal mask.
    struct Saved {
        fileprivate let actions: [(Int32, sigaction)]
        fileprivate let mask: sigset_t
    }

    /// Installs the handlers for the prompt on `fd` and unblocks the signals on the calling
    /// thread (a parent may have started us with them blocked, as test runners do; Ctrl-C
    /// must still reach the prompt).
    static func begin(fd: Int32, saved state: termios) -> Saved {
        saved = state
        terminal = fd
        var actions: [(Int32, sigaction)] = []
        var set = sigset_t(), mask = sigset_t()
        sigemptyset(&set)
        for number in signals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { number in SecretPrompt.restoreAndDie(number) }
            sigfillset(&action.sa_mask)
            // A signal the parent ignored (nohup, a background job) stays ignored.
            var old = sigaction()
            guard sigaction(number, nil, &old) == 0, !isIgnored(old),
                  sigaction(number, &action, nil) == 0 else { continue }
            actions.append((number, old))
            sigaddset(&set, number)
        }
        pthread_sigmask(SIG_UNBLOCK, &set, &mask)
        return Saved(actions: actions, mask: mask)
    }

    /// Puts back the mask and the dispositions `begin` replaced.
    static func end(_ previous: Saved) {
        var mask = previous.mask
        pthread_sigmask(SIG_SETMASK, &mask, nil)
        for (number, action) in previous.actions {
            var old = action
            sigaction(number, &old, nil)
        }
        terminal = -1
    }

    private static func isIgnored(_ action: sigaction) -> Bool {
        unsafeBitCast(action.__sigaction_handler.sa_handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
    }

    private static func restoreAndDie(_ number: Int32) {
        if terminal >= 0 {
            tcsetattr(terminal, TCSAFLUSH, &saved)
            var newline: UInt8 = 0x0A
            _ = write(terminal, &newline, 1)
        }
        var action = sigaction()
        action.__sigaction_handler.sa_handler = SIG_DFL
        sigemptyset(&action.sa_mask)
        sigaction(number, &action, nil)
        // Delivered when the handler returns and the signal is unblocked: the process ends by it.
        raise(number)
    }
}
