import Foundation
import Testing
import TestSupport

/// Files carried by sealed messages, as `scan -o DIR` and `open` save them: never a hidden
/// file, never standard output by accident, private, any name the format allows.
@Suite("Received files: names, modes and links")
struct ReceivedFileTests {
    let dir = try! TempDir()
    let key: String

    init() throws {
        key = dir.path("k.key")
        try #require(qrseal(["keygen", "-o", key]).status == 0)
    }

    /// An image of a message sealed to `key` that carries a file named `name`.
    func sealedImage(carrying name: String, _ content: String = "alias ls='rm -rf ~'\n") throws -> String {
        let folder = dir.path("send-\(UUID().uuidString)")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let file = try dir.write((folder as NSString).lastPathComponent + "/" + name, Data(content.utf8))
        let image = dir.path("\(UUID().uuidString).png")
        let r = qrseal(["encode", "--key-file", key, "-i", file, "-o", image])
        try #require(r.status == 0, "\(r.stderr)")
        return image
    }

    func outputFolder() throws -> String {
        let out = dir.path("out-\(UUID().uuidString)")
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        return out
    }

    func scan(_ image: String, into out: String, _ extra: [String] = []) -> Captured {
        qrseal(["scan", "--no-store", "--key-file", key, "-o", out] + extra + [image])
    }

    @Test("a name starting with a dot is saved without its dots, and stderr says so", arguments: [
        (".bashrc", "bashrc"), (".bash_aliases", "bash_aliases"), ("...profile", "profile"), ("...", "message.bin"),
    ])
    func dotNames(name: String, saved: String) throws {
        let out = try outputFolder()
        let r = scan(try sealedImage(carrying: name), into: out)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("qrseal: the message names its file '\(name)'; saved as '\(saved)'"), "\(r.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out) == [saved])
        #expect(r.out.contains("file \(saved) (20 bytes) written to \(out)/\(saved)"), "\(r.out)")
    }

    @Test("a name that passes for an option, hides characters or is blank at an end is saved without them", arguments: [
        ("--force", "--force", "force"), ("-x", "-x", "x"), (" ", " ", "message.bin"), ("  ", "  ", "message.bin"),
        ("notes.txt  ", "notes.txt  ", "notes.txt"), (" -.profile", " -.profile", "profile"),
        ("pay\u{AD}roll.txt", "pay\\u{00ad}roll.txt", "payroll.txt"), ("\u{3000}wide.txt\u{3000}", "\u{3000}wide.txt\u{3000}", "wide.txt"),
        ("\u{2800}", "\\u{2800}", "message.bin"), ("\u{3164}", "\\u{3164}", "message.bin"),
        ("a\u{E0041}\u{E007F}b.txt", "a\\u{e0041}\\u{e007f}b.txt", "ab.txt"), ("x\u{FE00}.txt", "x\\u{fe00}.txt", "x.txt"),
    ])
    func surprisingNames(name: String, shown: String, saved: String) throws {
        let out = try outputFolder()
        let r = scan(try sealedImage(carrying: name), into: out)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("qrseal: the message names its file '\(shown)'; saved as '\(saved)'"), "\(r.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out) == [saved])
    }

    @Test("a file named - is saved as message.bin, not written to standard output")
    func dashName() throws {
        let image = try sealedImage(carrying: "-", "secret\n")
        let here = try outputFolder()
        let r = try Tools.run(Tools.qrseal, ["open", "--no-store", "--key-file", key, image], currentDirectory: here)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(!r.stdoutText.contains("secret"))
        #expect(r.stderr.contains("qrseal: the message names its file '-'; saved as 'message.bin'"))
        #expect(try String(contentsOfFile: here + "/message.bin", encoding: .utf8) == "secret\n")
    }

    @Test("received files are created with mode 0600")
    func privateMode() throws {
        let out = try outputFolder()
        #expect(scan(try sealedImage(carrying: "wifi.txt"), into: out).status == 0)
        let mode = try FileManager.default.attributesOfItem(atPath: out + "/wifi.txt")[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }

    @Test("names of 248 to 255 bytes can be saved", arguments: [248, 251, 255])
    func longNames(length: Int) throws {
        let name = String(repeating: "n", count: length - 4) + ".txt"
        let out = try outputFolder()
        let r = scan(try sealedImage(carrying: name), into: out)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out) == [name])
    }

    @Test("an existing file or a dangling link at the target is kept without --force")
    func existingTargets() throws {
        let image = try sealedImage(carrying: "notes.txt", "new\n")
        let out = try outputFolder()
        try FileManager.default.createSymbolicLink(atPath: out + "/notes.txt", withDestinationPath: dir.path("elsewhere.txt"))
        let r = scan(image, into: out)
        #expect(r.status == 2)
        #expect(r.stderr.contains("\(out)/notes.txt: file exists\nqrseal: hint: pass --force to replace it"), "\(r.stderr)")
        #expect(r.out.contains("file notes.txt (4 bytes) not written"))
        #expect(!FileManager.default.fileExists(atPath: dir.path("elsewhere.txt")))
        #expect(scan(image, into: out, ["--force"]).status == 0)
        #expect(!FileManager.default.fileExists(atPath: dir.path("elsewhere.txt")))
        #expect(try String(contentsOfFile: out + "/notes.txt", encoding: .utf8) == "new\n")
    }

    @Test("scan -o DIR needs an existing folder, and says so before scanning")
    func missingFolder() throws {
        let image = try sealedImage(carrying: "notes.txt")
        let file = try dir.write("plain.txt", Data())
        for (out, reason) in [(dir.path("absent"), "no such directory"), (file, "not a directory")] {
            let r = scan(image, into: out)
            #expect(r.status == 2)
            #expect(r.stderr.hasPrefix("qrseal: error: \(out): \(reason)\n"), "\(r.stderr)")
            #expect(r.stdout.isEmpty)
        }
    }

    @Test("inbox open -o refuses an existing file before it opens the message")
    func inboxOpenChecksFirst() throws {
        let image = try sealedImage(carrying: "notes.txt")
        let inbox = dir.path("inbox.sqlite")
        #expect(qrseal(["scan", "--inbox", inbox, image]).status == 0)
        let target = try dir.write("taken.txt", Data("old".utf8))
        // No key: were the message opened first, the error would be about the key.
        let r = qrseal(["inbox", "open", "--inbox", inbox, "-o", target, "1"])
        #expect(r.status == 2)
        #expect(r.stderr.contains("\(target): file exists"), "\(r.stderr)")
        let opened = qrseal(["inbox", "open", "--inbox", inbox, "--key-file", key, "--force", "-o", target, "1"])
        #expect(opened.status == 0, "\(opened.stderr)")
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "alias ls='rm -rf ~'\n")
    }

    @Test("open saves a dotfile in the current directory under a visible name")
    func openInCurrentDirectory() throws {
        let image = try sealedImage(carrying: ".bashrc")
        let here = try outputFolder()
        let r = try Tools.run(Tools.qrseal, ["open", "--no-store", "--key-file", key, image], currentDirectory: here)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("qrseal: the message names its file '.bashrc'; saved as 'bashrc'"))
        #expect(r.stderr.contains("qrseal: wrote bashrc (20 bytes)"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: here) == ["bashrc"])
        let again = try Tools.run(Tools.qrseal, ["open", "--no-store", "--key-file", key, image], currentDirectory: here)
        #expect(again.status == 2)
        #expect(again.stderr.contains("bashrc: file exists"))
    }
}
