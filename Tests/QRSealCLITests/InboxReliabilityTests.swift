import Foundation
import Testing
import TestSupport

/// The inbox under stress, with the real binary: processes writing at once, broken imports,
/// an import killed midway, and files that are not (or no longer) an inbox.
@Suite("inbox reliability")
struct InboxReliabilityTests {
    let box = InboxSandbox()

    /// Starts the real binary without waiting; its output goes to `log`.
    func launch(_ arguments: [String], log: String, stdin: Pipe? = nil) throws -> Process {
        _ = FileManager.default.createFile(atPath: box.dir.path(log), contents: nil)
        let output = try FileHandle(forWritingTo: box.dir.url.appendingPathComponent(log))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Tools.qrseal)
        process.arguments = arguments
        process.environment = box.processEnv
        process.standardOutput = output
        process.standardError = output
        process.standardInput = stdin ?? FileHandle.nullDevice
        try Tools.launch(process) {}
        try output.close()
        return process
    }

    func log(_ name: String) -> String {
        (try? String(contentsOfFile: box.dir.path(name), encoding: .utf8)) ?? ""
    }

    func qrsealTool(_ arguments: [String], input: Data? = nil) throws -> ToolResult {
        try Tools.run(Tools.qrseal, arguments, input: input, environment: box.processEnv)
    }

    /// The inbox's item count, read by the real binary.
    func count() throws -> Int? {
        let r = try qrsealTool(["inbox", "count", "--json"])
        return (try? JSONSerialization.jsonObject(with: r.stdout) as? [String: Any])?["total"] as? Int
    }

    /// `count` distinct export lines, one second apart from 2020-09-13.
    func lines(count: Int) -> String {
        let formatter = ISO8601DateFormatter()
        return (0..<count).map { i in
            InboxSandbox.line("imported item \(i), padded with some words to look like a real note",
                              at: formatter.string(from: Date(timeIntervalSince1970: 1_600_000_000 + Double(i))),
                              source: "/batch/\(i).png")
        }.joined(separator: "\n") + "\n"
    }

    @Test("two scans writing one inbox at once lose nothing")
    func concurrentScans() throws {
        let images = (1...15).map { box.encode("code\($0).png", "code number \($0)") }
        // Made first, so that this is about writing at once, not about creating at once.
        #expect(try qrsealTool(["inbox", "count"]).status == 1)
        let arguments = ["scan", "--dedupe", "never"] + images + images + images
        let first = try launch(arguments, log: "first.log")
        let second = try launch(arguments, log: "second.log")
        first.waitUntilExit()
        second.waitUntilExit()
        #expect(first.terminationStatus == 0, "\(log("first.log"))")
        #expect(second.terminationStatus == 0, "\(log("second.log"))")
        #expect(try count() == 2 * 45)
    }

    @Test("processes starting at once on a new inbox all get it")
    func concurrentFirstUse() throws {
        var failures: [String] = []
        for round in 0..<8 {
            let inbox = box.dir.path("new\(round).sqlite")
            let processes = try (0..<6).map { try launch(["inbox", "count", "--inbox", inbox], log: "r\(round)-\($0).log") }
            for (i, p) in processes.enumerated() {
                p.waitUntilExit()
                if p.terminationStatus != 1 {
                    failures.append(log("r\(round)-\(i).log"))
                }
            }
        }
        #expect(failures.isEmpty, "\(failures)")
    }

    @Test("an import with a bad line stores nothing and names the line",
          arguments: [("malformed", "malformed JSON"), ("unknown kind", "unknown kind 'hologram'"),
                      ("bad base64", "bad base64 in bytes_base64"), ("csv", "unknown kind 'hologram'")])
    func badImportLine(defect: String, message: String) throws {
        try box.importLines([InboxSandbox.line("kept one", at: "2021-01-01T00:00:00Z"),
                             InboxSandbox.line("kept two", at: "2021-01-02T00:00:00Z")])
        let good = InboxSandbox.line("would be new", at: "2022-01-01T00:00:00Z")
        let bad: String
        switch defect {
        case "malformed": bad = #"{"received_at":"2022-01-02T00:00:00Z","kind":"text""#
        case "unknown kind": bad = good.replacingOccurrences(of: #""kind":"text""#, with: #""kind":"hologram""#)
        case "bad base64": bad = good.replacingOccurrences(of: #""bytes_base64":""#, with: #""bytes_base64":"!!"#)
        default: bad = ""
        }
        // The bad record is on line 4: after a blank line, or after a record spanning two lines.
        let file = defect == "csv"
            ? "id,received_at,source_kind,source,symbology,kind,text,bytes_base64,corners,label,pinned\r\n"
                + "0,2022-01-01T00:00:00.000Z,file,/a.png,qr,text,\"two\nlines\",dHdvCmxpbmVz,,,0\r\n"
                + "0,2022-01-01T00:00:00.000Z,file,/b.png,qr,hologram,hi,aGk=,,,0\r\n"
                + "0,2022-01-03T00:00:00.000Z,file,/c.png,qr,text,ok,b2s=,,,0\r\n"
            : [good, "", InboxSandbox.line("also new", at: "2022-01-03T00:00:00Z"), bad, good].joined(separator: "\n") + "\n"
        let path = try box.dir.write("bad-\(defect).export", Data(file.utf8))
        let r = try qrsealTool(["inbox", "import", path])
        #expect(r.status == 2)
        #expect(r.stderr == "qrseal: error: \(path): line 4: \(message); nothing was imported\n")
        #expect(try count() == 2)
    }

    @Test("killing an import midway leaves the inbox as it was, and sound")
    func killedImport() throws {
        signal(SIGPIPE, SIG_IGN)  // should the child die early, a write fails instead of killing the tests
        try box.importLines([InboxSandbox.line("before", at: "2021-01-01T00:00:00Z"),
                             InboxSandbox.line("before too", at: "2021-01-02T00:00:00Z")])
        let before = try count()
        #expect(before == 2)
        let input = Tools.pipe()
        let importer = try launch(["inbox", "import", "-"], log: "import.log", stdin: input)
        try input.fileHandleForWriting.write(contentsOf: Data(lines(count: 2000).utf8))
        let deadline = Date().addingTimeInterval(1)
        while !FileManager.default.fileExists(atPath: box.inbox + "-wal") && Date() < deadline { usleep(10_000) }
        #expect(importer.isRunning)  // still waiting for the rest of its input
        kill(importer.processIdentifier, SIGKILL)
        importer.waitUntilExit()
        try? input.fileHandleForWriting.close()
        #expect(importer.terminationReason == .uncaughtSignal)
        #expect(try count() == before)
        let check = try Tools.run("sqlite3", [box.inbox, "PRAGMA integrity_check"])
        #expect(check.stdoutText == "ok\n")
        // And it still takes the whole import when it is allowed to finish.
        #expect(try qrsealTool(["inbox", "import", "-"], input: Data(lines(count: 2000).utf8)).status == 0)
        #expect(try count() == 2002)
    }

    /// Files that must be refused, each with the message the user sees.
    enum NotAnInbox: String, CaseIterable {
        case text, damaged, foreign, newer

        var message: String {
            switch self {
            case .text: return "not an SQLite database (left untouched)"
            case .damaged: return "the inbox is damaged"
            case .foreign: return "an SQLite database, but not a qrseal inbox (left untouched)"
            case .newer: return "the inbox was written by a newer qrseal (schema 99"
            }
        }
    }

    /// Makes the file for `kind` at `path`.
    func make(_ kind: NotAnInbox, at path: String) throws {
        switch kind {
        case .text:
            try Data("my shopping list\neggs, milk, bread\n".utf8).write(to: URL(fileURLWithPath: path))
        case .foreign:
            #expect(try Tools.run("sqlite3", [path, "create table t(a)"]).status == 0)
        case .newer:
            #expect(try qrsealTool(["inbox", "import", "-", "--inbox", path], input: Data(lines(count: 3).utf8)).status == 0)
            #expect(try Tools.run("sqlite3", [path, "PRAGMA user_version = 99"]).status == 0)
        case .damaged:
            #expect(try qrsealTool(["inbox", "import", "-", "--inbox", path], input: Data(lines(count: 3000).utf8)).status == 0)
            let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
            let size = try handle.seekToEnd()
            #expect(size > 64 * 1024)
            try handle.seek(toOffset: size / 2 / 4096 * 4096)
            try handle.write(contentsOf: Data((0..<65536).map { UInt8(truncatingIfNeeded: $0 &* 0x9E &+ 0x37) }))
            try handle.close()
        }
    }

    @Test("a file that is not a usable inbox is refused by every command, with a clear message, and left unchanged",
          arguments: NotAnInbox.allCases)
    func refused(kind: NotAnInbox) throws {
        let path = box.dir.path("\(kind.rawValue).sqlite")
        try make(kind, at: path)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let png = box.encode("code.png", "a code to keep")
        let importFile = try box.dir.write("one.jsonl", Data(lines(count: 1).utf8))
        let commands: [[String]] = [["inbox", "list"], ["inbox", "count"], ["inbox", "show", "1"], ["inbox", "rm", "1"],
                                    ["inbox", "export"], ["inbox", "import", importFile], ["scan", png]]
        let results = try commands.map { try qrsealTool($0 + ["--inbox", path]) }
        let after = try Data(contentsOf: URL(fileURLWithPath: path))
        // Every command that would write refuses. On a damaged inbox, reads check nothing
        // up front (a full check would cost every list its speed): they either fail with
        // the damage message, when they touch a damaged page, or answer from intact pages.
        let writes: Set<[String]> = [["inbox", "rm", "1"], ["inbox", "import", importFile], ["scan", png]]
        for (command, r) in zip(commands, results) {
            if kind == .damaged && !writes.contains(command) && r.status == 0 { continue }
            #expect(r.status == 2, "\(command)")
            #expect(r.stderr.hasPrefix("qrseal: error: \(path): \(kind.message)"), "\(command): \(r.stderr)")
        }
        #expect(after == bytes)
    }
}
