import Foundation
import Testing
import TestSupport

/// `encode --animate` on a real pseudo-terminal of a known size, driven by Python: what the
/// terminal receives, and that Ctrl-C puts it back.
@Suite("terminal: --animate on a pseudo-terminal")
struct AnimationTerminalTests {
    /// Runs qrseal on a 100 x 50 pseudo-terminal; once `until` is seen (or the process ends),
    /// types Ctrl-C; prints the exit status, a line, then everything the terminal received.
    static let driver = #"""
import fcntl, os, select, signal, struct, subprocess, sys, termios

until = sys.argv[1].encode()
master, slave = os.openpty()
fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 50, 100, 0, 0))
def own_terminal():
    for number in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGPIPE):
        signal.signal(number, signal.SIG_DFL)
    os.setsid()
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)
child = subprocess.Popen(sys.argv[2:], stdin=slave, stdout=slave, stderr=slave, preexec_fn=own_terminal)
os.close(slave)
seen, typed = b"", False
while True:
    if not typed and until in seen:
        os.write(master, b"\x03")
        typed = True
    ready, _, _ = select.select([master], [], [], 30)
    if not ready:
        child.kill(); break
    try:
        chunk = os.read(master, 65536)
    except OSError:
        break
    if not chunk:
        break
    seen += chunk
status = child.wait(timeout=30)
sys.stdout.buffer.write(b"%d\n" % status + seen)
"""#

    func animate(_ arguments: [String], until: String) throws -> (Int32, String) {
        let r = try Tools.run("python3", ["-c", Self.driver, until, Tools.qrseal] + arguments)
        let text = r.stdoutText
        let line = text.prefix { $0 != "\n" }
        return (Int32(line) ?? -99, String(text.dropFirst(line.count + 1)))
    }

    /// Whether `encode` splits input too large for one code (the parts work of issue 11).
    static let splits: Bool = {
        guard let dir = try? TempDir(),
              let big = try? dir.write("big.bin", Data((0..<9000).map { UInt8(truncatingIfNeeded: $0 &* 7919) })),
              let r = try? Tools.run(Tools.qrseal, ["encode", "-i", big, "-o", dir.path("x.pdf")]) else { return false }
        return r.status == 0
    }()

    @Test("one code is shown still, at the terminal's size, and the note says there is nothing to animate")
    func oneCode() throws {
        let (status, screen) = try animate(["encode", "--animate", "hi"], until: "\u{7}never")
        #expect(status == 0)
        #expect(screen.contains("nothing to animate") && screen.contains("█"), "\(screen.debugDescription)")
        #expect(!screen.contains("\u{1B}[?1049h"))
    }

    @Test("Ctrl-C during the animation of many codes ends it with status 0 and the terminal put back",
          .enabled(if: splits, "needs encode to split large input (issue 11's parts work)"))
    func ctrlC() throws {
        let dir = try TempDir()
        let big = try dir.write("big.bin", Data((0..<9000).map { UInt8(truncatingIfNeeded: $0 &* 7919) }))
        let (status, screen) = try animate(["encode", "-i", big, "--animate", "--fps", "20", "--ec", "L"],
                                           until: "part 2 of")
        #expect(status == 0, "\(screen.suffix(300).debugDescription)")
        #expect(screen.contains("\u{1B}[?1049h\u{1B}[?25l") && screen.contains("part 1 of"))
        #expect(screen.hasSuffix("\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l"), "\(screen.suffix(80).debugDescription)")
    }
}
