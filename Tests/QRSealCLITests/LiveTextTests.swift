import Foundation
import Testing
import TestSupport
import QRSealKit

/// `qrseal scan --stream FILE --text`: text recognised live beside the codes, in streams made
/// here (the rendered lines of Tests/Images/text and a QR code pasted on a noisy background).
/// A stream read from a regular file is recognised wherever due, so its events depend only on
/// its frames; the real binary reading a pipe paces text in real time.
@Suite("live scan: text beside the codes")
struct LiveTextTests {
    let box = InboxSandbox()
    static let (width, height) = (1000, 240)
    static let folder = Tools.packageRoot.appendingPathComponent("Tests/Images/text").path

    static func sprite(_ path: String) throws -> Sprite {
        let image = try ImageDecoder().decode(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
        return Sprite(width: image.width, height: image.height, pixels: image.pixels)
    }

    static func lines(_ name: String) throws -> [String] {
        try String(contentsOfFile: folder + "/" + name + ".txt", encoding: .utf8).split(separator: "\n").map(String.init)
    }

    static let sans = try! sprite(folder + "/sans.png"), serif = try! sprite(folder + "/serif.png")
    static let code: Sprite = {
        let image = try! QREncoder().encode(.text("table 12")).image(scale: 3, margin: 4)
        return Sprite(width: image.width, height: image.height, pixels: image.pixels)
    }()

    /// A stream of `count` frames, frame n (from 1) showing `scene(n)`.
    func stream(_ name: String, count: Int, width: Int = Self.width, height: Int = Self.height,
                _ scene: (Int) -> [Placement]) throws -> String {
        let frames = (1...count).map { Scenes.frame(width: width, height: height, scene($0), noise: 3, seed: UInt64($0)) }
        return try box.dir.write(name, Scenes.y4m(width: width, height: height, frames: frames))
    }

    /// The code held a little unsteadily at the right all along; the sans lines beside it in
    /// frames 5–14, the serif lines in their place in frames 15–24, then no text.
    func changing(_ name: String = "text.y4m") throws -> String {
        try stream(name, count: 36) { n in
            var scene = [Placement(Self.code, x: 800 + n % 3 * 2, y: 50 + n % 2 * 2)]
            if (5...14).contains(n) { scene.append(Placement(Self.sans, x: 10, y: 50)) }
            if (15...24).contains(n) { scene.append(Placement(Self.serif, x: 10, y: 50)) }
            return scene
        }
    }

    static func events(_ output: String) -> [[String: Any]] {
        output.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    @Test("human output: the code once, each stable line once, changed lines as they change; each stable text kept once")
    func human() throws {
        let path = try changing()
        let r = box.run(["scan", "--stream", path, "--text"])
        #expect(r.status == 0, "\(r.stderr)")
        let expected = ["\(path): QR-Code: table 12"] + (try Self.lines("sans") + Self.lines("serif")).map { "\(path): text: \($0)" }
        #expect(r.out == expected.joined(separator: "\n") + "\n")
        #expect(r.stderr == "qrseal: \(path): end of stream after 36 frames (1.2 s): 1 code read, 2 text blocks read, 5 kept in the inbox\n")
        let items = box.items()
        let texts = items.filter { $0["symbology"] as? String == "text" }.compactMap { $0["text"] as? String }
        #expect(texts.sorted() == (try Self.lines("sans") + Self.lines("serif")).sorted())
        #expect(items.allSatisfy { $0["source_kind"] as? String == "stream" })
        // The same stream again: the same events, nothing new kept where repeats are skipped.
        let again = box.run(["scan", "--stream", path, "--text", "--dedupe", "always"])
        #expect(again.out == r.out)
        #expect(again.stderr.hasSuffix("1 code read, 2 text blocks read, 0 kept in the inbox\n"), "\(again.stderr)")
        #expect(box.items().count == items.count)
    }

    @Test("--json: add, update and remove events for text blocks with the fields of still-image blocks, beside the code's")
    func json() throws {
        let path = try changing()
        let r = box.run(["scan", "--stream", path, "--text", "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let events = Self.events(r.out)
        let text = events.filter { $0["format"] as? String == "text" }
        let code = events.filter { $0["format"] as? String == "QR-Code" }
        #expect(code.first?["event"] as? String == "add" && code.last?["event"] as? String == "remove")
        #expect(code.filter { $0["event"] as? String == "add" }.count == 1)
        #expect(text.map { $0["event"] as? String ?? "" } == ["add", "add", "update", "update", "remove", "remove"])
        #expect(text.map { $0["text"] as? String ?? "" } == (try Self.lines("sans") + Self.lines("serif") + Self.lines("serif")))
        #expect(Set(text.compactMap { $0["id"] as? Int }) == [1, 2])
        for event in text {
            #expect((event["corners"] as? [[Double]])?.count == 4)
            #expect((0...100).contains(event["confidence"] as? Double ?? -1))
            #expect(event["kind"] as? String == "text" && event["source"] as? String == path)
            let words = (event["lines"] as? [[String: Any]])?.first?["words"] as? [[String: Any]] ?? []
            #expect(!words.isEmpty && words.allSatisfy { ($0["box"] as? [Int])?.count == 4 })
            #expect(event["frame"] is Int && event["time"] is Double && event["inbox_id"] is Int)
        }
        // Adds come from frames with the sans lines, updates from frames with the serif ones.
        let frames = text.map { $0["frame"] as? Int ?? 0 }
        #expect((5...14).contains(frames[0]) && (15...24).contains(frames[2]) && frames[4] > 24, "\(frames)")
        // A corner of the first block lies where its line was drawn, in frame pixels.
        let corners = try #require(text.first?["corners"] as? [[Double]])
        #expect(corners[0][0] >= 10 && corners[0][0] < 80 && corners[0][1] >= 50 && corners[0][1] < 110, "\(corners)")
    }

    @Test("--text-only reads no code, and the code's modules are not read as letters; --once stops at the first stable text")
    func textOnlyOnce() throws {
        let path = try changing()
        let r = box.run(["scan", "--stream", path, "--text-only", "--no-store"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(!r.out.contains("QR-Code") && r.out.contains("text: Pack my box with five dozen liquor jugs."), "\(r.out)")
        #expect(r.stderr.hasSuffix(": 2 text blocks read\n"), "\(r.stderr)")
        let once = box.run(["scan", "--stream", path, "--text-only", "--no-store", "--once"])
        #expect(once.status == 0)
        // The lines that became stable on the same frame are all printed.
        #expect(once.out == (try Self.lines("sans")).map { "\(path): text: \($0)\n" }.joined(), "\(once.out)")
        #expect(once.stderr.contains(": stopped at the first text after "), "\(once.stderr)")
    }

    @Test("printed sealed digits seen live open with the key, once, and are kept sealed")
    func sealedDigits() throws {
        let key = box.dir.path("printout.key")
        try FileManager.default.copyItem(atPath: Self.folder + "/printout.key", toPath: key)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: key)
        let digits = try String(contentsOfFile: Self.folder + "/printout-armor.txt", encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let groups = Array(digits.dropFirst("QRSEAL1:".count)).chunked(5).map { String($0) }
        let lines = ["QRSEAL1:"] + groups.chunked(8).map { $0.joined(separator: " ") }
        let png = box.dir.path("printed.png")
        let made = try Tools.run("convert", ["-font", "DejaVu-Sans-Mono", "-pointsize", "24", "-background", "white"]
                                 + lines.map { "label:" + $0 } + ["-append", "-bordercolor", "white", "-border", "20", png])
        #expect(made.status == 0, "\(made.stderr)")
        let sheet = try Self.sprite(png)
        let path = try stream("sealed.y4m", count: 8, width: sheet.width + 40, height: sheet.height + 40) { n in
            n >= 2 ? [Placement(sheet, x: 20, y: 20)] : []
        }
        let r = box.run(["scan", "--stream", path, "--text-only", "--key-file", key])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.out == "\(path): text [sealed]: meet at noon\n")
        let kept = box.items().filter { $0["symbology"] as? String == "text" }.compactMap { $0["text"] as? String }
        #expect(kept.count == 1, "\(kept)")
        #expect(kept.allSatisfy { $0.hasPrefix("QRSEAL1:") && !$0.contains("meet") })
    }

    @Test("frames that change all the time (noise) are never recognised: nothing read, exit 1")
    func restless() throws {
        let path = try stream("noise.y4m", count: 12) { _ in [] }
        // Every frame its own noise, far above a camera's: no frame is ever still.
        var data = try Data(contentsOf: URL(fileURLWithPath: path))
        var state: UInt64 = 9
        let header = Scenes.y4mHeader(width: Self.width, height: Self.height).utf8.count
        let frameBytes = 6 + Self.width * Self.height * 3 / 2
        for f in 0..<12 {
            let start = header + f * frameBytes + 6
            for i in stride(from: start, to: start + Self.width * Self.height, by: 1) {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                data[i] = UInt8(truncatingIfNeeded: state >> 40)
            }
        }
        try data.write(to: URL(fileURLWithPath: path))
        let r = box.run(["scan", "--stream", path, "--text-only", "--no-store"])
        #expect(r.status == 1, "\(r.stderr)")
        #expect(r.out.isEmpty, "\(r.out)")
        #expect(r.stderr.hasSuffix(": nothing read\n"), "\(r.stderr)")
    }

    @Test("a stream cut off inside a frame: the text read before it is printed and kept, then the error, exit 2")
    func truncated() throws {
        let path = try stream("cut.y4m", count: 8) { n in n >= 2 ? [Placement(Self.sans, x: 10, y: 50)] : [] }
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        try data.dropLast(5000).write(to: URL(fileURLWithPath: path))
        let r = box.run(["scan", "--stream", path, "--text"])
        #expect(r.status == 2)
        #expect(r.out == (try Self.lines("sans")).map { "\(path): text: \($0)\n" }.joined())
        #expect(r.stderr.hasPrefix("qrseal: error: \(path): frame 8 is truncated"), "\(r.stderr)")
        #expect(r.stderr.hasSuffix("after 7 frames (0.2 s): 2 text blocks read, 2 kept in the inbox\n"), "\(r.stderr)")
        #expect(box.items().count == 2)
    }

    @Test("hostile streams with --text: the stream's error, exit 2, nothing read", arguments: [
        ("huge.y4m", "YUV4MPEG2 W60000 H60000 F30:1 C420jpeg\nFRAME\n", "pixels"),
        ("zero.y4m", "YUV4MPEG2 W0 H10 F30:1\n", "width"),
        ("frame.y4m", "YUV4MPEG2 W16 H16 F30:1 Cmono\nFRAMX\n" + String(repeating: "x", count: 256), "FRAME"),
    ])
    func hostile(name: String, content: String, mentions: String) throws {
        let path = try box.dir.write(name, Data(content.utf8))
        let r = box.run(["scan", "--stream", path, "--text"])
        #expect(r.status == 2, "\(r.stderr)")
        #expect(r.out.isEmpty)
        #expect(r.stderr.hasPrefix("qrseal: error: \(path): ") && r.stderr.contains(mentions), "\(r.stderr)")
    }

    @Test("the real binary reading a pipe: the code as without text, and only lines the frames hold")
    func pipe() throws {
        let path = try changing("pipe.y4m")
        let r = try Tools.run(Tools.qrseal, ["scan", "--stream", "-", "--text", "--no-store"],
                              input: try Data(contentsOf: URL(fileURLWithPath: path)), environment: box.processEnv)
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stdoutText.split(separator: "\n").map(String.init)
        #expect(lines.filter { $0.contains("QR-Code") } == ["-: QR-Code: table 12"])
        let truth = Set(try (Self.lines("sans") + Self.lines("serif")).map { "-: text: \($0)" })
        #expect(lines.filter { !$0.contains("QR-Code") }.allSatisfy(truth.contains), "\(lines)")
    }

    @Test("usage: a bad --text-layout, and text options without --text", arguments: [
        ["--text", "--text-layout", "poster"], ["--text-layout", "page"], ["--lang", "eng"],
    ])
    func usage(_ options: [String]) throws {
        let path = try stream("one.y4m", count: 2) { _ in [] }
        let r = box.run(["scan", "--stream", path] + options)
        #expect(r.status == 64, "\(r.stderr)")
        #expect(r.out.isEmpty)
    }
}

extension Array {
    /// The elements in runs of `size` (the last may be shorter).
    func chunked(_ size: Int) -> [ArraySlice<Element>] {
        stride(from: 0, to: count, by: size).map { self[$0..<Swift.min($0 + size, count)] }
    }
}
