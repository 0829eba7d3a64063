import Foundation
import Testing
import TestSupport
import QRSealKit

/// Messages larger than one code, end to end: `encode` writes the parts, `scan` takes them
/// back in any order over several calls, through the inbox.
@Suite("Parts: encode, scan and restore")
struct PartsEndToEndTests {
    let dir = try! TempDir()
    var inbox: String { dir.path("inbox.sqlite") }

    func random(_ count: Int) -> Data { Data((0..<count).map { _ in UInt8.random(in: 0...255) }) }

    /// Part files of `data` written by `encode` with `extra` options; sorted by name.
    func encode(_ data: Data, name: String = "doc.bin", _ extra: [String] = []) throws -> [String] {
        let input = try dir.write(name, data)
        let folder = dir.path("codes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let r = qrseal(["encode", "-i", input, "-o", folder + "/doc.png"] + extra)
        try #require(r.status == 0, "\(r.stderr)")
        return try FileManager.default.contentsOfDirectory(atPath: folder).sorted().map { folder + "/" + $0 }
    }

    @Test("a file split into parts comes back byte for byte from its parts scanned shuffled, over two calls, some lost")
    func shuffledRestore() throws {
        let data = random(9_000)
        let files = try encode(data, ["--ec", "L", "--max-version", "20"])
        #expect(files.last!.hasSuffix("doc-\(files.count)-of-\(files.count).png"))
        // A third may be lost; give two thirds in two calls, shuffled.
        let kept = Array(files.shuffled().prefix((files.count * 2 + 2) / 3))
        let out = dir.path("out")
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let first = qrseal(["scan", "--inbox", inbox] + kept.prefix(kept.count / 2))
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr.contains("more needed; its parts wait in the inbox"), "\(first.stderr)")
        let list = qrseal(["inbox", "list", "--inbox", inbox])
        #expect(list.out.contains("waiting for parts:") && list.out.contains("of \(files.count) parts"), "\(list.out)")
        let second = qrseal(["scan", "--inbox", inbox, "-o", out] + kept.dropFirst(kept.count / 2))
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.out.contains("complete (") && second.out.contains("file doc.bin (9000 bytes) written to"), "\(second.out)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: out + "/doc.bin")) == data)
        #expect(!qrseal(["inbox", "list", "--inbox", inbox]).out.contains("waiting for parts"))
    }

    /// The image `NAME.png` of a code that carries part `frame` in digits armor.
    func image(of frame: [UInt8], _ name: String) throws -> String {
        let content = QREncoder.Content.segments([Segment(mode: .alphanumeric, bytes: Array("QRSEAL1P:".utf8)),
                                                  Segment(mode: .numeric, bytes: Digits.encode(frame))])
        let path = dir.path(name + ".png")
        try Data(try PNGEncoder.encode(try QREncoder(level: .low).encode(content).image(scale: 4, margin: 4)))
            .write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("a forged part scanned first does not block its message: scanning the sender's part later completes it")
    func forgedFirst() throws {
        let whole = try Encoder(symbol: QREncoder(level: .low)).plainWhole(.text("the sender's own words"))
        let parts = try MessageParts.split(whole, dataParts: 2, totalParts: 3)
        // The part check needs no key: trying its 65,536 values makes any frame pass it.
        var frame = parts[0].frame
        frame[frame.count - 1] ^= 0x01
        var forged: [UInt8] = []
        for check in 0...0xFFFF where forged.isEmpty {
            frame[14] = UInt8(check >> 8)
            frame[15] = UInt8(check & 0xFF)
            if (try? Part(frame: frame)) != nil { forged = frame }
        }
        try #require(!forged.isEmpty)
        let first = qrseal(["scan", "--inbox", inbox, try image(of: forged, "forged"), try image(of: parts[1].frame, "real-2")])
        #expect(first.status == 2 && !first.out.contains("complete"), "\(first.out)")
        #expect(first.stderr.contains("damaged message") && first.stderr.contains("scan the sender's codes of it again")
                && !first.stderr.contains("scan other parts"), "\(first.stderr)")
        let second = qrseal(["scan", "--inbox", inbox, try image(of: parts[0].frame, "real-1")])
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.out.contains("complete (2 of 3 parts): the sender's own words"), "\(second.out) \(second.stderr)")
        #expect(!qrseal(["inbox", "list", "--inbox", inbox]).out.contains("waiting for parts"))
    }

    @Test("a part whose check fails is reported (exit 2) and not kept; one of another split of the same bytes is kept apart")
    func tamperedAndForeign() throws {
        let data = random(5_000)
        let six = try encode(data, ["--parts", "6", "--redundancy", "50"])
        let eight = try encode(data, ["--parts", "8", "--redundancy", "50"])
        // A part with one chunk byte changed after its check was made.
        let encoder = Encoder(symbol: QREncoder(level: .low))
        let whole = try encoder.plainWhole(.text("tampered"))
        var frame = try MessageParts.split(whole, dataParts: 2, totalParts: 3)[1].frame
        frame[frame.count - 1] ^= 0x01
        let bad = try image(of: frame, "bad")
        let r = qrseal(["scan", "--inbox", inbox, bad, six[0], eight[0]])
        #expect(r.status == 2)
        #expect(r.stderr.contains("bad.png: damaged part: its check does not match"), "\(r.stderr)")
        #expect(r.stderr.contains("part 1 of 8 of message") && r.stderr.contains("does not belong with the 1 parts of message")
                && r.stderr.contains("kept apart"), "\(r.stderr)")
        let list = qrseal(["inbox", "list", "--inbox", inbox]).out
        #expect(list.contains("1 of 6 parts, 3 more needed") && list.contains("1 of 8 parts, 4 more needed"), "\(list)")
        // Each completes on its own.
        let out = dir.path("out-foreign")
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let rest = qrseal(["scan", "--inbox", inbox, "-o", out] + six[1...3])
        #expect(rest.out.contains("complete (4 of 6 parts)"), "\(rest.out)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: out + "/doc.bin")) == data)
        #expect(qrseal(["inbox", "list", "--inbox", inbox]).out.contains("1 of 8 parts, 4 more needed"))
    }

    @Test("inbox rm --waiting removes a waiting message with its parts; an unknown id is an error")
    func removeWaiting() throws {
        let files = try encode(random(5_000), ["--parts", "4"])
        #expect(qrseal(["scan", "--inbox", inbox, files[0]]).status == 0)
        let id = try #require(qrseal(["inbox", "list", "--inbox", inbox]).out.split(separator: "\n").last?
            .split(separator: " ").first.map(String.init))
        let unknown = qrseal(["inbox", "rm", "--waiting", "--inbox", inbox, "DEADBEEF"])
        #expect(unknown.status == 2 && unknown.stderr.contains("no message waits for parts under DEADBEEF"), "\(unknown.stderr)")
        let r = qrseal(["inbox", "rm", "--waiting", "--inbox", inbox, id.lowercased()])
        #expect(r.status == 0 && r.stderr == "qrseal: removed 1 waiting message\n", "\(r.stderr)")
        #expect(qrseal(["inbox", "list", "--inbox", inbox]).status == 1)
        // All of them at once: asked first on a terminal.
        #expect(qrseal(["scan", "--inbox", inbox, files[1]]).status == 0)
        let declined = qrseal(["inbox", "rm", "--waiting", "--inbox", inbox], answers: ["n"])
        #expect(declined.status == 0 && declined.stderr == "qrseal: nothing removed\n", "\(declined.stderr)")
        #expect(qrseal(["inbox", "list", "--waiting", "--inbox", inbox]).status == 0)
        let all = qrseal(["inbox", "rm", "--waiting", "--inbox", inbox], answers: ["yes"])
        #expect(all.stderr == "qrseal: removed 1 waiting message\n", "\(all.stderr)")
        #expect(qrseal(["inbox", "list", "--waiting", "--inbox", inbox]).status == 1)
    }

    @Test("too few parts: scan says how many more are needed, and writes nothing")
    func tooFew() throws {
        let files = try encode(random(5_000), ["--parts", "6", "--redundancy", "50"])
        #expect(files.count == 6)
        let r = qrseal(["scan", "--no-store", "-o", dir.path("."), files[0], files[5], files[5]])
        #expect(r.status == 0)
        #expect(r.stderr.contains("2 of 6 parts, 2 more needed; with --no-store its parts are not kept"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.path("doc.bin.1")))
    }

    @Test("a sealed message in parts is sealed once as a whole: stored sealed, opened by scan with the key and by inbox open")
    func sealed() throws {
        let key = dir.path("k.key")
        try #require(qrseal(["keygen", "-o", key]).status == 0)
        let text = String((0..<6_000).map { _ in "0123456789abcdef".randomElement()! })
        let input = try dir.write("long.txt", Data(text.utf8))
        let r = qrseal(["encode", "--key-file", key, "--no-compress", "-i", input, "-o", dir.path("s.png"), "--ec", "L"])
        #expect(r.status == 0 && r.stderr.contains("split into"), "\(r.stderr)")
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.url.path).filter { $0.hasPrefix("s-") }.sorted()
        // Without the key, the rebuilt message stays shut.
        let locked = qrseal(["scan", "--inbox", inbox] + files.reversed().map(dir.path))
        #expect(locked.out.contains("[sealed]: message") && locked.out.contains("<not opened:"), "\(locked.out)")
        let id = try #require(locked.out.split(separator: "\n").last.flatMap { _ in
            qrseal(["inbox", "list", "--inbox", inbox, "--json"]).out.split(separator: "\n").first })
        #expect(id.contains("\"kind\":\"sealed\""))
        let item = qrseal(["inbox", "list", "--inbox", inbox]).out.split(separator: "\n").dropFirst().first?
            .split(separator: " ").first.map(String.init) ?? ""
        let opened = qrseal(["inbox", "open", item, "--inbox", inbox, "--key-file", key, "-o", dir.path("opened.txt")])
        #expect(opened.status == 0, "\(opened.stderr)")
        #expect(try String(contentsOfFile: dir.path("opened.txt"), encoding: .utf8) == text)
        let scanned = qrseal(["scan", "--no-store", "--key-file", key] + files.map(dir.path))
        #expect(scanned.out.contains("[sealed]: message") && scanned.out.contains("file long.txt (6000 bytes)"), "\(scanned.out)")
    }

    @Test("no part is written when one of the part files exists, and an existing one is kept")
    func outputRule() throws {
        let input = try dir.write("big.bin", random(6_000))
        _ = try dir.write("p-02-of-04.png", Data("keep".utf8))
        let r = qrseal(["encode", "-i", input, "-o", dir.path("p.png"), "--parts", "4"])
        #expect(r.status == 2)
        #expect(r.stderr.contains("p-02-of-04.png: file exists"), "\(r.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.url.path).sorted() == ["big.bin", "p-02-of-04.png"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir.path("p-02-of-04.png"))) == Data("keep".utf8))
    }

    @Test("parts to standard output as PNG are refused; as terminal text each comes under its label")
    func standardOutput() throws {
        let input = try dir.write("t.bin", random(4_000))
        let png = qrseal(["encode", "-i", input, "--format", "png", "--parts", "3"])
        #expect(png.status == 2 && png.stderr.contains("the message needs 3 codes, one png file each"), "\(png.stderr)")
        let text = qrseal(["encode", "-i", input, "--format", "terminal", "--parts", "3"])
        #expect(text.status == 0)
        #expect(text.out.contains("· part 1 of 3") && text.out.contains("· part 3 of 3"))
    }

    @Test("a message that fits one code is today's single symbol, byte for byte")
    func singleUnchanged() throws {
        let r = qrseal(["encode", "hello", "--format", "terminal"])
        #expect(r.status == 0 && !r.stderr.contains("split"))
        let image = dir.path("one.png")
        #expect(qrseal(["encode", "hello", "-o", image]).status == 0)
        #expect(qrseal(["scan", "--no-store", image]).out == "\(image): QR-Code: hello\n")
    }

    @Test("scan --json gives an event per new part and one on completion")
    func json() throws {
        let files = try encode(random(3_000), ["--parts", "3", "--redundancy", "50"])
        let r = qrseal(["scan", "--no-store", "--json"] + files)
        let lines = r.out.split(separator: "\n")
        // Two of the three complete it; the third is of a message received before.
        #expect(lines.count == 2, "\(r.out)")
        #expect(lines[0].contains("\"event\":\"part\"") && lines[0].contains("\"needed\":1"))
        #expect(lines[1].contains("\"event\":\"message\"") && lines[1].contains("\"file_name\":\"doc.bin\""))
    }

    /// A YUV4MPEG2 stream (10 fps, mono) of `symbols` in turn, each frame one code, with a
    /// frame without a code after every `gap`-th.
    static func stream(_ symbols: [EncodedSymbol], repeats: Int = 1, gap: Int = 3) -> Data {
        let frames = symbols.map { $0.matrix.image(scale: 4, margin: 4) }
        let (w, h) = (frames.map(\.width).max()!, frames.map(\.height).max()!)
        var data = Data("YUV4MPEG2 W\(w) H\(h) F10:1 Ip A1:1 Cmono\n".utf8)
        var n = 0
        for _ in 0..<repeats {
            for frame in frames {
                var y = [UInt8](repeating: 255, count: w * h)
                for row in 0..<frame.height {
                    y.replaceSubrange(row * w ..< row * w + frame.width, with: frame.pixels[row * frame.width ..< (row + 1) * frame.width])
                }
                data += Data("FRAME\n".utf8) + Data(y)
                n += 1
                if n % gap == 0 { data += Data("FRAME\n".utf8) + Data(repeating: 255, count: w * h) }
            }
        }
        return data
    }

    @Test("a live stream of parts: a line per new part with the rate, and --once ends when the message is complete")
    func live() throws {
        let encoder = Encoder(symbol: QREncoder(level: .low))
        let data = Array(random(5_000))
        let whole = try encoder.plainWhole(.file(name: "live.bin", bytes: data))
        let message = try encoder.encodeParts(whole, plan: try encoder.plan(length: whole.count, SplitOptions(parts: 6)), content: data)
        let path = try dir.write("parts.y4m", Self.stream(Array(message.symbols.reversed()), repeats: 3))
        let out = dir.path("live-out")
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let r = qrseal(["scan", "--stream", path, "--once", "--no-store", "-o", out])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.out.contains("part 6 of 6 of message \(message.id!) (1 of 6 parts, 3 more needed)"), "\(r.out)")
        // From the second frame on, the rate the parts arrive at.
        #expect(r.out.contains("part 5 of 6 of message \(message.id!) (2 of 6 parts, 2 more needed, "), "\(r.out)")
        #expect(r.out.contains(" KB/s)"))
        #expect(r.stderr.contains("stopped at the first complete message"), "\(r.stderr)")
        #expect(try Array(Data(contentsOf: URL(fileURLWithPath: out + "/live.bin"))) == data)
        let json = qrseal(["scan", "--stream", path, "--once", "--no-store", "--json"])
        let events = json.out.split(separator: "\n")
        #expect(events.count == 4, "\(json.out)")
        #expect(events[1].contains("\"event\":\"part\"") && events[1].contains("\"kb_per_s\""))
        #expect(events.last?.contains("\"event\":\"message\"") == true && events.last?.contains("\"frame\"") == true)
    }

    @Test("kill -9 during a restore over several calls loses no stored part")
    func killed() throws {
        signal(SIGPIPE, SIG_IGN)
        let encoder = Encoder(symbol: QREncoder(level: .low))
        let whole = try encoder.plainWhole(.file(name: "k.bin", bytes: Array(random(4_000))))
        let message = try encoder.encodeParts(whole, plan: try encoder.plan(length: whole.count, SplitOptions(parts: 8)), content: [])
        let frames = message.symbols.map { $0.matrix.image(scale: 4, margin: 4) }
        let (w, h) = (frames.map(\.width).max()!, frames.map(\.height).max()!)
        let log = dir.path("scan.log")
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        let output = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        let input = Tools.pipe()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Tools.qrseal)
        process.arguments = ["scan", "--stream", "-", "--json", "--inbox", inbox, "--forget-after", "1"]
        process.environment = Tools.environment()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = input
        try Tools.launch(process) {}
        try output.close()
        try input.fileHandleForWriting.write(contentsOf: Data("YUV4MPEG2 W\(w) H\(h) F10:1 Ip A1:1 Cmono\n".utf8))
        for frame in frames.prefix(3) {
            var y = [UInt8](repeating: 255, count: w * h)
            for row in 0..<frame.height { y.replaceSubrange(row * w ..< row * w + frame.width, with: frame.pixels[row * frame.width ..< (row + 1) * frame.width]) }
            for _ in 0..<2 { try input.fileHandleForWriting.write(contentsOf: Data("FRAME\n".utf8) + Data(y)) }
        }
        let deadline = Date().addingTimeInterval(60)
        func parts() -> Int { ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").components(separatedBy: "\"event\":\"part\"").count - 1 }
        while parts() < 3 && Date() < deadline { usleep(20_000) }
        #expect(parts() == 3)
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        try? input.fileHandleForWriting.close()
        #expect(process.terminationReason == .uncaughtSignal)
        #expect(try Tools.run("sqlite3", [inbox, "PRAGMA integrity_check"]).stdoutText == "ok\n")
        #expect(qrseal(["inbox", "list", "--inbox", inbox]).out.contains("3 of 8 parts, 2 more needed"))
        // The next call takes the rest from files.
        var images: [String] = []
        for (n, symbol) in message.symbols.enumerated().suffix(2) {
            let path = dir.path("late-\(n).png")
            try Data(try PNGEncoder.encode(symbol.matrix.image(scale: 4, margin: 4))).write(to: URL(fileURLWithPath: path))
            images.append(path)
        }
        let r = qrseal(["scan", "--inbox", inbox, "-o", dir.path(".")] + images)
        #expect(r.out.contains("complete (5 of 8 parts)"), "\(r.out) \(r.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir.path("k.bin"))).count == 4_000)
    }
}

/// QR Structured Append sequences written by another tool (Tests/Images/make-structured-append.sh).
@Suite("Parts: Structured Append")
struct StructuredAppendTests {
    let dir = try! TempDir()
    var inbox: String { dir.path("inbox.sqlite") }
    func image(_ name: String) -> String {
        Tools.packageRoot.appendingPathComponent("Tests/Images/structured-append/\(name).png").path
    }

    @Test("a whole sequence in one image is joined into one message")
    func oneImage() {
        let r = qrseal(["scan", "--no-store", image("all-in-one")])
        #expect(r.status == 0)
        #expect(r.out.hasSuffix("QR-Code: message SA1F complete (3 of 3 parts): Structured Append joins these three codes.\n"), "\(r.out)")
    }

    @Test("codes of two sequences with the same count and parity are not joined; each sequence is, from its own codes")
    func sameParity() {
        let mixed = qrseal(["scan", "--inbox", inbox, image("gate-a-1-of-3"), image("gate-b-2-of-3"), image("gate-b-3-of-3")])
        #expect(!mixed.out.contains("complete"), "\(mixed.out)")
        #expect(mixed.stderr.contains("the joined codes do not match their parity byte (3F")
                && mixed.stderr.contains("two sequences with the same count and parity"), "\(mixed.stderr)")
        let b = qrseal(["scan", "--inbox", inbox, image("gate-b-1-of-3")])
        #expect(b.status == 0, "\(b.stderr)")
        #expect(b.out.contains("message SA3F complete (3 of 3 parts): Meet at the south gate at 0930. Bring the blue folder and the keys."),
                "\(b.out) \(b.stderr)")
        let a = qrseal(["scan", "--inbox", inbox, image("gate-a-2-of-3"), image("gate-a-3-of-3"), image("gate-a-1-of-3")])
        #expect(a.out.contains("message SA3F complete (3 of 3 parts): Meet at the north gate at 0900. Bring the red folder and the money."),
                "\(a.out) \(a.stderr)")
    }

    @Test("two sequences interleaved over two calls are each joined, through the inbox")
    func acrossCalls() {
        let first = qrseal(["scan", "--inbox", inbox, image("note-3-of-3"), image("pair-2-of-2"), image("note-1-of-3")])
        #expect(first.status == 0 && !first.out.contains("complete"), "\(first.out)")
        #expect(qrseal(["inbox", "list", "--inbox", inbox]).out.contains("SA1F  2 of 3 parts, 1 more needed"))
        let second = qrseal(["scan", "--inbox", inbox, image("pair-1-of-2"), image("note-2-of-3")])
        #expect(second.out.contains("message SA2F complete (2 of 2 parts): second sequence"), "\(second.out)")
        #expect(second.out.contains("message SA1F complete (3 of 3 parts): Structured Append joins these three codes."))
        let list = qrseal(["inbox", "list", "--inbox", inbox, "--json"]).out
        #expect(list.contains("\"text\":\"second sequence\"") && !list.contains("\"text\":\"sequence\""), "\(list)")
    }
}
