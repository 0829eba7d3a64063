import Foundation
import Testing
import TestSupport

/// `qrseal scan` against files that are not what they claim: each gets its own clear error,
/// exit status 2, and the other files are still read.
@Suite("scan: hostile and broken inputs")
struct ScanErrorTests {
    let dir = try! TempDir()

    /// A real QR code PNG written by the tool itself.
    func goodPNG() throws -> String {
        let path = dir.path("good.png")
        let r = qrseal(["encode", "--force", "-o", path, "still here"])
        #expect(r.status == 0)
        return path
    }

    func jpeg() throws -> [UInt8] {
        let png = try goodPNG()
        let out = dir.path("good.jpg")
        #expect(try Tools.run("convert", [png, "-quality", "90", out]).status == 0)
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: out)))
    }

    @Test("each broken file gets its own message, exit 2, and the good file is still read",
          arguments: [
        ("empty.png", "empty file"),
        ("truncated.png", "damaged PNG image"),
        ("truncated.jpg", "damaged JPEG image"),
        ("notes.png", "not an image (expected PNG, JPEG, PNM, BMP, GIF, TIFF, WebP, PDF or SVG)"),
        ("huge.png", "image is 100000x100000 (10000 megapixels), above the limit of 100 megapixels"),
        ("random.jpg", "not an image"),
        ("folder", "is a directory"),
        ("missing.png", "no such file or directory"),
    ])
    func brokenFile(name: String, message: String) throws {
        let good = try goodPNG()
        let png = [UInt8](try Data(contentsOf: URL(fileURLWithPath: good)))
        var generator = SystemRandomNumberGenerator()
        switch name {
        case "empty.png": try dir.write(name, Data())
        case "truncated.png": try dir.write(name, Data(png.prefix(png.count / 2)))
        case "truncated.jpg": let j = try jpeg(); try dir.write(name, Data(j.prefix(j.count / 2)))
        case "notes.png": try dir.write(name, Data("shopping list: eggs, milk\n".utf8))
        case "huge.png": try dir.write(name, Data(ImageBytes.pngDeclaring(width: 100_000, height: 100_000)))
        case "random.jpg": try dir.write(name, Data((0..<4096).map { _ in UInt8.random(in: 0...255, using: &generator) }))
        case "folder": try FileManager.default.createDirectory(atPath: dir.path(name), withIntermediateDirectories: true)
        default: break
        }
        let bad = dir.path(name)
        let r = qrseal(["scan", bad, good])
        #expect(r.status == 2)
        #expect(r.stderr == "qrseal: error: \(bad): \(message)\n" || r.stderr.hasPrefix("qrseal: error: \(bad): \(message)"),
                "\(r.stderr)")
        #expect(r.out == "\(good): QR-Code: still here\n")
    }

    @Test("a file this user may not read is reported, not crashed on")
    func unreadable() throws {
        let good = try goodPNG()
        let secret = dir.path("secret.png")
        try FileManager.default.copyItem(atPath: good, toPath: secret)
        chmod(secret, 0)
        // root reads anything: run the binary as nobody then.
        var command = [Tools.qrseal, "scan", "--no-store", secret]
        if getuid() == 0 {
            chmod(dir.url.path, 0o755)
            command = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] + command
        }
        let r = try Tools.run(command[0], Array(command.dropFirst()))
        #expect(r.status == 2)
        #expect(r.stderr.contains("\(secret): permission denied"), "\(r.stderr)")
    }

    @Test("--max-pixels refuses a large image before reading it")
    func maxPixels() throws {
        let good = try goodPNG()
        let r = qrseal(["scan", "--max-pixels", "1000", good])
        #expect(r.status == 2)
        #expect(r.stderr.contains("above the limit of 1000 pixels"), "\(r.stderr)")
    }

    @Test("images without a symbol exit 1, print nothing on standard output and say so on standard error")
    func nothingFound() throws {
        let blank = dir.path("blank.png")
        #expect(try Tools.run("convert", ["-size", "200x200", "xc:white", blank]).status == 0)
        let r = qrseal(["scan", blank])
        #expect(r.status == 1)
        #expect(r.stdout.isEmpty && r.stderr == "qrseal: \(blank): no code found\n", "\(r.stderr)")
    }

    @Test("an image on standard input is read with -")
    func stdin() throws {
        let good = try goodPNG()
        let r = qrseal(["scan", "--raw", "-"], stdin: try Data(contentsOf: URL(fileURLWithPath: good)))
        #expect(r.status == 0)
        #expect(r.out == "still here\n")
    }

    @Test("--json gives the documented fields with corners inside the image")
    func json() throws {
        let path = dir.path("j.png")
        #expect(qrseal(["encode", "--scale", "4", "-o", path, "json me"]).status == 0)
        let r = qrseal(["scan", "--json", path])
        let object = try #require(try JSONSerialization.jsonObject(with: r.stdout) as? [String: Any])
        #expect(object["source"] as? String == path)
        #expect(object["format"] as? String == "QR-Code")
        #expect(object["text"] as? String == "json me")
        #expect(object["bytes_base64"] as? String == Data("json me".utf8).base64EncodedString())
        let corners = try #require(object["corners"] as? [[Double]])
        #expect(corners.count == 4)
        #expect(corners.allSatisfy { $0.count == 2 && $0[0] >= 0 && $0[1] >= 0 && $0[0] < 200 && $0[1] < 200 })
    }

    @Test("--json leaves out text for binary payloads but keeps the bytes")
    func jsonBinary() throws {
        let bin = try dir.write("b.bin", Data([0, 1, 2, 0xFF, 0xFE]))
        let path = dir.path("b.png")
        #expect(qrseal(["encode", "-i", bin, "-o", path]).status == 0)
        let r = qrseal(["scan", "--json", path])
        let object = try #require(try JSONSerialization.jsonObject(with: r.stdout) as? [String: Any])
        #expect(object["text"] == nil)
        #expect(object["bytes_base64"] as? String == Data([0, 1, 2, 0xFF, 0xFE]).base64EncodedString())
        #expect(qrseal(["scan", path]).out == "\(path): QR-Code: <5 bytes of binary data>\n")
    }
}
