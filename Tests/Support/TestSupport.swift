import Foundation

/// What a finished process left: its status and output.
public struct ToolResult: Sendable {
    public let status: Int32
    public let stdout: Data
    public let stderr: String
    public var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
}

public enum Tools {
    /// The package root, found from this file's path.
    public static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The `qrseal` binary built beside the test bundle (or `QRSEAL_BIN`).
    public static var qrseal: String {
        if let path = ProcessInfo.processInfo.environment["QRSEAL_BIN"] { return path }
        let bundleDir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for dir in [bundleDir, bundleDir.deletingLastPathComponent()] {
            let candidate = dir.appendingPathComponent("qrseal").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return packageRoot.appendingPathComponent(".build/debug/qrseal").path
    }

    /// The full path of a program on PATH, or nil.
    public static func which(_ name: String) -> String? {
        for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let path = "\(dir)/\(name)"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }

    /// A private home for the tool's data and config during the tests, so that no test
    /// reads or writes the user's own inbox, keyring or config.
    public static let scratchHome: String = {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("qrseal-test-home-\(getpid())").path
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }()

    /// The process environment with XDG_DATA_HOME, XDG_CONFIG_HOME and XDG_CACHE_HOME in `scratchHome`
    /// and no QRSEAL_* variables, plus `extra`.
    public static func environment(_ extra: [String: String] = [:]) -> [String: String] {
        var env = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("QRSEAL_") }
        env["XDG_DATA_HOME"] = scratchHome + "/data"
        env["XDG_CONFIG_HOME"] = scratchHome + "/config"
        env["XDG_CACHE_HOME"] = scratchHome + "/cache"
        env.merge(extra) { $1 }
        return env
    }

    /// Runs `executable` (a path or a name on PATH) with `arguments`, feeding `input` on stdin.
    /// The environment is `environment(…)`'s unless one is given.
    @discardableResult
    public static func run(_ executable: String, _ arguments: [String], input: Data? = nil,
                           environment: [String: String]? = nil,
                           currentDirectory: String? = nil) throws -> ToolResult {
        let process = Process()
        let path = executable.contains("/") ? executable : (which(executable) ?? executable)
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.environment = environment ?? Self.environment()
        if let currentDirectory { process.currentDirectoryURL = URL(fileURLWithPath: currentDirectory) }
        let (out, err, inPipe) = try launch(process) { () -> (Pipe, Pipe, Pipe?) in
            let out = pipe(), err = pipe(), inPipe = input == nil ? nil : pipe()
            process.standardOutput = out
            process.standardError = err
            process.standardInput = inPipe ?? FileHandle.nullDevice
            return (out, err, inPipe)
        }
        let writing = DispatchGroup()
        if let input, let inPipe {
            writing.enter()
            Thread {
                try? inPipe.fileHandleForWriting.write(contentsOf: input)
                try? inPipe.fileHandleForWriting.close()
                writing.leave()
            }.start()
        }
        // Read both pipes at once so a full stderr cannot block the child.
        let errData = LockedData()
        let group = DispatchGroup()
        group.enter()
        Thread {
            errData.set(err.fileHandleForReading.readDataToEndOfFile())
            group.leave()
        }.start()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        writing.wait()
        return ToolResult(status: process.terminationStatus, stdout: outData,
                          stderr: String(decoding: errData.get(), as: UTF8.self))
    }

    /// A pipe whose descriptors close when a program starts, so that no program another
    /// test starts keeps a copy (`Process` puts the ends it is given on the child's 0, 1
    /// and 2 itself).
    public static func pipe() -> Pipe {
        let made = Pipe()
        for fd in [made.fileHandleForReading.fileDescriptor, made.fileHandleForWriting.fileDescriptor] {
            _ = fcntl(fd, F_SETFD, fcntl(fd, F_GETFD) | FD_CLOEXEC)
        }
        return made
    }

    /// Makes what `attach` sets on `process` (its pipes) and starts it, one program at a
    /// time in this process.
    ///
    /// Tests start programs side by side. Foundation makes its own descriptors (the socket
    /// by which `Process` learns that its program ended) without close-on-exec, and closes
    /// a new program's other descriptors only up to the highest one open when it looked: a
    /// descriptor made by one test while another starts a program can stay open in that
    /// program. A copy of a pipe's write end left there keeps a reader from ever seeing
    /// its end; of its read end, a writer waiting for a reader; of the socket, `isRunning`
    /// true after the program ended, until the other one ends too.
    public static func launch<T>(_ process: Process, _ attach: () throws -> T) throws -> T {
        launching.lock()
        defer { launching.unlock() }
        // A program that ends without reading all its input must not end the tests.
        signal(SIGPIPE, SIG_IGN)
        let attached = try attach()
        try process.run()
        return attached
    }

    private static let launching = NSLock()
}

private final class LockedData: @unchecked Sendable {
    private var data = Data()
    private let lock = NSLock()
    func set(_ d: Data) { lock.lock(); data = d; lock.unlock() }
    func get() -> Data { lock.lock(); defer { lock.unlock() }; return data }
}

/// A temporary folder removed when the value is released.
public final class TempDir: @unchecked Sendable {
    public let url: URL
    public init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("qrseal-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(at: url) }

    /// The path of `name` inside the folder.
    public func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// Writes `data` to `name` and returns its path.
    @discardableResult
    public func write(_ name: String, _ data: Data) throws -> String {
        let p = path(name)
        try data.write(to: URL(fileURLWithPath: p))
        return p
    }
}
