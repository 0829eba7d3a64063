import Foundation
import Testing
import TestSupport

/// The one rule every output follows (man page, FILES): no existing file is replaced
/// without --force, no input ever, a replaced file keeps its mode, a symbolic link is
/// refused without --force and replaced (not followed) with it, a directory is named as one.
@Suite("Outputs: one rule for every command")
struct OutputRuleTests {
    let dir = try! TempDir()

    func contents(_ path: String) -> String? { try? String(contentsOfFile: path, encoding: .utf8) }
    func mode(_ path: String) throws -> Int {
        try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
    }

    /// A QR code image of `text` at a fresh path.
    func image(_ name: String, _ text: String = "hello") throws -> String {
        let path = dir.path(name)
        try #require(qrseal(["encode", "-o", path, text]).status == 0)
        return path
    }

    @Test("every command that writes refuses an existing file without --force, before doing the work", arguments: [
        ["encode", "-o", "TARGET", "new"],
        ["keygen", "-o", "TARGET"],
        ["inbox", "export", "-o", "TARGET", "--inbox", "INBOX"],
    ])
    func refusesExisting(command: [String]) throws {
        let target = try dir.write("target", Data("precious".utf8))
        let r = qrseal(command.map { $0 == "TARGET" ? target : $0 == "INBOX" ? dir.path("inbox.sqlite") : $0 })
        #expect(r.status == 2)
        #expect(r.stderr == "qrseal: error: \(target): file exists\nqrseal: hint: pass --force to replace it\n")
        #expect(r.stdout.isEmpty)
        #expect(contents(target) == "precious")
    }

    @Test("--force replaces the file and keeps its mode: a 0600 file stays 0600")
    func forceKeepsMode() throws {
        let target = try dir.write("private.png", Data("old".utf8))
        chmod(target, 0o600)
        #expect(qrseal(["encode", "--force", "-o", target, "new"]).status == 0)
        #expect(contents(target) != "old")
        #expect(try mode(target) == 0o600)
        #expect(qrseal(["scan", "--raw", "--no-store", target]).out == "new\n")
        // A private output never gives others more than the file it replaces had.
        let export = try dir.write("export.jsonl", Data())
        chmod(export, 0o644)
        _ = try image("seen.png")
        #expect(qrseal(["scan", "--inbox", dir.path("inbox.sqlite"), dir.path("seen.png")]).status == 0)
        #expect(qrseal(["inbox", "export", "--force", "-o", export, "--inbox", dir.path("inbox.sqlite")]).status == 0)
        #expect(contents(export)?.contains("hello") == true)
        #expect(try mode(export) == 0o600)
    }

    @Test("an output is never one of the command's inputs, even with --force")
    func neverAnInput() throws {
        let only = try dir.write("only.txt", Data("the only copy".utf8))
        for force in [[], ["--force"]] {
            let r = qrseal(["encode", "-i", only, "-o", only] + force)
            #expect(r.status == 2)
            #expect(r.stderr.contains("qrseal: error: \(only): is also an input of this command"), "\(r.stderr)")
            #expect(contents(only) == "the only copy")
        }
        let m2 = try image("m2.png", "m2")
        let before = try Data(contentsOf: URL(fileURLWithPath: m2))
        let annotate = qrseal(["scan", "--no-store", "--force", "--annotate", m2, m2])
        #expect(annotate.status == 2)
        #expect(annotate.stderr.contains("\(m2): is also an input of this command"))
        #expect(annotate.stdout.isEmpty)
        #expect(try Data(contentsOf: URL(fileURLWithPath: m2)) == before)
        // The inbox a command keeps what it reads in is an input too.
        let inbox = dir.path("inbox.sqlite")
        #expect(qrseal(["scan", "--inbox", inbox, m2]).status == 0)
        let kept = try Data(contentsOf: URL(fileURLWithPath: inbox))
        let overInbox = qrseal(["scan", "--inbox", inbox, "--force", "--annotate", inbox, m2])
        #expect(overInbox.stderr.contains("\(inbox): is also an input of this command"), "\(overInbox.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: inbox)) == kept)
        // A key file is an input too, and so is a hard link to an input.
        let key = dir.path("k.key")
        #expect(qrseal(["keygen", "-o", key]).status == 0)
        let keyText = contents(key)
        #expect(qrseal(["encode", "--force", "--key-file", key, "-o", key, "x"]).status == 2)
        #expect(contents(key) == keyText)
        try FileManager.default.linkItem(atPath: only, toPath: dir.path("other-name.txt"))
        #expect(qrseal(["encode", "--force", "-i", only, "-o", dir.path("other-name.txt")]).status == 2)
        #expect(contents(only) == "the only copy")
    }

    @Test("scan --annotate refuses an existing file before scanning, and replaces it with --force")
    func annotateExisting() throws {
        let png = try image("code.png")
        let out = try dir.write("found.png", Data("old".utf8))
        let r = qrseal(["scan", "--no-store", "--annotate", out, png])
        #expect(r.status == 2)
        #expect(r.stdout.isEmpty)
        #expect(r.stderr.contains("\(out): file exists"))
        #expect(contents(out) == "old")
        #expect(qrseal(["scan", "--no-store", "--force", "--annotate", out, png]).status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: out)).starts(with: [0x89, 0x50, 0x4E, 0x47]))
    }

    @Test("a symbolic link at the target is refused without --force, even a dangling one; with --force it is replaced, not followed")
    func symlinks() throws {
        let pointed = try dir.write("pointed.txt", Data("kept".utf8))
        let link = dir.path("link.png")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: pointed)
        let dangling = dir.path("dangling.png")
        try FileManager.default.createSymbolicLink(atPath: dangling, withDestinationPath: dir.path("nowhere.png"))
        for target in [link, dangling] {
            let r = qrseal(["encode", "-o", target, "x"])
            #expect(r.status == 2)
            #expect(r.stderr.contains("\(target): file exists"))
        }
        #expect(!FileManager.default.fileExists(atPath: dir.path("nowhere.png")))
        #expect(qrseal(["encode", "--force", "-o", link, "x"]).status == 0)
        #expect(contents(pointed) == "kept")
        let type = try FileManager.default.attributesOfItem(atPath: link)[.type] as? FileAttributeType
        #expect(type == .typeRegular)
    }

    @Test("a device or a pipe is written into without --force, as a shell redirection would, and never replaced")
    func devices() throws {
        // Without --force only: a mistake here must not be able to replace the machine's /dev/null.
        #expect(qrseal(["encode", "-o", "/dev/null", "x"]).status == 0)
        let fifo = dir.path("pipe")
        #expect(mkfifo(fifo, 0o600) == 0)
        // Opened first without blocking, so that the write finds a reader and nothing can hang.
        let reader = open(fifo, O_RDONLY | O_NONBLOCK)
        #expect(reader >= 0)
        #expect(qrseal(["encode", "--force", "--format", "svg", "-o", fifo, "through a pipe"]).status == 0)
        _ = fcntl(reader, F_SETFL, 0)
        let svg = FileHandle(fileDescriptor: reader, closeOnDealloc: true).readDataToEndOfFile()
        #expect(String(decoding: svg, as: UTF8.self).hasPrefix("<?xml"))
        let type = try FileManager.default.attributesOfItem(atPath: fifo)[.type] as? FileAttributeType
        #expect(type != .typeRegular)
    }

    @Test("a directory is reported as one, not as an existing file", arguments: [
        ["keygen", "-o", "DIR"], ["inbox", "export", "-o", "DIR", "--inbox", "INBOX"], ["encode", "-o", "DIR", "x"],
        ["open", "-o", "DIR", "NOTE", "--no-store"],
    ])
    func directory(command: [String]) throws {
        let folder = dir.path("folder")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let note = try dir.write("note.txt", Data("QRSEAL1:0123".utf8))
        let args = command.map { $0 == "DIR" ? folder : $0 == "NOTE" ? note : $0 == "INBOX" ? dir.path("inbox.sqlite") : $0 }
        for force in [[], ["--force"]] {
            let r = qrseal(args + force)
            #expect(r.status == 2)
            #expect(r.stderr.hasPrefix("qrseal: error: \(folder): is a directory\n"), "\(r.stderr)")
        }
    }

    @Test("an empty output name is a usage error", arguments: [
        ["encode", "-o", "", "x"], ["encode", "--output=", "x"], ["keygen", "-o", ""], ["inbox", "export", "--output="],
        ["open", "-o", "", "NOTE"], ["scan", "--no-store", "-o", "", "NOTE"],
    ])
    func emptyName(command: [String]) throws {
        let note = try dir.write("note.txt", Data("QRSEAL1:0123".utf8))
        let r = qrseal(command.map { $0 == "NOTE" ? note : $0 })
        #expect(r.status == 64)
        #expect(r.stderr.contains("--output needs a file name, not an empty one"), "\(r.stderr)")
    }

    @Test("inbox export checks its target before it opens the inbox")
    func exportChecksFirst() throws {
        // Not an inbox: opening it would fail, so the target's error shows it was checked first.
        let inbox = try dir.write("inbox.sqlite", Data("not a database".utf8))
        let target = try dir.write("old.jsonl", Data("old".utf8))
        let r = qrseal(["inbox", "export", "-o", target, "--inbox", inbox])
        #expect(r.status == 2)
        #expect(r.stderr.contains("\(target): file exists"), "\(r.stderr)")
        #expect(qrseal(["inbox", "export", "--force", "-o", inbox, "--inbox", inbox]).stderr
            .contains("\(inbox): is also an input of this command"))
    }
}
