import Foundation

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
    /// - SIGTERM, SIGINT and SIGHUP remove the temporary file being written, when the file
    ///   system could not make an unnamed one (`TemporaryNames`).
    public static func prepareProcess() {
        var none = rlimit(rlim_cur: 0, rlim_max: 0)
        _ = setrlimit(__rlimit_resource_t(RLIMIT_CORE.rawValue), &none)
        // prctl(2) is variadic, which Swift does not call; on Linux its integer arguments are
        // passed as for a function with five of them.
        typealias Prctl = @convention(c) (Int32, UInt, UInt, UInt, UInt) -> Int32
        if let address = dlsym(nil, "prctl") {
            _ = unsafeBitCast(address, to: Prctl.self)(4 /* PR_SET_DUMPABLE */, 0, 0, 0, 0)
        }
        TemporaryNames.installHandlers()
    }
}
