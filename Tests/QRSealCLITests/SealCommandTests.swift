import Foundation
import Testing
import TestSupport
import QRSealKit

/// Sealing, opening and keys through the command line, in-process.
@Suite("Sealed messages on the command line")
struct SealCommandTests {
    let dir = try! TempDir()

    func newKey(_ name: String = "k.key") -> String { dir.newKey(name) }

    @Test("keygen writes a checksummed key with mode 0600 and replaces one only with --force")
    func keygen() throws {
        let path = newKey()
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.hasPrefix("QRSEAL-KEY-1-") && text.hasSuffix("\n") && text.count == 72)
        let again = qrseal(["keygen", "-o", path])
        #expect(again.status == 2)
        #expect(again.stderr.contains("k.key: file exists\nqrseal: hint: pass --force to replace it"))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == text)
        #expect(qrseal(["keygen", "--force", "-o", path]).status == 0)
        #expect(try String(contentsOfFile: path, encoding: .utf8) != text)
        #expect((try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) == 0o600)
        // Without -o the key goes to standard output, and two keys differ.
        #expect(qrseal(["keygen"]).out.hasPrefix("QRSEAL-KEY-1-"))
        #expect(qrseal(["keygen"]).out != qrseal(["keygen"]).out)
    }

    @Test("a mistyped key file is caught by its checksum")
    func mistypedKey() throws {
        let path = newKey()
        var text = Array(try String(contentsOfFile: path, encoding: .utf8))
        text[20] = text[20] == "A" ? "B" : "A"
        try dir.write("typo.key", Data(String(text).utf8))
        let r = qrseal(["encode", "--key-file", dir.path("typo.key"), "-o", dir.path("x.png"), "hi"])
        #expect(r.status == 2)
        #expect(r.stderr.contains("typo.key: not a valid key: checksum mismatch"))
        #expect(!FileManager.default.fileExists(atPath: dir.path("x.png")))
    }

    @Test("sealed with a key file: scan opens it with the key, reports it sealed without, exit 3 with another")
    func keyFileRoundTrip() {
        let key = newKey(), other = newKey("other.key")
        let png = dir.path("s.png")
        #expect(qrseal(["encode", "--key-file", key, "-o", png, "meet at dawn"]).status == 0)
        let opened = qrseal(["scan", "--key-file", key, png])
        #expect(opened.status == 0)
        #expect(opened.out == "\(png): QR-Code [sealed]: meet at dawn\n")
        let locked = qrseal(["scan", png])
        #expect(locked.status == 0)
        #expect(locked.out.contains("QR-Code [sealed]: <not opened: ") && locked.out.contains("for a key file>"))
        #expect(locked.stderr.contains("qrseal: hint: 1 sealed message for a key file not opened: pass the key with --key-file FILE"))
        #expect(!locked.out.contains("meet at dawn"))
        let wrong = qrseal(["scan", "--key-file", other, png])
        #expect(wrong.status == 3)
        #expect(wrong.stderr.contains("wrong key or passphrase, or the message was altered"))
        // Several keys: the right one is found among them.
        #expect(qrseal(["scan", "--raw", "--key-file", other, "--key-file", key, png]).out == "meet at dawn\n")
    }

    @Test("a passphrase from QRSEAL_PASSPHRASE and from a file are the same key")
    func passphraseSources() throws {
        let png = dir.path("p.png")
        let env = ["QRSEAL_PASSPHRASE": "correct horse battery staple"]
        #expect(qrseal(["encode", "-o", png, "under the oak"], environment: env).status == 0)
        try dir.write("pass.txt", Data("correct horse battery staple\n".utf8))
        let r = qrseal(["scan", "--raw", "--passphrase-file", dir.path("pass.txt"), png])
        #expect(r.out == "under the oak\n")
        #expect(!r.stderr.contains("correct horse"))
        let wrong = qrseal(["scan", png], environment: ["QRSEAL_PASSPHRASE": "incorrect horse"])
        #expect(wrong.status == 3)
        #expect(!wrong.stderr.contains("incorrect horse"))
    }

    @Test("--seal asks for the passphrase twice on a terminal, again after a mismatch, and gives up after three")
    func prompt() {
        let png = dir.path("q.png")
        let strong = "oak river lantern 42"
        let ok = qrseal(["encode", "--seal", "-o", png, "prompted"], answers: [strong, strong])
        #expect(ok.status == 0)
        #expect(!ok.stderr.contains("weak"), "\(ok.stderr)")
        #expect(qrseal(["scan", "--raw", png], answers: [strong]).out == "prompted\n")
        // A slip on the second entry: asked again, and sealed.
        let retried = qrseal(["encode", "--seal", "-o", dir.path("s.png"), "retried"], answers: [strong, "oak river", strong, strong])
        #expect(retried.status == 0, "\(retried.stderr)")
        #expect(retried.stderr.contains("qrseal: the passphrases do not match; try again"))
        #expect(qrseal(["scan", "--raw", dir.path("s.png")], answers: [strong]).out == "retried\n")
        let mismatch = qrseal(["encode", "--seal", "-o", dir.path("r.png"), "x"], answers: ["one", "two", "one", "two", "one", "two"])
        #expect(mismatch.status == 2)
        #expect(mismatch.stderr.contains("qrseal: error: the passphrases do not match (3 tries)"))
        #expect(!FileManager.default.fileExists(atPath: dir.path("r.png")))
    }

    @Test("a weak passphrase typed at the prompt seals, with a warning naming its strength and never its text")
    func weakPassphrase() {
        let weak = qrseal(["encode", "--seal", "-o", dir.path("w.png"), "x"], answers: ["abc", "abc"])
        #expect(weak.status == 0)
        #expect(weak.stderr.contains("qrseal: warning: this passphrase is weak (about"), "\(weak.stderr)")
        #expect(!weak.stderr.contains("abc"))
        #expect(PassphraseStrength.isWeak("abc") && PassphraseStrength.isWeak("password") && PassphraseStrength.isWeak("aaaaaaaaaaaa"))
        #expect(!PassphraseStrength.isWeak("oak river lantern 42") && !PassphraseStrength.isWeak("Tr0ub4dor&3xQ"))
    }

    @Test("--seal with no key source and no terminal fails with a hint; no passphrase option exists")
    func noKey() {
        let r = qrseal(["encode", "--seal", "-o", dir.path("n.png")], stdin: Data("secret".utf8))
        #expect(r.status == 2)
        #expect(r.stderr.contains("qrseal: hint: pass --key-file FILE or --passphrase-file FILE"))
        let argv = qrseal(["encode", "--passphrase", "hunter2", "x"])
        #expect(argv.status == 64)
        #expect(!argv.stderr.contains("hunter2"))
    }

    @Test("open reads the text a phone shows, with line breaks and spaces in it")
    func openPastedText() throws {
        let key = newKey()
        let png = dir.path("t.png")
        #expect(qrseal(["encode", "--key-file", key, "-o", png, "pasted back"]).status == 0)
        let raw = qrseal(["scan", "--raw", png]).out  // no key: raw prints nothing for sealed
        #expect(raw.isEmpty)
        let peer = try Tools.run("zbarimg", ["--quiet", "--raw", "--nodbus", png]).stdoutText
        #expect(peer.hasPrefix("QRSEAL1:"))
        var mangled = ""
        for (i, c) in peer.enumerated() { mangled.append(c); if i % 17 == 0 { mangled += i % 2 == 0 ? "\n" : "  " } }
        let r = qrseal(["open", "--key-file", key, "-"], stdin: Data(mangled.utf8))
        #expect(r.status == 0)
        #expect(r.out == "pasted back")
        // As some scanner apps put it on the clipboard, words before it.
        let labelled = qrseal(["open", "--key-file", key, "-"], stdin: Data(("Scanned text: " + peer).utf8))
        #expect(labelled.status == 0 && labelled.out == "pasted back", "\(labelled.stderr)")
        // A digit changed: the message no longer opens (3); a letter among digits is damage (2).
        var digits = Array(peer.trimmingCharacters(in: .whitespacesAndNewlines))
        digits[30] = digits[30] == "1" ? "2" : "1"
        let altered = qrseal(["open", "--key-file", key, "-"], stdin: Data(String(digits).utf8))
        #expect([2, 3].contains(altered.status))
        digits[30] = "x"
        let damaged = qrseal(["open", "--key-file", key, "-"], stdin: Data(String(digits).utf8))
        #expect(damaged.status == 2)
        #expect(damaged.stderr.contains("not digits"))
    }

    @Test("a sealed file: its name travels with it; open writes it once and never overwrites")
    func sealedFile() throws {
        let key = newKey()
        let payload = Data([0, 1, 2, 3, 0xFF] + Array("report body".utf8))
        let input = try dir.write("report.bin", payload)
        let png = dir.path("f.png")
        #expect(qrseal(["encode", "--key-file", key, "-i", input, "-o", png]).status == 0)
        let listed = qrseal(["scan", "--key-file", key, png])
        #expect(listed.out.contains("file report.bin (16 bytes); pass -o DIR to save it"))
        let outDir = dir.path("inbox")
        try FileManager.default.createDirectory(atPath: outDir, withIntermediateDirectories: true)
        #expect(qrseal(["scan", "--key-file", key, "-o", outDir, png]).status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: outDir + "/report.bin")) == payload)
        // open writes the stored name in the current directory, and refuses to replace it.
        let first = try Tools.run(Tools.qrseal, ["open", "--key-file", key, png], currentDirectory: outDir)
        #expect(first.status == 2)
        #expect(first.stderr.contains("report.bin: file exists"))
        try FileManager.default.removeItem(atPath: outDir + "/report.bin")
        let second = try Tools.run(Tools.qrseal, ["open", "--key-file", key, png], currentDirectory: outDir)
        #expect(second.status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: outDir + "/report.bin")) == payload)
        let forced = qrseal(["open", "--force", "--key-file", key, "-o", outDir + "/report.bin", png])
        #expect(forced.status == 0)
    }

    @Test("binary armor is read back by qrseal and byte-exact by zbarimg")
    func binaryArmor() throws {
        let key = newKey()
        let png = dir.path("b.png")
        #expect(qrseal(["encode", "--armor", "binary", "--key-file", key, "-o", png, "raw bytes"]).status == 0)
        #expect(qrseal(["scan", "--raw", "--key-file", key, png]).out == "raw bytes\n")
        let peer = try Tools.run("zbarimg", ["--quiet", "--raw", "--nodbus", "-Sbinary", png])
        #expect([UInt8](peer.stdout.prefix(4)) == [0x00, 0x51, 0x52, 0x53])
    }
}
