import Foundation
import Testing
import TestSupport

/// Help, usage and file handling around the inbox and keyring commands.
@Suite("inbox and keys: help, usage and files")
struct InboxUsageTests {
    let dir = try! TempDir()

    @Test("help for the groups and their commands", arguments: [
        ["help", "inbox"], ["help", "keys"], ["help", "inbox", "list"], ["inbox", "--help"], ["inbox", "list", "--help"],
    ])
    func help(arguments: [String]) {
        let r = qrseal(arguments)
        #expect(r.status == 0)
        #expect(r.out.contains("usage: qrseal inbox") || r.out.contains("usage: qrseal keys"))
    }

    @Test("a group without a command, or with options before it, is a usage error")
    func groupUsage() {
        let bare = qrseal(["inbox"])
        #expect(bare.status == 64 && bare.stderr.contains("inbox list"))
        let early = qrseal(["inbox", "--json", "list"])
        #expect(early.status == 64)
        #expect(early.stderr.contains("options go after the subcommand"))
    }

    @Test("export writes a private file and never replaces one without --force")
    func exportFile() throws {
        let inbox = dir.path("i.sqlite")
        let png = dir.path("a.png")
        #expect(qrseal(["encode", "-o", png, "WIFI:S:home;T:WPA;P:secret;;"]).status == 0)
        #expect(qrseal(["scan", "--inbox", inbox, png]).status == 0)
        let out = try dir.write("export.jsonl", Data("keep me".utf8))
        let refused = qrseal(["inbox", "export", "--inbox", inbox, "-o", out])
        #expect(refused.status == 2 && refused.stderr.contains("file exists"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: out)) == Data("keep me".utf8))
        #expect(qrseal(["inbox", "export", "--force", "--inbox", inbox, "-o", out]).status == 0)
        let attributes = try FileManager.default.attributesOfItem(atPath: out)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        #expect(try String(contentsOfFile: out, encoding: .utf8).contains("WIFI:S:home"))
    }

    @Test("a damaged key in the keyring is reported, and scanning goes on")
    func badKeyringKey() throws {
        let data = dir.path("data")
        try FileManager.default.createDirectory(atPath: data + "/qrseal/keys", withIntermediateDirectories: true)
        try Data("QRSEAL-KEY-1-NOTAKEY\n".utf8).write(to: URL(fileURLWithPath: data + "/qrseal/keys/broken.key"))
        let png = dir.path("b.png")
        #expect(qrseal(["encode", "-o", png, "plain"]).status == 0)
        let r = qrseal(["scan", "--no-store", png], environment: ["XDG_DATA_HOME": data])
        #expect(r.status == 0)
        #expect(r.out.hasSuffix("QR-Code: plain\n"))
        #expect(r.stderr.contains("qrseal: warning: keyring key 'broken'"))
    }

    @Test("with no home and no XDG_DATA_HOME, --no-store and --inbox still work")
    func noHome() throws {
        let png = dir.path("c.png")
        #expect(qrseal(["encode", "-o", png, "homeless"]).status == 0)
        let env = ["XDG_DATA_HOME": "", "HOME": ""]
        #expect(qrseal(["scan", "--no-store", png], environment: env).status == 0)
        #expect(qrseal(["scan", "--inbox", dir.path("x.sqlite"), png], environment: env).status == 0)
        let none = qrseal(["scan", png], environment: env)
        #expect(none.status == 2 && none.stderr.contains("cannot tell where to keep data"))
    }
}
