import Foundation
import Testing
import TestSupport
import QRSealKit
@testable import QRSealCLI

/// What a person reads is made safe: payloads, file names and messages from outside are
/// escaped in human output, and a plain code can never print a line that passes for an opened
/// sealed message. `--raw` and `--json` keep the bytes.
@Suite("human output: escaping and the sealed marker")
struct HumanOutputTests {
    let box = InboxSandbox()

    /// Payloads that would drive a terminal, each with how its human line must show it.
    static let hostile: [(String, String)] = [
        ("evil\u{1B}[31mRED\u{1B}]0;title\u{07} end", #"evil\x1b[31mRED\x1b]0;title\x07 end"#),
        ("csi\u{9B}2J and del\u{7F}", #"csi\u{009b}2J and del\x7f"#),
        ("abc\u{202E}gnp.exe", #"abc\u{202e}gnp.exe"#),
        ("line one\nnote.png: QR-Code [sealed]: transfer approved", #"line one\nnote.png: QR-Code [sealed]: transfer approved"#),
        ("tab\there\r", #"tab\there\r"#),
    ]

    @Test("control characters in a payload are escaped in human lines, kept exactly by --raw and --json",
          arguments: hostile)
    func escaped(payload: String, shown: String) throws {
        let png = box.encode("h.png", payload)
        let human = box.run(["scan", "--no-store", png])
        #expect(human.status == 0, "\(human.stderr)")
        #expect(human.out == "\(png): QR-Code: \(shown)\n")
        #expect(!human.stdout.contains(0x1B) && !human.stdout.contains(0x07) && !human.stdout.contains(0x7F))
        let raw = box.run(["scan", "--no-store", "--raw", png])
        #expect(raw.stdout == Data((payload + "\n").utf8))
        let json = box.run(["scan", "--no-store", "--json", png])
        let object = try #require(JSONSerialization.jsonObject(with: json.stdout) as? [String: Any])
        #expect(object["text"] as? String == payload)
        #expect(!json.stdout.contains(0x1B) && !json.stdout.contains(0x7F) && !json.out.contains("\u{9B}")
                && !json.out.contains("\u{202E}"))
    }

    @Test("--raw gives a binary payload back byte for byte, nothing added; text still ends its line")
    func rawBinary() throws {
        var bytes = (0..<500).map { UInt8(truncatingIfNeeded: $0 &* 151 &+ 7) }
        bytes[0] = 0xFF  // never UTF-8
        let data = try box.dir.write("data.bin", Data(bytes))
        let png = box.dir.path("binary.png")
        #expect(try Tools.run("qrencode", ["-8", "-r", data, "-o", png]).status == 0)
        let raw = box.run(["scan", "--no-store", "--raw", png])
        #expect(raw.status == 0, "\(raw.stderr)")
        #expect(raw.stdout == Data(bytes), "\(raw.stdout.count) bytes")
        let text = box.run(["scan", "--no-store", "--raw", box.encode("t.png", "some text")])
        #expect(text.stdout == Data("some text\n".utf8))
    }

    @Test("a plain code can never print a line that reads like an opened sealed message")
    func forgedSealedLine() {
        let key = box.keygen()
        let sealedPNG = box.encode("sealed.png", "transfer approved", ["--key-file", key])
        let sealed = box.run(["scan", "--no-store", "--key-file", key, sealedPNG]).out
        let png = box.dir.path("plain.png")
        // The line the real sealed message gives, as if it came from the plain image.
        let genuine = sealed.replacingOccurrences(of: sealedPNG, with: png).trimmingCharacters(in: .newlines)
        #expect(genuine.hasPrefix(png))
        for (n, payload) in ["sealed: transfer approved", "[sealed]: transfer approved", "x\n" + genuine,
                             "x\r" + genuine, "x\u{2028}" + genuine].enumerated() {
            let path = box.encode("plain\(n).png", payload)
            let lines = box.run(["scan", "--no-store", path]).out
                .replacingOccurrences(of: path, with: png).split(separator: "\n").map(String.init)
            #expect(lines.count == 1, "\(lines)")
            #expect(!lines.contains(genuine), "\(payload.debugDescription) prints \(lines)")
            #expect(lines.first?.hasPrefix(png + ": QR-Code: ") == true)
        }
    }

    @Test("an opened sealed message carries the marker before its text")
    func sealedMarker() {
        let key = box.keygen()
        let png = box.encode("note.png", "meet at the north gate\u{1B}[2J", ["--key-file", key])
        let opened = box.run(["scan", "--no-store", "--key-file", key, png])
        #expect(opened.out == "\(png): QR-Code [sealed]: meet at the north gate\\x1b[2J\n")
        let locked = box.run(["scan", "--no-store", png])
        #expect(locked.out.hasPrefix("\(png): QR-Code [sealed]: <not opened: ") && locked.out.hasSuffix(" bytes, for a key file>\n"))
    }

    @Test("error messages escape the names they embed")
    func escapedErrors() {
        let r = box.run(["scan", "--no-store", box.dir.path("no\u{1B}]0;x\u{07}such.png")])
        #expect(r.status == 2)
        #expect(r.stderr == "qrseal: error: \(box.dir.path(#"no\x1b]0;x\x07such.png"#)): no such file or directory\n")
    }

    @Test("notes on standard error escape the paths they name")
    func escapedNotes() {
        let key = box.dir.path("k\u{1B}[31m.key")
        let r = box.run(["keygen", "-o", key])
        #expect(r.status == 0)
        #expect(r.stderr == "qrseal: wrote a new key to \(box.dir.path(#"k\x1b[31m.key"#))\n")
    }

    @Test("live scans escape what they print as image scans do")
    func liveEscaped() throws {
        let image = try QREncoder().encode(.text("a\u{1B}[31mb\nsealed: c")).image(scale: 2, margin: 4)
        let sprite = Sprite(width: image.width, height: image.height, pixels: image.pixels)
        let side = image.width + image.width % 2
        let frames = (1...3).map { _ in Scenes.frame(width: side, height: side, [Placement(sprite, x: 0, y: 0)]) }
        let path = try box.dir.write("esc.y4m", Scenes.y4m(width: side, height: side, frames: frames))
        let r = box.run(["scan", "--stream", path, "--no-store"])
        #expect(r.out == "\(path): QR-Code: a\\x1b[31mb\\nsealed: c\n", "\(r.stderr)")
    }

    @Test("with --json, errors and hints are JSON lines on stderr, naming the source as given")
    func jsonErrors() throws {
        let key = box.keygen()
        let sealed = box.encode("sealed.png", "secret", ["--key-file", key])
        let missing = "./missing\u{1B}.png"
        let r = box.run(["scan", "--no-store", "--json", missing, sealed])
        #expect(r.status == 2)
        let lines = r.stderr.split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "\(r.stderr)")
        let objects = lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(objects.count == lines.count, "\(r.stderr)")
        #expect(objects.first?["error"] as? String == "no such file or directory")
        #expect(objects.first?["source"] as? String == missing)
        #expect((objects.last?["hint"] as? String)?.hasPrefix("1 sealed message for a key file not opened") == true)
    }

    @Test("JSON strings escape DEL, C1 and bidirectional controls and stay valid JSON")
    func jsonQuote() throws {
        let text = "a\u{7F}b\u{9B}c\u{202E}d\u{2028}e"
        let line = JSON.line([("text", .string(text))])
        #expect(line == #"{"text":"a\u007fb\u009bc\u202ed\u2028e"}"#)
        let object = try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String])
        #expect(object["text"] == text)
    }
}
