import Foundation
import Testing
import TestSupport
@testable import QRSealCLI

/// Writing to standard output and error never crashes: a failed write is `cannot write`
/// and status 2, a reader that went away ends the tool quietly, a failed read of standard
/// input is an error too. The real binary, through a shell, for the descriptors.
@Suite("console: write and read failures")
struct ConsoleTests {
    static let shell = "/bin/sh"

    func sh(_ script: String, input: Data? = nil) throws -> ToolResult {
        try Tools.run(Self.shell, ["-c", script], input: input, environment: Tools.environment(["Q": Tools.qrseal]))
    }

    @Test("a full disk on standard output is status 2 with 'cannot write', not a crash",
          arguments: ["capacity", "--help", "help encode", "capacity --ec q"])
    func fullDisk(arguments: String) throws {
        let r = try sh("\"$Q\" \(arguments) > /dev/full")
        #expect(r.status == 2, "\(r.stderr)")
        #expect(r.stderr == "qrseal: error: cannot write standard output: no space left on device\n")
    }

    /// Runs `"$Q" capacity` into a pipe whose reader has already gone (it closes its end,
    /// then tells the writer through a FIFO), with SIGPIPE's disposition set to `disposition`
    /// first (by Python: a shell cannot reset a signal ignored when it started, and the
    /// test process may have inherited or set one); stderr gets `status N`.
    func closedPipe(_ disposition: String) throws -> ToolResult {
        let dir = try TempDir()
        let script = "f=\(dir.path("fifo")); mkfifo \"$f\"; "
            + "( read _ < \"$f\"; \"$Q\" capacity; echo \"status $?\" >&2 ) | { exec <&-; echo > \"$f\"; }"
        let python = "import os, signal, sys; signal.signal(signal.SIGPIPE, signal.\(disposition)); "
            + "os.execv('\(Self.shell)', ['sh', '-c', sys.argv[1]])"
        return try Tools.run("python3", ["-c", python, script], environment: Tools.environment(["Q": Tools.qrseal]))
    }

    @Test("with SIGPIPE ignored, a closed pipe ends the tool quietly with status 2")
    func brokenPipeIgnored() throws {
        let r = try closedPipe("SIG_IGN")
        #expect(r.stderr == "status 2\n", "\(r.stderr)")
    }

    @Test("with SIGPIPE's default action, a closed pipe ends the tool by the signal, quietly")
    func brokenPipeDefault() throws {
        let r = try closedPipe("SIG_DFL")
        #expect(r.stderr == "status 141\n", "\(r.stderr)")
    }

    @Test("a read error on standard input is status 2 with 'cannot read standard input'")
    func readError() throws {
        let r = try sh("\"$Q\" open - < /")
        #expect(r.status == 2)
        #expect(r.stderr == "qrseal: error: cannot read standard input: is a directory\n")
    }

    @Test("a write that fails in the middle of a command still makes it end with status 2")
    func failureMidRun() throws {
        let dir = try TempDir()
        let png = dir.path("a.png")
        #expect(qrseal(["encode", "-o", png, "hello"]).status == 0)
        let err = Buffer()
        var writes = 0
        let console = Console(out: { _ throws(Console.WriteFailure) in
                                  writes += 1
                                  if writes == 2 { throw Console.WriteFailure(code: EIO) }
                              },
                              err: { err.data.append($0) }, readInput: { Data() },
                              inputIsTerminal: true, outputIsTerminal: false,
                              environment: ["XDG_DATA_HOME": dir.path("data"), "XDG_CONFIG_HOME": dir.path("config")])
        let status = QRSealCLI.run(arguments: ["scan", "--no-store", png, png, png], console: console)
        #expect(status == 2)
        #expect(writes == 2, "output after a failed write is dropped")
        #expect(String(decoding: err.data, as: UTF8.self) == "qrseal: error: cannot write standard output: input/output error\n")
    }
}
