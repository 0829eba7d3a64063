import Foundation
import Testing
import TestSupport

/// A signal at the passphrase prompt puts the terminal back before the process ends: the real
/// binary on a pseudo-terminal of its own, driven by Python's termios (the prompt reads
/// /dev/tty, which only a controlling terminal provides).
@Suite("terminal: signals at the passphrase prompt")
struct TerminalPromptTests {
    /// Prints `signal N echo on|off` once the process has ended.
    static let driver = #"""
"""Starts qrseal on a pseudo-terminal of its own, waits for the passphrase prompt (echo off),
sends a signal, and prints how the process ended and whether echo is back on the terminal."""
import fcntl, os, select, signal, subprocess, sys, termios

qrseal, how = sys.argv[1], sys.argv[2]
master, slave = os.openpty()
def own_terminal():
    for number in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGPIPE):
        signal.signal(number, signal.SIG_DFL)
    os.setsid()
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)
child = subprocess.Popen([qrseal, "encode", "--seal", "-o", os.devnull, "hello"],
                         stdin=slave, stdout=slave, stderr=slave, preexec_fn=own_terminal)
seen = b""
while b"Passphrase: " not in seen:
    ready, _, _ = select.select([master], [], [], 30)
    if not ready:
        print("no prompt:", seen); child.kill(); sys.exit(1)
    seen += os.read(master, 1024)
# The prompt is written before echo goes off: wait until it is off.
while termios.tcgetattr(slave)[3] & termios.ECHO:
    select.select([], [], [], 0.01)
if how == "ctrl-c":
    os.write(master, b"\x03")
else:
    child.send_signal(getattr(signal, how))
status = child.wait(timeout=30)
echo = bool(termios.tcgetattr(slave)[3] & termios.ECHO)
print("signal %d echo %s" % (-status, "on" if echo else "off"))
"""#

    @Test("Ctrl-C, SIGTERM or SIGHUP with echo off restores echo, then ends the process by the signal",
          arguments: [("ctrl-c", SIGINT), ("SIGTERM", SIGTERM), ("SIGHUP", SIGHUP)])
    func signalRestoresEcho(how: String, signal: Int32) throws {
        let r = try Tools.run("python3", ["-c", Self.driver, Tools.qrseal, how])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdoutText == "signal \(signal) echo on\n", "\(r.stdoutText)")
    }
}
