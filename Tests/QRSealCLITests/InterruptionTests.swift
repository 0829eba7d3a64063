import Foundation
import Testing
import TestSupport
import QRSealKit

/// The real binary, stopped from outside while it holds secrets: opened plaintext reaches its
/// final path only whole and is left nowhere else, and no core dump holds a passphrase, a key
/// or plaintext (man page, SIGNALS and FILES).
@Suite("command line: interrupted and crashing processes leave no secrets behind")
struct InterruptionTests {
    /// An age file of `megabytes` MiB for a new identity, made by the age tools: the folder, the
    /// identity file and the age file.
    func bigAgeFile(megabytes: Int) throws -> (TempDir, String, String) {
        let dir = try TempDir()
        let identity = dir.path("key.txt")
        #expect(try Tools.run("age-keygen", ["-o", identity]).status == 0)
        let recipient = try Tools.run("age-keygen", ["-y", identity]).stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        let plain = dir.path("plain.bin")
        #expect(try Tools.run("/bin/sh", ["-c", "head -c \(megabytes)M /dev/zero | tr '\\0' 'P' > \"$0\"", plain]).status == 0)
        let sealed = dir.path("big.age")
        #expect(try Tools.run("age", ["-r", recipient, "-o", sealed, plain]).status == 0)
        try FileManager.default.removeItem(atPath: plain)
        return (dir, identity, sealed)
    }

    /// Starts `qrseal arguments` in `dir` through `sh -c "ulimit -c unlimited; exec …"`, with
    /// Swift's backtracer off (`SWIFT_BACKTRACE`), as a user may have it: a signal then has its
    /// default action, which for SIGSEGV is a core dump.
    func start(_ arguments: [String], in dir: TempDir, backtracer: Bool = false, errors: Pipe? = nil) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "ulimit -c unlimited 2>/dev/null; exec \"$@\"", "sh", Tools.qrseal] + arguments
        process.environment = Tools.environment(backtracer ? [:] : ["SWIFT_BACKTRACE": "enable=no"])
        process.currentDirectoryURL = dir.url
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors ?? FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Waits, at most 20 s, until process `pid` has written `bytes`: as its /proc/PID/io counts
    /// them, or as a temporary file in `dir` shows them.
    static func waitUntilWritten(_ pid: pid_t, in dir: TempDir, bytes: Int) {
        for _ in 0..<2000 {
            let io = (try? String(contentsOfFile: "/proc/\(pid)/io", encoding: .utf8)) ?? ""
            let written = io.split(separator: "\n").first { $0.hasPrefix("wchar:") }
                .flatMap { Int($0.dropFirst(6).trimmingCharacters(in: .whitespaces)) } ?? 0
            let temporary = names(dir).filter { $0.hasPrefix(".qrseal-") }
                .compactMap { try? FileManager.default.attributesOfItem(atPath: dir.path($0))[.size] as? Int }.max() ?? 0
            if max(written, temporary) >= bytes { return }
            Thread.sleep(forTimeInterval: 0.01)
        }
    }

    static func names(_ dir: TempDir) -> Set<String> {
        Set((try? FileManager.default.contentsOfDirectory(atPath: dir.url.path)) ?? [])
    }

    @Test("open of a large age file killed mid-write leaves neither the target nor any file with plaintext",
          .enabled(if: Tools.which("age") != nil && Tools.which("age-keygen") != nil),
          arguments: [SIGTERM, SIGINT, SIGHUP, SIGKILL])
    func killedWhileOpening(signal: Int32) throws {
        let (dir, identity, sealed) = try bigAgeFile(megabytes: 512)
        let before = Self.names(dir)
        let process = try start(["open", "--no-store", "--identity", identity, sealed, "-o", "out.bin"], in: dir)
        Self.waitUntilWritten(process.processIdentifier, in: dir, bytes: 64 << 20)
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == signal,
                "qrseal ended with status \(process.terminationStatus) before the signal")
        #expect(Self.names(dir) == before, "left behind: \(Self.names(dir).subtracting(before))")
    }

    @Test("scan --no-store keeps waiting parts in memory: nothing reaches $TMPDIR while it runs or after a SIGKILL")
    func waitingPartsInMemory() throws {
        let dir = try TempDir()
        let temporary = dir.path("tmp")
        try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: false)
        let message = String(repeating: "a message long enough for parts ", count: 20)
        let made = try Tools.run(Tools.qrseal, ["encode", "--parts", "3", "--scale", "2", "-o", dir.path("part.png"), message])
        #expect(made.status == 0, "\(made.stderr)")
        let first = try #require(Self.names(dir).filter { $0.hasSuffix(".png") }.sorted().first)
        let image = try ImageDecoder().decode([UInt8](Data(contentsOf: URL(fileURLWithPath: dir.path(first)))))
        let (width, height) = ((image.width + 1) / 2 * 2, (image.height + 1) / 2 * 2)
        let sprite = Sprite(width: image.width, height: image.height, pixels: image.pixels)
        let frame = Scenes.frame(width: width, height: height, [Placement(sprite, x: 0, y: 0)])
        let stream = Data(Scenes.y4mHeader(width: width, height: height, colorSpace: "mono").utf8)
            + (0..<3).reduce(into: Data()) { data, _ in data += Scenes.y4mFrame(frame, width: width, height: height, colorSpace: "mono") }

        let process = Process()
        process.executableURL = URL(fileURLWithPath: Tools.qrseal)
        process.arguments = ["scan", "--no-store", "--stream", "-"]
        process.environment = Tools.environment(["TMPDIR": temporary])
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        // The stream stays open: the scan waits for more frames, its part kept somewhere.
        try input.fileHandleForWriting.write(contentsOf: stream)
        var printed = Data()
        let deadline = Date().addingTimeInterval(20)
        while !String(decoding: printed, as: UTF8.self).contains("part 1 of") && Date() < deadline {
            printed += output.fileHandleForReading.availableData
        }
        #expect(String(decoding: printed, as: UTF8.self).contains("part 1 of"), "\(String(decoding: printed, as: UTF8.self))")
        let whileRunning = (try? FileManager.default.contentsOfDirectory(atPath: temporary)) ?? []
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(whileRunning.isEmpty, "\(whileRunning)")
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: temporary)) ?? []).isEmpty)
    }

    @Test("a temporary file left by a process that is gone is removed by the next write in its folder; a live one's is not")
    func staleTemporaryFiles() throws {
        let dir = try TempDir()
        let gone = Process()
        gone.executableURL = URL(fileURLWithPath: "/bin/true")
        try gone.run()
        gone.waitUntilExit()
        let stale = ".qrseal-\(gone.processIdentifier)-Ab3dE9", live = ".qrseal-\(getpid())-Ab3dE9"
        _ = try dir.write(stale, Data("opened plaintext".utf8))
        _ = try dir.write(live, Data("being written".utf8))
        let r = try Tools.run(Tools.qrseal, ["encode", "-o", dir.path("hello.png"), "hello"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(Self.names(dir) == ["hello.png", live])
    }

    @Test("a crash while a passphrase and plaintext are in memory writes no core file, even with ulimit -c unlimited",
          arguments: [false, true])
    func noCoreDump(backtracer: Bool) throws {
        let dir = try TempDir()
        _ = try dir.write("p", Data("correct horse battery staple\n".utf8))
        let png = dir.path("s.png")
        let sealed = try Tools.run(Tools.qrseal, ["encode", "--passphrase-file", dir.path("p"), "-o", png, "meet at the north gate"])
        #expect(sealed.status == 0, "\(sealed.stderr)")
        #expect(mkfifo(dir.path("fifo"), 0o600) == 0)
        // With Swift's backtracer at its default too, which would print registers and the memory they point at.
        let errors = Tools.pipe()
        let process = try start(["open", "--no-store", "--passphrase-file", "p", "s.png", "-o", "fifo"], in: dir,
                                backtracer: backtracer, errors: errors)
        // Opened, it waits for a reader of the FIFO, with the passphrase and the plaintext in memory.
        let pid = process.processIdentifier
        var waiting = false
        for _ in 0..<200 where !waiting {
            let channel = (try? String(contentsOfFile: "/proc/\(pid)/wchan", encoding: .utf8)) ?? ""
            waiting = channel.contains("fifo") || channel.contains("pipe")
            if !waiting { Thread.sleep(forTimeInterval: 0.05) }
        }
        let limits = (try? String(contentsOfFile: "/proc/\(pid)/limits", encoding: .utf8)) ?? ""
        let coreLimit = limits.split(separator: "\n").first { $0.hasPrefix("Max core file size") }
        #expect(coreLimit?.split(separator: " ", omittingEmptySubsequences: true).dropFirst(4).prefix(2) == ["0", "0"],
                "\(coreLimit ?? "no limits")")
        kill(pid, SIGSEGV)
        process.waitUntilExit()
        try? errors.fileHandleForWriting.close()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationReason == .uncaughtSignal)
        #expect(process.terminationStatus == SIGSEGV)
        #expect(stderr == "qrseal: internal error: the process crashed; nothing of its memory was written out\n", "\(stderr)")
        let cores = Self.names(dir).filter { $0.hasPrefix("core") }
        #expect(cores.isEmpty, "core files: \(cores)")
    }

    @Test("an encode into many part files stopped by SIGINT or SIGTERM at any moment leaves every part or none",
          arguments: [SIGINT, SIGTERM])
    func partsAllOrNone(signal: Int32) throws {
        let dir = try TempDir()
        // Random bytes that need some forty codes at version 10.
        var rng = SystemRandomNumberGenerator()
        _ = try dir.write("data.bin", Data((0..<9000).map { _ in UInt8.random(in: 0...255, using: &rng) }))
        let arguments = ["encode", "--max-version", "10", "--input", "data.bin", "-o", "part.png"]
        // Once whole, to learn how many parts and how long it takes.
        let started = Date()
        let whole = try start(arguments, in: dir)
        whole.waitUntilExit()
        #expect(whole.terminationStatus == 0)
        let elapsed = Date().timeIntervalSince(started)
        let parts = Self.names(dir).filter { $0.hasPrefix("part-") }
        #expect(parts.count > 10, "\(parts.count) parts")
        for name in parts { try FileManager.default.removeItem(atPath: dir.path(name)) }
        // Then stopped at points spread over that time, and a little beyond it.
        for step in 0..<8 {
            let process = try start(arguments, in: dir)
            Thread.sleep(forTimeInterval: elapsed * (Double(step) + Double.random(in: 0..<1)) / 7)
            kill(process.processIdentifier, signal)
            process.waitUntilExit()
            let left = Self.names(dir).filter { $0.hasPrefix("part-") }
            #expect(left.isEmpty || left.count == parts.count, "stopped after \(step) eighths: \(left.count) of \(parts.count) parts")
            #expect(!Self.names(dir).contains { $0.hasPrefix(".qrseal-") })
            // Stopped by the signal, or done before it came.
            #expect(process.terminationReason == .uncaughtSignal || (process.terminationStatus == 0 && left.count == parts.count))
            for name in left { try FileManager.default.removeItem(atPath: dir.path(name)) }
        }
    }
}
