import Foundation
import Testing
import TestSupport

/// An inbox this user may read but not write: reading commands work, and commands that read
/// codes show them and report only that the inbox could not keep them. Run as nobody, since
/// root may write anything.
@Suite("inbox: read-only")
struct InboxReadOnlyTests {
    let box = InboxSandbox()

    /// Runs the real binary as this user, or as nobody when this is root.
    func runAsUser(_ arguments: [String]) throws -> ToolResult {
        guard getuid() == 0 else { return try Tools.run(Tools.qrseal, arguments, environment: box.processEnv) }
        let asNobody = ["--reuid=65534", "--regid=65534", "--clear-groups", Tools.qrseal]
        return try Tools.run("setpriv", asNobody + arguments, environment: box.processEnv)
    }

    /// An inbox at `path` with a text item (1) and a sealed one (2), owned by the user
    /// `runAsUser` runs as; a code not in it, another sealed one, and their key.
    func prepare(_ path: String) throws -> (png: String, sealed: String, key: String) {
        let key = box.keygen()
        let kept = [box.encode("kept.png", "kept before"), box.encode("kept-sealed.png", "kept sealed", ["--key-file", key])]
        #expect(box.run(["scan", "--inbox", path, "--key-file", key] + kept).status == 0)
        let sealed = box.encode("sealed.png", "for your eyes", ["--key-file", key])
        let png = box.encode("new.png", "read now")
        if getuid() == 0 { #expect(chownAll(box.dir.url.path)) }
        return (png, sealed, key)
    }

    private func chownAll(_ root: String) -> Bool {
        guard let names = FileManager.default.subpaths(atPath: root) else { return false }
        return ([root] + names.map { root + "/" + $0 }).allSatisfy { chown($0, 65534, 65534) == 0 }
    }

    @Test("a read-only file or folder: list, show, search, count, export and inbox open work; scan and open show what they read",
          arguments: ["file", "folder"])
    func readOnly(what: String) throws {
        try FileManager.default.createDirectory(atPath: box.dir.path("ro"), withIntermediateDirectories: true)
        let path = box.dir.path("ro/inbox.sqlite")
        let (png, sealed, key) = try prepare(path)
        if what == "file" { chmod(path, 0o400) } else { chmod(box.dir.path("ro"), 0o500) }
        defer { chmod(box.dir.path("ro"), 0o700); chmod(path, 0o600) }

        let list = try runAsUser(["inbox", "list", "--inbox", path])
        #expect(list.status == 0, "\(list.stderr)")
        #expect(list.stdoutText.contains("kept before"))
        #expect(try runAsUser(["inbox", "show", "1", "--inbox", path]).stdoutText.contains("text      kept before"))
        #expect(try runAsUser(["inbox", "list", "--search", "before", "--inbox", path]).status == 0)
        #expect(try runAsUser(["inbox", "count", "--inbox", path]).stdoutText.hasPrefix("2 items\n"))
        #expect(try runAsUser(["inbox", "export", "--inbox", path]).stdoutText.contains("\"text\":\"kept before\""))
        let kept = try runAsUser(["inbox", "open", "2", "--key-file", key, "--inbox", path])
        #expect(kept.status == 0, "\(kept.stderr)")
        #expect(kept.stdoutText == "kept sealed")

        let scan = try runAsUser(["scan", "--inbox", path, png])
        #expect(scan.status == 2)
        #expect(scan.stdoutText == "\(png): QR-Code: read now\n")
        let reason = what == "file" ? "the file is read-only (permission denied)"
            : "its folder \(box.dir.path("ro")) is read-only (permission denied); SQLite keeps files beside the inbox"
        #expect(scan.stderr.hasPrefix("qrseal: error: \(path): cannot write to the inbox: \(reason)\n"), "\(scan.stderr)")
        #expect(scan.stderr.components(separatedBy: "error:").count == 2)

        let open = try runAsUser(["open", "--inbox", path, "--key-file", key, sealed])
        #expect(open.status == 2)
        #expect(open.stdoutText == "for your eyes")
        #expect(open.stderr.hasPrefix("qrseal: error: \(path): cannot write to the inbox: \(reason)\n"), "\(open.stderr)")
        #expect(try runAsUser(["inbox", "count", "--inbox", path]).stdoutText.hasPrefix("2 items\n"))

        // Reading left nothing behind that would stop the inbox once it may be written again.
        chmod(box.dir.path("ro"), 0o700)
        chmod(path, 0o600)
        let writable = try runAsUser(["scan", "--inbox", path, png])
        #expect(writable.status == 0, "\(writable.stderr)")
        #expect(try runAsUser(["inbox", "count", "--inbox", path]).stdoutText.hasPrefix("3 items\n"))
    }

    @Test("a -shm file this user may not use is named in the error")
    func foreignSharedMemory() throws {
        let path = box.inbox
        _ = try prepare(path)
        let shm = path + "-shm"
        #expect(FileManager.default.createFile(atPath: shm, contents: nil))
        chmod(shm, 0o600)
        if getuid() == 0 { chown(shm, 0, 0) } else { chmod(shm, 0) }
        for arguments in [["inbox", "list"], ["scan", box.dir.path("new.png")]] {
            let r = try runAsUser(arguments + ["--inbox", path])
            #expect(r.status == 2)
            #expect(r.stderr.contains("\(path): cannot "), "\(r.stderr)")
            #expect(r.stderr.contains("\(shm): permission denied"), "\(r.stderr)")
        }
    }
}
