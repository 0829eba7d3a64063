import Foundation
import Testing
import TestSupport

/// Writes that fail say why: the system's own reason, never a later call's, and never
/// "read-only" for a file that is not there.
@Suite("Write failures: the real reason")
struct WriteFailureTests {
    let dir = try! TempDir()

    @Test("a write the file system refuses (here over the file size limit) names that reason, not a missing file")
    func refusedWrite() throws {
        let out = dir.path("out.png")
        let r = try Tools.run("/bin/sh", ["-c", "trap '' XFSZ; ulimit -f 0; exec \"$0\" encode -o \"$1\" hello", Tools.qrseal, out])
        #expect(r.status == 2)
        #expect(r.stderr == "qrseal: error: \(out): cannot write: file too large\n", "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.url.path).isEmpty)
    }

    @Test("an inbox path that is a symbolic link to nothing is named as such, not as read-only")
    func danglingInbox() throws {
        let image = dir.path("a.png")
        #expect(qrseal(["encode", "-o", image, "hello"]).status == 0)
        let link = dir.path("inbox.sqlite")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: dir.path("gone/inbox.sqlite"))
        let r = qrseal(["scan", "--inbox", link, image])
        #expect(r.status == 2)
        #expect(r.stderr.contains("qrseal: error: \(link): cannot open the inbox: a symbolic link to \(dir.path("gone/inbox.sqlite")), which does not exist"),
                "\(r.stderr)")
        #expect(!r.stderr.contains("read-only"))
    }
}
