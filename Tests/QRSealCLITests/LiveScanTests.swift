import Foundation
import Testing
import TestSupport
import QRSealKit

/// `qrseal scan --stream` and `--camera`, in-process, with streams made here from our own
/// renders: what is printed, what the inbox keeps, and every way a source can fail.
@Suite("live scan: streams, events, inbox, errors")
struct LiveScanTests {
    let box = InboxSandbox()
    static let (width, height) = (240, 160)

    static func code(_ text: String) -> Sprite {
        let image = try! QREncoder().encode(.text(text)).image(scale: 2, margin: 4)
        return Sprite(width: image.width, height: image.height, pixels: image.pixels)
    }

    /// A stream of `count` frames, frame n (from 1) showing `scene(n)`.
    func stream(_ name: String, count: Int, colorSpace: String = "420jpeg",
                _ scene: (Int) -> [Placement]) throws -> String {
        let frames = (1...count).map { Scenes.frame(width: Self.width, height: Self.height, scene($0)) }
        return try box.dir.write(name, Scenes.y4m(width: Self.width, height: Self.height, frames: frames, colorSpace: colorSpace))
    }

    static func events(_ output: String) -> [[String: Any]] {
        output.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    let a = Self.code("alpha"), b = Self.code("bravo")

    @Test("one readable line per add; each code kept once, as a stream item with the stream's path")
    func humanAndInbox() throws {
        let path = try stream("two.y4m", count: 40) { n in
            ((1...10).contains(n) ? [Placement(a, x: 10, y: 20)] : []) + ((20...30).contains(n) ? [Placement(b, x: 140, y: 20)] : [])
        }
        let r = box.run(["scan", "--stream", path, "--forget-after", "5"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.out == "\(path): QR-Code: alpha\n\(path): QR-Code: bravo\n")
        #expect(r.stderr == "qrseal: \(path): end of stream after 40 frames (1.3 s): 2 codes read, 2 kept in the inbox\n")
        let items = box.items()
        #expect(Set(items.compactMap { $0["text"] as? String }) == ["bravo", "alpha"])
        #expect(items.allSatisfy { $0["source_kind"] as? String == "stream" })
        let folder = box.dir.url.resolvingSymlinksInPath().path
        #expect(items.allSatisfy { ($0["source"] as? String).map { URL(fileURLWithPath: $0).resolvingSymlinksInPath().path }
                == folder + "/two.y4m" })
    }

    @Test("--json: the exact event sequence, one object per line, with frames, times and corners")
    func jsonEvents() throws {
        let path = try stream("move.y4m", count: 12) { n in n <= 4 ? [Placement(a, x: 10 + 20 * n, y: 30)] : [] }
        let r = box.run(["scan", "--stream", path, "--json", "--forget-after", "6", "--no-store"])
        #expect(r.status == 0, "\(r.stderr)")
        let events = Self.events(r.out)
        #expect(events.map { "\($0["event"]!) \($0["id"]!) @\($0["frame"]!)" }
                == ["add 1 @1", "update 1 @2", "update 1 @3", "update 1 @4", "remove 1 @10"])
        #expect(events.map { $0["time"] as? Double } == [0, 0.033, 0.067, 0.1, 0.3])
        #expect(events.allSatisfy { $0["text"] as? String == "alpha" && $0["format"] as? String == "QR-Code"
                                    && $0["bytes_base64"] as? String == "YWxwaGE=" && $0["source"] as? String == path })
        // alpha is a version-1 code: 21 modules of 2 pixels after a quiet zone of 8.
        let corners = try #require(events[3]["corners"] as? [[Double]])
        #expect(corners.count == 4 && abs(corners[0][0] - 98) <= 2 && abs(corners[2][1] - 80) <= 2, "\(corners)")
        #expect(events[4]["corners"] as? [[Double]] == corners)
    }

    @Test("a code that leaves and comes back is added twice but kept once, and not again on a second run")
    func keptOnce() throws {
        let path = try stream("back.y4m", count: 30) { n in (n <= 5 || n > 20) ? [Placement(a, x: 60, y: 40)] : [] }
        let first = box.run(["scan", "--stream", path, "--forget-after", "5"])
        #expect(first.out == "\(path): QR-Code: alpha\n\(path): QR-Code: alpha\n")
        #expect(first.stderr.hasSuffix(": 2 codes read, 1 kept in the inbox\n"), "\(first.stderr)")
        #expect(box.count() == 1)
        let second = box.run(["scan", "--stream", path])
        #expect(second.status == 0 && second.stderr.hasSuffix(": 1 code read, 0 kept in the inbox\n"), "\(second.stderr)")
        #expect(box.count() == 1)
        #expect(box.run(["scan", "--stream", path, "--no-store"]).stderr.hasSuffix(": 1 code read\n"))
    }

    @Test("--json gives the inbox id of a kept code in each of its events, and the same id on the next run")
    func jsonInboxIDs() throws {
        let path = try stream("ids.y4m", count: 20) { n in n <= 4 ? [Placement(a, x: 10 + 20 * n, y: 30)] : [] }
        let first = Self.events(box.run(["scan", "--stream", path, "--json", "--forget-after", "6"]).out)
        let id = try #require(box.ids().first)
        #expect(first.map { $0["event"] as? String } == ["add", "update", "update", "update", "remove"])
        #expect(first.allSatisfy { $0["inbox_id"] as? Int == id }, "\(first)")
        let again = Self.events(box.run(["scan", "--stream", path, "--json", "--forget-after", "6"]).out)
        #expect(again.first?["inbox_id"] as? Int == id)
        #expect(box.count() == 1)
        let unkept = Self.events(box.run(["scan", "--stream", path, "--json", "--no-store"]).out)
        #expect(!unkept.isEmpty && unkept.allSatisfy { $0["inbox_id"] == nil })
    }

    @Test("--no-store keeps nothing; --once stops at the first code; --beep rings once per new code")
    func storeOnceBeep() throws {
        let path = try stream("late.y4m", count: 20) { n in n >= 3 ? [Placement(a, x: 20, y: 20), Placement(b, x: 130, y: 20)] : [] }
        let once = box.run(["scan", "--stream", path, "--once", "--no-store"])
        #expect(once.status == 0)
        #expect(once.out == "\(path): QR-Code: alpha\n\(path): QR-Code: bravo\n")
        #expect(once.stderr == "qrseal: \(path): stopped at the first code after 3 frames (0.1 s): 2 codes read\n")
        #expect(box.count() == -1)
        let beep = box.run(["scan", "--stream", path, "--beep", "--raw"])
        #expect(beep.out == "alpha\nbravo\n")
        #expect(beep.stderr.filter { $0 == "\u{07}" }.count == 2)
        #expect(box.count() == 2)
    }

    @Test("nothing in the stream: exit 1, and --roi reads only inside its rectangle")
    func nothingAndROI() throws {
        let empty = try stream("empty.y4m", count: 5) { _ in [] }
        let none = box.run(["scan", "--stream", empty])
        #expect(none.status == 1 && none.out.isEmpty)
        #expect(none.stderr == "qrseal: \(empty): end of stream after 5 frames (0.1 s): nothing read\n")
        let both = try stream("both.y4m", count: 3) { _ in [Placement(a, x: 10, y: 20), Placement(b, x: 140, y: 20)] }
        let roi = box.run(["scan", "--stream", both, "--roi", "120,0,120,160", "--raw", "--no-store"])
        #expect(roi.out == "bravo\n", "\(roi.stderr)")
        let outside = box.run(["scan", "--stream", both, "--roi", "300,0,10,10"])
        #expect(outside.status == 64)
        #expect(outside.stderr.contains("--roi 300,0,10,10 lies outside the 240x160 frames of \(both)"), "\(outside.stderr)")
    }

    @Test("one key-derivation budget serves the whole live scan: nine passphrase messages over six frames open eight, as one image of them would")
    func budgetPerRun() throws {
        let passphrase = try box.dir.write("p", Data("correct horse\n".utf8))
        let sprites = try (0..<9).map { k in
            let png = box.encode("m\(k).png", "message \(k)", ["--passphrase-file", passphrase, "--scale", "2"])
            let image = try ImageDecoder().decode([UInt8](Data(contentsOf: URL(fileURLWithPath: png))))
            return Sprite(width: image.width, height: image.height, pixels: image.pixels)
        }
        let (w, h) = (sprites[0].width, sprites[0].height)
        let width = (3 * w + 2) / 2 * 2, height = (h + 1) / 2 * 2
        // Three codes a frame, each group held for two frames.
        let frames = (0..<6).map { n in
            Scenes.frame(width: width, height: height, (0..<3).map { Placement(sprites[n / 2 * 3 + $0], x: $0 * w, y: 0) })
        }
        let path = try box.dir.write("sealed.y4m", Scenes.y4m(width: width, height: height, frames: frames))
        let r = box.run(["scan", "--stream", path, "--no-store", "--passphrase-file", passphrase])
        let opened = r.out.split(separator: "\n").filter { $0.contains("[sealed]: message ") }
        #expect(opened.count == 8, "\(r.out)")
        #expect(r.stderr.contains("qrseal: error: not opened: too much key-derivation work in one call (1 message skipped)"),
                "\(r.stderr)")
    }

    @Test("a sealed message is opened with --key-file or the keyring, as scan does, and kept sealed")
    func sealed() throws {
        let key = box.keygen()
        let png = box.encode("note.png", "meet at the north gate", ["--key-file", key])
        let note = try ImageDecoder().decode([UInt8](Data(contentsOf: URL(fileURLWithPath: png))))
        let sprite = Sprite(width: note.width, height: note.height, pixels: note.pixels)
        let side = note.width + note.width % 2
        let frames = (1...3).map { _ in Scenes.frame(width: side, height: side, [Placement(sprite, x: 0, y: 0)]) }
        let path = try box.dir.write("note.y4m", Scenes.y4m(width: side, height: side, frames: frames))
        let locked = box.run(["scan", "--stream", path])
        #expect(locked.status == 0)
        #expect(locked.out.hasPrefix("\(path): QR-Code [sealed]: <not opened: ") && locked.out.hasSuffix("for a key file>\n"))
        #expect(locked.stderr.contains("qrseal: hint: 1 sealed message for a key file not opened"))
        let opened = box.run(["scan", "--stream", path, "--key-file", key, "--json"])
        let add = try #require(Self.events(opened.out).first)
        #expect(add["sealed"] as? String == "opened" && add["plaintext"] as? String == "meet at the north gate")
        #expect(box.run(["keys", "add", key]).status == 0)
        #expect(box.run(["scan", "--stream", path, "--no-store"]).out == "\(path): QR-Code [sealed]: meet at the north gate\n")
        #expect(box.items().map { $0["kind"] as? String } == ["sealed"])
    }

    @Test("usage errors", arguments: [
        (["--stream", "s.y4m", "--camera"], "--camera and --stream cannot be used together"),
        (["--stream", "s.y4m", "--device", "/dev/video1"], "--camera and --stream cannot be used together"),
        (["--stream", "s.y4m", "--size", "640x480"], "--size applies to --camera only"),
        (["--once", "a.png"], "--once applies to live scans only"),
        (["--roi", "1,2,3,4", "a.png"], "--roi applies to live scans only"),
        (["--camera", "--size", "big"], "--size must be WIDTHxHEIGHT in pixels, such as 1280x720, not 'big'"),
        (["--camera", "--size", "0x480"], "--size must be WIDTHxHEIGHT in pixels, such as 1280x720, not '0x480'"),
        (["--stream", "s.y4m", "--roi", "1,2,3"], "--roi must be X,Y,WIDTH,HEIGHT in pixels"),
        (["--stream", "s.y4m", "--roi", "0,0,0,10"], "--roi must be X,Y,WIDTH,HEIGHT in pixels"),
        (["--stream", "s.y4m", "--forget-after", "soon"], "--forget-after must be a number of frames (30) or a duration (500ms, 1s, 2m), not 'soon'"),
        (["--stream", "s.y4m", "--forget-after", "0"], "--forget-after must be a number of frames"),
        (["--stream", "s.y4m", "--timeout", "0"], "--timeout must be a number of seconds above 0"),
        (["--stream", "s.y4m", "--timeout", "nan"], "--timeout must be a number of seconds above 0"),
        (["--stream", "s.y4m", "a.png"], "a live scan reads no image files (a.png)"),
        (["--stream", "-"], "--stream - reads frames from standard input, which is a terminal"),
        (["--stream", "s.y4m", "--raw", "--json"], "--raw and --json cannot be used together"),
    ])
    func usage(arguments: [String], message: String) {
        let r = box.run(["scan"] + arguments)
        #expect(r.status == 64)
        #expect(r.stderr.hasPrefix("qrseal: error: \(message)"), "\(r.stderr)")
        #expect(r.out.isEmpty)
    }

    @Test("broken streams: a clear error naming the stream, exit 2", arguments: [
        ("header.y4m", "YUV4MPEG2 H160 F30:1\nFRAME\n", "broken YUV4MPEG2 header: no width (W)"),
        ("image.y4m", "P5\n2 2\n255\n\0\0\0\0", "not a YUV4MPEG2 stream (it does not start with 'YUV4MPEG2 ')"),
        ("empty.y4m", "", "empty stream: no YUV4MPEG2 header"),
        ("p10.y4m", "YUV4MPEG2 W4 H4 C420p10\n", "unsupported YUV4MPEG2 colour space C420p10"),
        ("missing.y4m", nil, "cannot read: no such file or directory"),
    ] as [(String, String?, String)])
    func brokenStream(name: String, content: String?, message: String) throws {
        if let content { try box.dir.write(name, Data(content.utf8)) }
        let path = box.dir.path(name)
        let r = box.run(["scan", "--stream", path])
        #expect(r.status == 2)
        #expect(r.stderr.hasPrefix("qrseal: error: \(path): \(message)"), "\(r.stderr)")
        #expect(!r.stderr.contains("end of stream"))
    }

    @Test("a stream cut off inside a frame: the codes before it are printed and kept, then the error, exit 2")
    func truncated() throws {
        let path = try stream("cut.y4m", count: 6) { _ in [Placement(a, x: 60, y: 40)] }
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        try data.dropLast(1000).write(to: URL(fileURLWithPath: path))
        let r = box.run(["scan", "--stream", path])
        #expect(r.status == 2)
        #expect(r.out == "\(path): QR-Code: alpha\n")
        let frameBytes = Self.width * Self.height * 3 / 2
        #expect(r.stderr == """
            qrseal: error: \(path): frame 6 is truncated: the stream ends after \(frameBytes - 1000) of its \(frameBytes) bytes
            qrseal: hint: the stream was cut short or damaged; the frames before it were read and what they held was kept
            qrseal: \(path): stopped by the error above after 5 frames (0.1 s): 1 code read, 1 kept in the inbox

            """)
        #expect(box.count() == 1)
    }

    @Test("cameras that are not there or are not cameras: a clear error naming the device, exit 2", arguments: [
        ("/dev/video-qrseal-missing", "no such device", "is the camera plugged in? 'qrseal doctor' lists the video devices"),
        ("/dev/null", "not a camera: the device is not a video (V4L2) device", "a camera is a /dev/videoN device"),
        ("FILE", "not a camera: it is a regular file", "a camera is a /dev/videoN device"),
        ("DIR", "not a camera: it is a directory", "a camera is a /dev/videoN device"),
    ])
    func badCamera(device: String, message: String, hint: String) throws {
        let path = device == "FILE" ? try box.dir.write("frames.y4m", Data()) : device == "DIR" ? box.dir.url.path : device
        let r = box.run(["scan", "--device", path])
        #expect(r.status == 2)
        #expect(r.stderr.hasPrefix("qrseal: error: \(path): \(message)\nqrseal: hint: \(hint)"), "\(r.stderr)")
        #expect(r.out.isEmpty)
    }

    @Test("--camera without --device means /dev/video0, which this machine lacks",
          .enabled(if: !FileManager.default.fileExists(atPath: "/dev/video0")))
    func defaultCamera() {
        let r = box.run(["scan", "--camera"])
        #expect(r.status == 2)
        #expect(r.stderr.hasPrefix("qrseal: error: /dev/video0: no such device\n"), "\(r.stderr)")
    }
}
