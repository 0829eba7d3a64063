import Foundation
import Testing
import TestSupport
@testable import QRSealCLI
import QRSealKit

/// Live scans through the real binary: frames piped to standard input as they would come
/// from ffmpeg, Ctrl-C and SIGTERM while the pipe is still open, --timeout and --once on an
/// endless stream, and a camera or stream this user may not open.
@Suite("live scan: the real binary, pipes and signals")
struct LiveScanProcessTests {
    let box = InboxSandbox()
    static let (width, height) = (160, 120)
    let code: Sprite = {
        let image = try! QREncoder().encode(.text("alpha")).image(scale: 2, margin: 4)
        return Sprite(width: image.width, height: image.height, pixels: image.pixels)
    }()

    func frames(_ range: ClosedRange<Int>, code show: Bool) -> Data {
        range.reduce(into: Data()) { data, n in
            let luma = Scenes.frame(width: Self.width, height: Self.height,
                                    show ? [Placement(code, x: 20 + 4 * n, y: 20)] : [])
            data += Scenes.y4mFrame(luma, width: Self.width, height: Self.height, colorSpace: "mono")
        }
    }

    var header: Data { Data(Scenes.y4mHeader(width: Self.width, height: Self.height, colorSpace: "mono").utf8) }

    @Test("frames piped to standard input: the events as they come, kept with source '-'")
    func standardInput() throws {
        let r = try Tools.run(Tools.qrseal, ["scan", "--stream", "-", "--json", "--forget-after", "3"],
                              input: header + frames(1...4, code: true) + frames(5...9, code: false),
                              environment: box.processEnv)
        #expect(r.status == 0, "\(r.stderr)")
        let events = LiveScanTests.events(r.stdoutText)
        #expect(events.map { "\($0["event"]!) @\($0["frame"]!)" } == ["add @1", "update @2", "update @3", "update @4", "remove @7"])
        #expect(r.stderr == "qrseal: -: end of stream after 9 frames (0.3 s): 1 code read, 1 kept in the inbox\n")
        #expect(box.items().map { "\($0["source_kind"]!) \($0["source"]!)" } == ["stream -"])
    }

    @Test("Ctrl-C and SIGTERM stop a scan whose input is still open: codes kept, summary, exit 0",
          arguments: [SIGINT, SIGTERM])
    func signals(signal: Int32) throws {
        let live = try LiveProcess(["scan", "--stream", "-"], environment: box.processEnv)
        live.send(header + frames(1...5, code: true))
        #expect(live.wait { $0.stdout.contains("alpha") }, "no code read: \(live.stderr)")
        kill(live.process.processIdentifier, signal)
        let status = live.finish()
        #expect(status == 0, "\(live.stderr)")
        #expect(live.stdout == "-: QR-Code: alpha\n")
        let name = signal == SIGINT ? "Ctrl-C (SIGINT)" : "SIGTERM"
        #expect(live.stderr.hasPrefix("qrseal: -: stopped by \(name) after "), "\(live.stderr)")
        #expect(live.stderr.hasSuffix(": 1 code read, 1 kept in the inbox\n"), "\(live.stderr)")
        #expect(box.count() == 1)
    }

    @Test("--timeout ends a scan of an endless, codeless stream with exit 1")
    func timeout() throws {
        let live = try LiveProcess(["scan", "--stream", "-", "--timeout", "0.5"], environment: box.processEnv)
        live.send(header + frames(1...3, code: false))
        #expect(live.finish() == 1, "\(live.stderr)")
        #expect(live.stderr.hasPrefix("qrseal: -: timed out after 0.5 s after "), "\(live.stderr)")
        #expect(live.stderr.hasSuffix(": nothing read\n"))
    }

    @Test("--once ends the scan at the first code while the stream goes on")
    func once() throws {
        let live = try LiveProcess(["scan", "--stream", "-", "--once", "--no-store"], environment: box.processEnv)
        live.send(header + frames(1...2, code: false) + frames(3...4, code: true))
        #expect(live.finish() == 0, "\(live.stderr)")
        #expect(live.stdout == "-: QR-Code: alpha\n")
        #expect(live.stderr.hasPrefix("qrseal: -: stopped at the first code after 3 frames"), "\(live.stderr)")
    }

    @Test("--once ends at the first code while every thread of the shared dispatch pool waits: writing the stream and reading the output need none")
    func oncePoolBusy() throws {
        // Blocks that wait on the shared pool, as other tests' waits for their programs do in a
        // full run; the pool adds a thread for queued work about once a second.
        let release = DispatchSemaphore(value: 0)
        let blockers = 100
        for _ in 0..<blockers { DispatchQueue.global().async { release.wait() } }
        defer { for _ in 0..<blockers { release.signal() } }
        let live = try LiveProcess(["scan", "--stream", "-", "--once", "--no-store"], environment: box.processEnv)
        live.send(header + frames(1...2, code: false) + frames(3...4, code: true))
        #expect(live.finish() == 0, "\(live.stderr)")
        #expect(live.stdout == "-: QR-Code: alpha\n")
    }

    @Test("a camera or stream this user may not open: permission denied, with the video group for a camera",
          .enabled(if: getuid() == 0, "needs root to make a device node and to run as nobody"))
    func permissionDenied() throws {
        chmod(box.dir.url.path, 0o755)
        let node = box.dir.path("video7")
        #expect(mknod(node, S_IFCHR | 0o600, dev_t((1 << 8) | 3)) == 0)  // 1:3, what /dev/null is
        let stream = try box.dir.write("private.y4m", header + frames(1...2, code: true))
        chmod(stream, 0o600)
        let asNobody = ["--reuid=65534", "--regid=65534", "--clear-groups", Tools.qrseal]
        let env = box.processEnv
        let camera = try Tools.run("setpriv", asNobody + ["scan", "--no-store", "--device", node], environment: env)
        #expect(camera.status == 2)
        #expect(camera.stderr == "qrseal: error: \(node): permission denied\nqrseal: hint: \(CaptureMessages.groupHint)\n")
        let file = try Tools.run("setpriv", asNobody + ["scan", "--no-store", "--stream", stream], environment: env)
        #expect(file.status == 2)
        #expect(file.stderr == "qrseal: error: \(stream): cannot read: permission denied\n")
        let doctor = try Tools.run("setpriv", asNobody + ["doctor", "--device", node], environment: env)
        #expect(doctor.status == 2)
        #expect(doctor.stdoutText.contains("\(node)  permission denied"))
        #expect(doctor.stdoutText.contains(": not in the 'video' group (add yourself to the 'video' group"))
    }

    @Test("what cannot be made to happen here (an unplug, a busy or silent camera) still reads clearly")
    func messages() {
        func text(_ error: CaptureError) -> String {
            let e = CaptureMessages.error(error, name: "/dev/video0", isCamera: true)
            return ([e.message] + e.hints).joined(separator: " | ")
        }
        #expect(text(.disconnected) == "/dev/video0: the camera was disconnected | what was read before is in the inbox; "
                + "plug the camera back in and scan again")
        #expect(text(.busy) == "/dev/video0: the camera is in use by another program | close the other program using it "
                + "(fuser -v /dev/video0 names it), then try again")
        #expect(text(.noFrames(seconds: 5)).hasPrefix("/dev/video0: the camera sent no frame for 5 seconds | "))
        #expect(text(.noSupportedFormat(offered: ["H264"])).hasPrefix(
            "/dev/video0: the camera offers no pixel format qrseal reads (it offers H264; qrseal reads GREY, YUYV"))
        #expect(text(.cannotCapture(card: "Integrated Camera")).hasPrefix(
            "/dev/video0: 'Integrated Camera' cannot capture video"))
    }
}

/// The real binary with a pipe on its standard input that stays open until it exits, and
/// its output gathered as it comes.
///
/// The writer and the readers are threads of their own, not blocks on the shared dispatch
/// pool: in a full run the pool's threads may all be waiting (for other tests' programs to
/// end), and a writer queued behind them leaves the program waiting for its first frame.
/// Only the writer closes the input, once `finish` has seen the program end, so it never
/// writes to a descriptor closed under it, whose number another test may have reused.
final class LiveProcess: @unchecked Sendable {
    let process: Process
    private let input: Pipe
    private let lock = NSCondition()
    private var out = Data(), err = Data()
    /// What `send` was given and the writer has not yet taken; whether `finish` let it close.
    private var unsent: [Data] = []
    private var closing = false
    private let threads = DispatchGroup()

    init(_ arguments: [String], environment: [String: String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Tools.qrseal)
        process.arguments = arguments
        process.environment = environment
        let (input, output, errors) = try Tools.launch(process) { () -> (Pipe, Pipe, Pipe) in
            let pipes = (Tools.pipe(), Tools.pipe(), Tools.pipe())
            process.standardInput = pipes.0
            process.standardOutput = pipes.1
            process.standardError = pipes.2
            return pipes
        }
        self.process = process
        self.input = input
        start { self.gather(output) { self.out += $0 } }
        start { self.gather(errors) { self.err += $0 } }
        start { self.write() }
    }

    private func start(_ body: @escaping @Sendable () -> Void) {
        threads.enter()
        Thread { body(); self.threads.leave() }.start()
    }

    private func gather(_ pipe: Pipe, _ append: (Data) -> Void) {
        while true {
            let data = pipe.fileHandleForReading.availableData
            if data.isEmpty { break }
            lock.lock(); append(data); lock.unlock()
        }
    }

    /// Writes what `send` is given, in order, until the program stops reading (a closed
    /// pipe is not an error: it may end before reading it all); closes the input when
    /// `finish` says so.
    private func write() {
        let fd = input.fileHandleForWriting.fileDescriptor
        var open = true
        while true {
            lock.lock()
            while unsent.isEmpty && !closing { lock.wait() }
            let next = unsent.isEmpty ? nil : unsent.removeFirst()
            lock.unlock()
            guard let next else { break }
            next.withUnsafeBytes { raw in
                var offset = 0
                while open && offset < raw.count {
                    let n = Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
                    if n < 0 && errno == EINTR { continue }
                    if n <= 0 { open = false }
                    offset += max(n, 0)
                }
            }
        }
        try? input.fileHandleForWriting.close()
    }

    var stdout: String { lock.lock(); defer { lock.unlock() }; return String(decoding: out, as: UTF8.self) }
    var stderr: String { lock.lock(); defer { lock.unlock() }; return String(decoding: err, as: UTF8.self) }

    /// Writes `data` to the process's input from the writer thread, after what was sent before.
    func send(_ data: Data) {
        lock.lock()
        unsent.append(data)
        lock.signal()
        lock.unlock()
    }

    /// Waits until `condition` holds; the limit only keeps a broken build from hanging the tests.
    func wait(until condition: (LiveProcess) -> Bool) -> Bool {
        for _ in 0..<1200 {
            if condition(self) { return true }
            usleep(50_000)
        }
        return condition(self)
    }

    /// Waits for the process to end (killing it after the same guard limit) and returns its
    /// status, once its output is all read and its input closed.
    func finish() -> Int32 {
        if !wait(until: { !$0.process.isRunning }) {
            Issue.record("qrseal did not end; killed")
            kill(process.processIdentifier, SIGKILL)
        }
        process.waitUntilExit()
        lock.lock()
        closing = true
        lock.signal()
        lock.unlock()
        threads.wait()
        return process.terminationStatus
    }
}
