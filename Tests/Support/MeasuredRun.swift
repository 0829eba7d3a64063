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
    /// Foundation's `Process` does not give the child's resource usage, so this spawns and
    /// waits with `posix_spawn` and `wait4`.
    public static func runMeasured(_ executable: String, _ arguments: [String],
                                   stdinPath: String = "/dev/null") throws -> MeasuredResult {
        let dir = try TempDir()
        let errPath = dir.path("stderr")
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, stdinPath, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment().map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, envp)
        guard spawned == 0 else { throw CocoaError(.executableLoad) }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        // WIFEXITED / WEXITSTATUS, which Swift does not import; a signal is reported as 128 + n.
        let code = status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        let stderr = (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
        return MeasuredResult(status: code, stderr: stderr, peakBytes: Int(usage.ru_maxrss) * 1024)
    }
}
