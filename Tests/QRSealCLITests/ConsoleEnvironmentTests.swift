import Foundation
import Testing
import TestSupport
import QRSealKit
@testable import QRSealCLI

/// The environment the tool reads is the console's: TMPDIR, COLUMNS and LINES included, so
/// that a test running the tool in-process decides them as a shell would.
@Suite("Console: the environment")
struct ConsoleEnvironmentTests {
    func console(_ environment: [String: String]) -> Console {
        Console(out: { _ in }, err: { _ in }, readInput: { Data() }, inputIsTerminal: false, outputIsTerminal: false,
                environment: environment)
    }

    @Test("the terminal's size is COLUMNS and LINES of the console's environment, unless given; nonsense is ignored")
    func size() {
        let sized = console(["COLUMNS": "33", "LINES": "7"])
        #expect(sized.columns == 33 && sized.rows == 7)
        #expect(sized.terminalSize() == (33, 7))
        let given = Console(out: { _ in }, err: { _ in }, readInput: { Data() }, inputIsTerminal: false, outputIsTerminal: false,
                            environment: ["COLUMNS": "33", "LINES": "7"], columns: 120, rows: 50)
        #expect(given.columns == 120 && given.rows == 50)
        let nonsense = console(["COLUMNS": "0", "LINES": "many"])
        #expect(nonsense.columns == 100 && nonsense.rows == 40)
    }

    @Test("inbox list fits its lines to COLUMNS of an in-process run")
    func listWidth() throws {
        let dir = try TempDir()
        let path = dir.path("inbox.sqlite")
        let text = String(repeating: "a long line of text ", count: 8)
        try Inbox(path: path).add([InboxItem(receivedAt: 1_764_500_000_000, sourceKind: .file, source: "/scans/b.png",
                                             symbology: "qr", bytes: Array(text.utf8), text: text, kind: .text)], dedupe: .never)
        let r = qrseal(["inbox", "list", "--inbox", path], environment: ["COLUMNS": "50"])
        #expect(r.status == 0)
        let lines = r.out.split(separator: "\n")
        #expect(lines.count == 2 && lines.allSatisfy { $0.count <= 50 }, "\(r.out)")
        #expect(lines.last?.hasSuffix("…") == true)
    }

    @Test("what is written to standard output through a staged file is staged in the console's TMPDIR")
    func temporaryFolder() throws {
        let dir = try TempDir()
        let sealed = try dir.write("m.age", Data(try AgeFile.seal(Array("staged words".utf8), passphrase: "pw", workFactor: 10)))
        let environment = ["QRSEAL_PASSPHRASE": "pw"]
        let missing = qrseal(["open", sealed, "--no-store"], environment: environment.merging(["TMPDIR": dir.path("missing")]) { $1 })
        #expect(missing.status == 2 && missing.out.isEmpty)
        #expect(missing.stderr.contains("standard output: cannot write"), "\(missing.stderr)")
        let there = qrseal(["open", sealed, "--no-store"], environment: environment.merging(["TMPDIR": dir.url.path]) { $1 })
        #expect(there.status == 0 && there.out == "staged words", "\(there.stderr)")
    }
}
