import Foundation
import Testing
import TestSupport

/// Key and identity files as a person keeps them: written on Windows, left readable by others,
/// or mistyped as a device or a FIFO. Each is read or refused at once, with a clear word.
@Suite("Key files: line ends, marks, modes and what is not a file")
struct KeyFileReadingTests {
    let dir = try! TempDir()
    var env: [String: String] { ["XDG_DATA_HOME": dir.path("data")] }

    func run(_ arguments: [String], stdin: Data? = nil) -> Captured { qrseal(arguments, stdin: stdin, environment: env) }

    /// An identity file written by `keygen --x25519`, rewritten by `edit`, and a code sealed to it.
    func sealedToIdentity(_ edit: (String) -> String) throws -> (identity: String, image: String) {
        let made = dir.path("made.txt")
        let keygen = run(["keygen", "--x25519", "-o", made])
        try #require(keygen.status == 0)
        let recipient = String(keygen.stderr.split(separator: "\n").first { $0.hasPrefix("Public key: ") }!.dropFirst(12))
        let image = dir.path("to-me.png")
        try #require(run(["encode", "--to", recipient, "-o", image, "for my eyes"]).status == 0)
        let edited = try dir.write("edited.txt", Data(edit(try String(contentsOfFile: made, encoding: .utf8)).utf8))
        chmod(edited, 0o600)
        return (edited, image)
    }

    @Test("an identity file with CR LF line ends opens, as age opens it")
    func crlfIdentity() throws {
        let (identity, image) = try sealedToIdentity { $0.replacingOccurrences(of: "\n", with: "\r\n") }
        #expect(try String(contentsOfFile: identity, encoding: .utf8).contains("\r\n"))
        let r = run(["scan", "--no-store", "--identity", identity, image])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.out.contains("[sealed]: for my eyes"), "\(r.out)")
    }

    @Test("a key or identity file that starts with a byte order mark is refused, naming the mark")
    func byteOrderMark() throws {
        let (identity, image) = try sealedToIdentity { "\u{FEFF}" + $0 }
        let r = run(["scan", "--no-store", "--identity", identity, image])
        #expect(r.status == 2)
        #expect(r.stderr.hasPrefix("qrseal: error: \(identity): not a valid key: the file starts with a byte order mark (U+FEFF)"), "\(r.stderr)")
        let key = dir.newKey()
        let marked = try dir.write("marked.key", Data(("\u{FEFF}" + (try String(contentsOfFile: key, encoding: .utf8))).utf8))
        let sealing = run(["encode", "--key-file", marked, "-o", dir.path("x.png"), "hi"])
        #expect(sealing.status == 2 && sealing.stderr.contains("byte order mark"), "\(sealing.stderr)")
    }

    @Test("a key file other users may read is used, with a warning and the chmod that fixes it")
    func openKeyFile() throws {
        let key = dir.newKey()
        chmod(key, 0o644)
        let loose = run(["encode", "--key-file", key, "-o", dir.path("a.png"), "hi"])
        #expect(loose.status == 0)
        #expect(loose.stderr == "qrseal: warning: \(key): the key file is open to other users (mode 0644)\n"
                + "qrseal: hint: keep it private: chmod 600 \(key)\n", "\(loose.stderr)")
        chmod(key, 0o600)
        let kept = run(["encode", "--key-file", key, "-o", dir.path("b.png"), "hi"])
        #expect(kept.status == 0 && kept.stderr.isEmpty, "\(kept.stderr)")
    }

    @Test("a device given as a key file is refused at once, not read")
    func device() throws {
        let r = try Tools.run("/usr/bin/timeout", ["-s", "KILL", "20", Tools.qrseal, "encode", "--key-file", "/dev/zero",
                                                   "-o", dir.path("x.png"), "hi"])
        #expect(r.status == 2)
        #expect(r.stderr.hasPrefix("qrseal: error: /dev/zero: not a regular file, so not a key file\n"), "\(r.stderr)")
    }

    @Test("a FIFO nobody writes to is given up after 10 s with a word; a pipe a shell gives (<(cat k)) is read")
    func pipes() throws {
        let fifo = dir.path("key.fifo")
        try #require(mkfifo(fifo, 0o600) == 0)
        let r = try Tools.run("/usr/bin/timeout", ["-s", "KILL", "60", Tools.qrseal, "encode", "--key-file", fifo,
                                                   "-o", dir.path("x.png"), "hi"])
        #expect(r.status == 2)
        #expect(r.stderr == "qrseal: error: \(fifo): no key came through this pipe for 10 s\n"
            + "qrseal: hint: a FIFO needs a writer: cat KEYFILE > \(fifo), or name the key file itself\n", "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.path("x.png")))
        let key = try dir.write("k.key", qrseal(["keygen"]).stdout)
        chmod(key, 0o600)
        let piped = try Tools.run("bash", ["-c", "\"$0\" encode --key-file <(sleep 1; cat \"$1\") -o \"$2\" hi",
                                           Tools.qrseal, key, dir.path("p.png")])
        #expect(piped.status == 0, "\(piped.stderr)")
        let opened = try Tools.run(Tools.qrseal, ["open", "--key-file", key, dir.path("p.png")])
        #expect(opened.stdoutText == "hi\n" || opened.stdoutText == "hi", "\(opened.stderr)")
    }

    @Test("a key file larger than any key is refused without being read whole")
    func largeFile() throws {
        let big = try dir.write("big.key", Data(repeating: 0x41, count: 1 << 20))
        chmod(big, 0o600)
        let r = run(["encode", "--key-file", big, "-o", dir.path("x.png"), "hi"])
        #expect(r.status == 2)
        #expect(r.stderr.hasPrefix("qrseal: error: \(big): file is 1048576 bytes, more than any key file (at most 64 KiB)"), "\(r.stderr)")
    }
}
