import FoundationEssentials
import Glibc

extension QRSealCLI {
    /// What the `qrseal` process sets before any command runs (`main.swift`; tests that call
    /// `run` in their own process leave theirs alone):
    ///
    /// - no core dump: a crash or a SIGQUIT, SIGSEGV or SIGABRT would write the process's
    ///   memory, passphrases, keys and opened plaintext among it, into a file. RLIMIT_CORE is
    ///   set to 0 (`setrlimit(2)`), which stops core files, and the process is made
    ///   non-dumpable (`prctl(PR_SET_DUMPABLE, 0)`), which stops a core handler that
    ///   `core_pattern` pipes to as well, and other processes of the same user from reading
    ///   its memory through /proc or ptrace;
    /// - a crash (SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP, SIGABRT) prints one line and ends
    ///   the process by its signal: Swift's backtracer, which would otherwise take it, prints
    ///   the registers with the bytes of memory they point at to standard error, where a
    ///   passphrase or a key may then be read;
    /// - SIGTERM, SIGINT and SIGHUP remove the temporary file being written, when the file
    ///   system could not make an unnamed one (`TemporaryNames`);
    /// - the C libraries' `stderr` stream writes nowhere: zbar prints its internal checks there
    ///   (`WARNING: decoder/databar.c:…: Assertion … failed.`, whatever `zbar_set_verbosity`
    ///   says), and glib's default log handler, under poppler and librsvg, its warnings. qrseal's
    ///   own messages go to file descriptor 2 with write(2) (`StandardStreams`) and are not
    ///   affected; glibc documents `stderr` as a variable a program may assign.
    public static func prepareProcess() {
        // Through its address: Swift does not let a program assign a C global.
        if let nowhere = fopen("/dev/null", "w"), let stream = dlsym(nil, "stderr") {
            stream.assumingMemoryBound(to: UnsafeMutablePointer<FILE>?.self).pointee = nowhere
        }
        var none = rlimit(rlim_cur: 0, rlim_max: 0)
        _ = setrlimit(__rlimit_resource_t(RLIMIT_CORE.rawValue), &none)
        // prctl(2) is variadic, which Swift does not call; on Linux its integer arguments are
        // passed as for a function with five of them.
        typealias Prctl = @convention(c) (Int32, UInt, UInt, UInt, UInt) -> Int32
        if let address = dlsym(nil, "prctl") {
            _ = unsafeBitCast(address, to: Prctl.self)(4 /* PR_SET_DUMPABLE */, 0, 0, 0, 0)
        }
        for number in [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP, SIGABRT] {
            var action = sigaction()
            // Only what is safe in a signal handler: write(2), then the default action again.
            action.__sigaction_handler.sa_handler = { number in
                let line: StaticString = "qrseal: internal error: the process crashed; nothing of its memory was written out\n"
                _ = write(2, line.utf8Start, line.utf8CodeUnitCount)
                Glibc.signal(number, SIG_DFL)
                raise(number)
            }
            sigemptyset(&action.sa_mask)
            action.sa_flags = Int32(bitPattern: UInt32(SA_RESETHAND))
            _ = sigaction(number, &action, nil)
        }
        TemporaryNames.installHandlers()
    }
}
