import Foundation
import Testing
import TestSupport
@testable import QRSealCLI

/// Completing the names of the user's keys and contacts: the scripts run the built binary
/// (`keys list --names`, `contacts list --names`) when Tab is pressed, in bash, zsh and fish.
@Suite("command line: completing key and contact names")
struct NameCompletionTests {
    let dir: TempDir
    /// The tests' environment with the keyring and contacts in `dir`, and the built `qrseal`
    /// first on PATH: the scripts run it by name, as a user's shell finds it.
    let env: [String: String]

    init() throws {
        dir = try TempDir()
        let bin = dir.path("bin")
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: bin + "/qrseal", withDestinationPath: Tools.qrseal)
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        env = Tools.environment(["XDG_DATA_HOME": dir.path("data"), "PATH": bin + ":" + path])
    }

    /// Keys alice (a shared key) and bob (an identity), and contacts carol and dave, made
    /// with the commands a user runs.
    func fillKeyring() throws {
        let data = ["XDG_DATA_HOME": dir.path("data")]
        #expect(qrseal(["keygen", "-o", dir.path("alice.key")]).status == 0)
        let bob = qrseal(["keygen", "--x25519", "-o", dir.path("bob.key")])
        let recipient = try #require(bob.stderr.split(separator: "\n").first { $0.hasPrefix("Public key: ") }?.dropFirst(12))
        for arguments in [["keys", "add", dir.path("alice.key")], ["keys", "add", dir.path("bob.key")],
                          ["contacts", "add", "carol", String(recipient)], ["contacts", "add", "dave", String(recipient)]] {
            let r = qrseal(arguments, environment: data)
            #expect(r.status == 0, "\(arguments): \(r.stderr)")
        }
    }

    @Test("key names complete for keys show and rm, contact names for contacts show and rm and encode --to",
          arguments: Completions.Shell.allCases)
    func names(shell: Completions.Shell) throws {
        try fillKeyring()
        func complete(_ line: String) throws -> [String] { try shellCompletes(shell, line, environment: env).sorted() }
        #expect(try complete("qrseal keys show ") == ["alice", "bob"])
        #expect(try complete("qrseal keys rm b") == ["bob"])
        #expect(try complete("qrseal contacts rm ") == ["carol", "dave"])
        #expect(try complete("qrseal contacts show d") == ["dave"])
        #expect(try complete("qrseal encode --to ") == ["carol", "dave"])
        #expect(try complete("qrseal encode --to c") == ["carol"])
    }

    @Test("with no keys or contacts, or a qrseal that fails, nothing is offered and nothing shown",
          arguments: Completions.Shell.allCases)
    func nothing(shell: Completions.Shell) throws {
        for line in ["qrseal keys show ", "qrseal contacts rm ", "qrseal encode --to "] {
            #expect(try shellCompletes(shell, line, environment: env).isEmpty)
        }
        // A qrseal that fails (no HOME, say, which the shells themselves fill in) says so on
        // standard error: the script keeps it off the terminal.
        let failing = dir.path("failing")
        try FileManager.default.createDirectory(atPath: failing, withIntermediateDirectories: true)
        try "#!/bin/sh\necho 'qrseal: error: cannot tell where to keep data' >&2\nexit 2\n"
            .write(toFile: failing + "/qrseal", atomically: false, encoding: .utf8)
        #expect(chmod(failing + "/qrseal", 0o755) == 0)
        var broken = env
        broken["PATH"] = failing + ":" + (env["PATH"] ?? "")
        #expect(try shellCompletes(shell, "qrseal keys rm ", environment: broken).isEmpty)
    }

    @Test("a name with a space, a quote, $(…), * and a backslash is offered whole and never run or expanded",
          arguments: Completions.Shell.allCases)
    func hostileName(shell: Completions.Shell) throws {
        try fillKeyring()
        // qrseal makes names of letters, digits, '-', '_' and '.'; a file put there by hand is listed all the same.
        let name = #"it's a $(touch ran) * \ name"#
        let contacts = dir.path("data/qrseal/contacts")
        try FileManager.default.copyItem(atPath: contacts + "/carol.txt", toPath: contacts + "/\(name).txt")
        // A file for an unquoted * to match.
        let work = try TempDir()
        try work.write("decoy", Data())
        let offered = try shellCompletes(shell, "qrseal contacts rm it", in: work.url.path, environment: env)
        if shell == .bash {
            // bash puts the candidate on the command line as it is: it must read back as the name.
            #expect(offered.count == 1)
            let word = try Tools.run("bash", ["--norc", "-c", "printf %s " + (offered.first ?? "")], currentDirectory: work.url.path)
            #expect(word.stdoutText == name, "\(offered)")
        } else {
            // zsh and fish quote what they put on the command line themselves.
            #expect(offered == [name])
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: work.url.path) == ["decoy"])
    }
}
