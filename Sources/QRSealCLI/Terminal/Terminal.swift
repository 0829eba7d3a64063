import FoundationEssentials
import Glibc
import QRSealKit

/// Asking on the controlling terminal (a secret with echo turned off), and its size.
enum Terminal {
    /// Prints `prompt` to /dev/tty and reads one line without echo; nil without a terminal.
    /// SIGINT, SIGTERM, SIGHUP or SIGQUIT while echo is off puts the terminal back as it was,
    /// then ends the process by that signal (a shell reports 130 for Ctrl-C).
    static func readSecret(_ prompt: String) -> String? {
        let fd = open("/dev/tty", O_RDWR | O_NOCTTY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var saved = termios()
        guard tcgetattr(fd, &saved) == 0 else { return nil }
        var quiet = saved
        quiet.c_lflag &= ~tcflag_t(ECHO)
        quiet.c_lflag |= tcflag_t(ECHONL)
        _ = prompt.withCString { write(fd, $0, strlen($0)) }
        let restore = SecretPrompt.begin(fd: fd, saved: saved)
        defer { SecretPrompt.end(restore) }
        guard tcsetattr(fd, TCSAFLUSH, &quiet) == 0 else { return nil }
        defer { tcsetattr(fd, TCSAFLUSH, &saved) }
        return readLine(fd) ?? ""
    }

    /// Prints `prompt` to /dev/tty and reads one line as typed (echoed); nil without a
    /// terminal or when it ends before a line.
    static func ask(_ prompt: String) -> String? {
        let fd = open("/dev/tty", O_RDWR | O_NOCTTY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        _ = prompt.withCString { write(fd, $0, strlen($0)) }
        return readLine(fd)
    }

    /// One line from `fd` without its line break; nil if it ends before any byte.
    private static func readLine(_ fd: Int32) -> String? {
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            let n = read(fd, &byte, 1)
            if n < 0 && errno == EINTR { continue }
            if n != 1 {
                if line.isEmpty { return nil }
                break
            }
            if byte == 0x0A { break }
            line.append(byte)
        }
        if line.last == 0x0D { line.removeLast() }
        return String(decoding: line, as: UTF8.self)
    }

    /// The width of the terminal on standard output (TIOCGWINSZ), else `COLUMNS` in
    /// `environment`, else 100.
    static func columns(environment: [String: String]) -> Int {
        var size = winsize()
        if ioctl(1, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        return count(environment["COLUMNS"]) ?? 100
    }

    /// The height of the terminal on standard output (TIOCGWINSZ), else `LINES` in
    /// `environment`, else 24.
    static func rows(environment: [String: String]) -> Int {
        var size = winsize()
        if ioctl(1, UInt(TIOCGWINSZ), &size) == 0, size.ws_row > 0 { return Int(size.ws_row) }
        return count(environment["LINES"]) ?? 24
    }

    /// A count of columns or lines from the environment: a whole number above 0.
    static func count(_ text: String?) -> Int? {
        guard let text, let n = Int(text), n > 0 else { return nil }
        return n
    }
}
