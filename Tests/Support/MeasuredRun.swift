import Foundation

/// What a finished process left, and the most memory it held.
public struct MeasuredResult: Sendable {
    public let status: Int32
    public let stderr: String
    /// The child's peak resident set (`ru_maxrss` from `wait4`), in bytes.
    public let peakBytes: Int
}

extension Tools {
    /// Runs `executable` with `arguments`, standard input read from the file `stdinPath`
    /// (or /dev/null) and standard output discarded, and reports its peak memory.
    ///
    /// A small Python process forks and waits for it: Linux keeps the high-water mark of the
    /// memory a process started from across `exec`, so a child spawned straight from the test
    /// process (with `vfork`, sharing its memory) would report the test process's own peak.
    public static func runMeasured(_ executable: String, _ arguments: [String],
                                   stdinPath: String = "/dev/null") throws -> MeasuredResult {
        let script = """
            import os, sys
            pid = os.fork()
            if pid == 0:
                os.dup2(os.open(sys.argv[1], os.O_RDONLY), 0)
                os.dup2(os.open("/dev/null", os.O_WRONLY), 1)
                os.execv(sys.argv[2], sys.argv[2:])
            _, status, usage = os.wait4(pid, 0)
            print(os.waitstatus_to_exitcode(status), usage.ru_maxrss)
            """
        let r = try run("python3", ["-c", script, stdinPath, executable] + arguments)
        let fields = r.stdoutText.split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        guard r.status == 0, fields.count == 2 else { throw CocoaError(.executableLoad) }
        return MeasuredResult(status: Int32(fields[0]), stderr: r.stderr, peakBytes: fields[1] * 1024)
    }
}
