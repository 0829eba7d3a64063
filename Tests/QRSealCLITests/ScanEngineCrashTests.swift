import Foundation
import QRSealKit
import Testing
import TestSupport

/// What a person sees when a library in the engine crashes on their picture (the 494-byte
/// picture on which libZXing 1.4's Micro QR sampler asserts, alone and in a page), or when
/// Tesseract's data would hang or abort its start: the tool goes on, reads the other
/// inputs, and names what happened. Run as the real binary, which is what died before.
@Suite("scan and open: a library crashing in the engine")
struct ScanEngineCrashTests {
    let dir = try! TempDir()
    static let abort = Tools.packageRoot.appendingPathComponent("Tests/Images/abort")
    static let crash = abort.appendingPathComponent("microqr-sampler.png").path
    static let inPage = abort.appendingPathComponent("microqr-sampler-in-page.png").path
    static let warning = "zxing-cpp crashed (SIGABRT, a failed assertion) in its helper process; the other readers went on, "
        + "but a code only it reads may be missed"

    /// Copies qrseal with cp(1): its descriptor of the copy ends with it, never held open
    /// for writing by a program another test starts meanwhile.
    func copyBinary(to path: String) throws {
        let r = try Tools.run("cp", [Tools.qrseal, path])
        try #require(r.status == 0, "\(r.stderr)")
    }

    /// Runs a binary this test just copied: until every child another test was starting as
    /// it was written has reached its exec, starting it may fail with ETXTBSY.
    func runCopied(_ path: String, _ arguments: [String], environment: [String: String]? = nil) throws -> ToolResult {
        for _ in 0..<40 {
            if let result = try? Tools.run(path, arguments, environment: environment) { return result }
            usleep(50_000)
        }
        return try Tools.run(path, arguments, environment: environment)
    }

    func code(_ text: String) throws -> String {
        try dir.write(text + ".png", Data(try PNGEncoder.encode(try QREncoder().encode(.text(text)).image(scale: 4, margin: 4))))
    }

    @Test("scan reads the files after it, at every effort, and warns about the one it crashed on", arguments: Effort.allCases)
    func scanGoesOn(effort: Effort) throws {
        let after = try code("read after the crash")
        let r = try Tools.run(Tools.qrseal, ["scan", "--no-store", "--raw", "--effort", effort.rawValue, Self.inPage, after])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdoutText == "read after the crash\n")
        #expect(r.stderr == "qrseal: warning: \(Self.inPage): \(Self.warning)\nqrseal: \(Self.inPage): no code found\n")
    }

    @Test("--json gives the warning as an object with its source")
    func jsonWarning() throws {
        let r = try Tools.run(Tools.qrseal, ["scan", "--no-store", "--json", Self.crash])
        #expect(r.status == 1)
        #expect(r.stdoutText == JSON.line([("event", .string("nothing_found")), ("source", .string(Self.crash))]) + "\n")
        #expect(r.stderr == JSON.line([("warning", .string(Self.warning)), ("source", .string(Self.crash))]) + "\n")
    }

    @Test("open ends with its own error, not a crash")
    func openGoesOn() throws {
        let r = try Tools.run(Tools.qrseal, ["open", Self.crash])
        #expect(r.status == 1)
        #expect(r.stderr == "qrseal: warning: \(Self.crash): \(Self.warning)\n"
            + "qrseal: error: \(Self.crash): no sealed message found\n")
    }

    @Test("a live stream whose frames hold the picture goes on to the code that follows")
    func liveGoesOn() throws {
        let page = try ImageDecoder().decode(Array(try Data(contentsOf: URL(fileURLWithPath: Self.inPage))))
        let code = try QREncoder().encode(.text("live after the crash")).image(scale: 4, margin: 4)
        var later = [UInt8](repeating: 255, count: page.width * page.height)
        for y in 0..<code.height {
            for x in 0..<code.width { later[(y + 100) * page.width + x + 100] = code.pixels[y * code.width + x] }
        }
        // Three frames that differ in a corner pixel, so that each is searched (and crashes zxing-cpp).
        let crashing = (0..<3).map { n -> [UInt8] in
            var pixels = page.pixels
            pixels[0] = UInt8(250 + n)
            return pixels
        }
        let stream = Scenes.y4m(width: page.width, height: page.height,
                                frames: crashing + Array(repeating: later, count: 3))
        let r = try Tools.run(Tools.qrseal, ["scan", "--no-store", "--raw", "--stream", "-"], input: stream)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdoutText == "live after the crash\n")
        // Said once, though three frames crashed it.
        #expect(r.stderr.components(separatedBy: "qrseal: warning: -: \(Self.warning)\n").count == 2, "\(r.stderr)")
    }

    @Test("a qrseal without its helper says so, and what to do")
    func missingHelper() throws {
        let alone = dir.url.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: alone, withIntermediateDirectories: true)
        let copy = alone.appendingPathComponent("qrseal").path
        try copyBinary(to: copy)
        let r = try runCopied(copy, ["scan", "--no-store", try code("unread")])
        #expect(r.status == 2)
        #expect(r.stderr.contains("zxing-cpp could not run: the helper qrseal-engine did not start ("
            + alone.path + "/qrseal-engine: No such file or directory)"), "\(r.stderr)")
        #expect(r.stderr.contains("qrseal: hint: reinstall qrseal: its helper \(alone.path)/qrseal-engine is part of it"))
    }

    @Test("data that started cleanly in the helper is recorded (0600) in the cache and not checked again until it changes")
    func startRecord() throws {
        let data = dir.url.appendingPathComponent("tessdata-good")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        let file = data.appendingPathComponent("eng.traineddata").path
        try FileManager.default.copyItem(atPath: TextRecognizer.defaultDataPath + "/eng.traineddata", toPath: file)
        let frame = Tools.packageRoot.appendingPathComponent("Tests/Images/text-other/frame.jpg").path
        let environment = Tools.environment(["TESSDATA_PREFIX": data.path, "XDG_CACHE_HOME": dir.path("cache")])
        let first = try Tools.run(Tools.qrseal, ["scan", "--text-only", "--no-store", "--raw", frame], environment: environment)
        #expect(first.status == 0, "\(first.stderr)")
        let record = dir.path("cache") + "/qrseal/tesseract-starts"
        let mode = try FileManager.default.attributesOfItem(atPath: record)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        #expect(try String(contentsOfFile: record, encoding: .utf8).split(separator: "\n").count == 1)
        // A qrseal with no helper beside it reads text with the recorded data, as before…
        let alone = dir.url.appendingPathComponent("alone")
        try FileManager.default.createDirectory(at: alone, withIntermediateDirectories: true)
        try copyBinary(to: alone.appendingPathComponent("qrseal").path)
        let arguments = ["scan", "--text-only", "--no-store", "--raw", frame]
        let again = try runCopied(alone.appendingPathComponent("qrseal").path, arguments, environment: environment)
        #expect(again.status == 0 && again.stdout == first.stdout, "\(again.stderr)")
        // …but once the file changed, it must be checked again, which needs the helper.
        #expect(utimes(file, nil) == 0)
        let changed = try runCopied(alone.appendingPathComponent("qrseal").path, arguments, environment: environment)
        #expect(changed.status == 2)
        #expect(changed.stderr.hasPrefix("qrseal: error: text recognition could not start: Tesseract could not run: "
            + "the helper qrseal-engine did not start"), "\(changed.stderr)")
    }

    @Test("Tesseract data that hangs or aborts its start, or is a FIFO: an error naming it, never a hang",
          arguments: ["no edges", "no characters", "fifo"])
    func damagedTextData(_ damage: String) throws {
        let data = dir.url.appendingPathComponent("tessdata-" + damage.replacingOccurrences(of: " ", with: "-"))
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        let file = data.appendingPathComponent("eng.traineddata").path
        if damage == "fifo" {
            #expect(mkfifo(file, 0o600) == 0)
        } else {
            var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: TextRecognizer.defaultDataPath + "/eng.traineddata")))
            // Component 19 is the word list (edges counted after a 16-bit magic and a 32-bit
            // size), 21 the character set (text, its size first); offsets follow the count.
            let component = damage == "no edges" ? 19 : 21
            let at = (0..<8).reduce(0) { $0 | Int(bytes[4 + 8 * component + $1]) << (8 * $1) }
            if damage == "no edges" { bytes.replaceSubrange(at + 6..<at + 10, with: [0, 0, 0, 0]) }
            else { bytes.replaceSubrange(at..<at + 3, with: Array("  0".utf8)) }
            try Data(bytes).write(to: URL(fileURLWithPath: file))
        }
        let frame = Tools.packageRoot.appendingPathComponent("Tests/Images/text-other/frame.jpg").path
        // A hang would be killed after two minutes (status 137), and fail.
        let r = try Tools.run("timeout", ["-s", "KILL", "120", Tools.qrseal, "scan", "--text-only", "--no-store", frame],
                              environment: Tools.environment(["TESSDATA_PREFIX": data.path]))
        #expect(r.status == 2, "\(r.stderr)")
        #expect(r.stdout.isEmpty)
        #expect(r.stderr == (damage == "fifo"
            ? "qrseal: error: \(file): not a regular file\n"
                + "qrseal: hint: reinstall it: apt-get install --reinstall tesseract-ocr-eng\n"
            : "qrseal: error: tesseract could not start with 'eng' from \(data.path)/\n"
                + "qrseal: hint: a data file may be damaged: reinstall it: apt-get install --reinstall tesseract-ocr-eng\n"))
    }
}
