import FoundationEssentials
import Glibc
import QRSealKit

/// Timings for bench/desktop.py: with `QRSEAL_DESKTOP_TRACE=PATH`, JSON lines of what the app
/// did and when (`t`, seconds since the process started): `start`, `first-frame`,
/// `frame-shown`, `outline-added` (with the tracked `id` and its `frame`), and `stall` (`ms`,
/// the main loop late by more than 50 ms, from the first frame shown on: the window's own
/// start is what `first-frame` measures). Nothing read from a code is ever written.
final class Trace {
    private let fd: Int32
    private let origin = ProcessInfo.processInfo.systemUptime - Trace.processAge()
    private var shownFirst = false
    private var lastTick = ProcessInfo.processInfo.systemUptime

    static func fromEnvironment() -> Trace? {
        guard let path = ProcessInfo.processInfo.environment["QRSEAL_DESKTOP_TRACE"], !path.isEmpty else { return nil }
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        return fd < 0 ? nil : Trace(fd: fd)
    }

    private init(fd: Int32) {
        self.fd = fd
    }

    /// The main loop's lateness: a 10 ms timer that fires late means the loop was busy.
    private func watchStalls() {
        lastTick = ProcessInfo.processInfo.systemUptime
        MainLoop.every(milliseconds: 10) { [weak self] in
            guard let self else { return false }
            let now = ProcessInfo.processInfo.systemUptime
            let late = (now - self.lastTick) * 1000 - 10
            if late > 50 { self.write(["event": .string("stall"), "ms": .int(Int(late))]) }
            self.lastTick = now
            return true
        }
    }

    func frameShown(_ number: Int) {
        if !shownFirst {
            shownFirst = true
            write(["event": .string("first-frame"), "frame": .int(number)])
            watchStalls()
        }
        write(["event": .string("frame-shown"), "frame": .int(number)])
    }

    func write(_ fields: [String: JSON.Value]) {
        var line = fields
        line["t"] = .number((ProcessInfo.processInfo.systemUptime - origin).rounded(toPlaces: 4))
        let bytes = Array((JSON.line(line.sorted { $0.key < $1.key }) + "\n").utf8)
        _ = bytes.withUnsafeBytes { SystemFiles.writeAll($0, to: fd) }
    }

    /// Seconds since this process started, from /proc/self/stat's start time.
    private static func processAge() -> Double {
        guard let stat = try? String(contentsOfFile: "/proc/self/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return 0 }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 19, let ticks = Double(fields[19]),
              let uptime = try? String(contentsOfFile: "/proc/uptime", encoding: .utf8).split(separator: " ").first,
              let up = Double(uptime) else { return 0 }
        let hz = Double(sysconf(Int32(_SC_CLK_TCK)))
        return max(0, up - ticks / hz)
    }
}

private extension Double {
    func rounded(toPlaces places: Int) -> Double {
        let factor = pow(10, Double(places))
        return (self * factor).rounded() / factor
    }
}
