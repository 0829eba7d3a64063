import Foundation
import QRSealKit

/// Dates and durations on the command line.
enum TimeArguments {
    /// A duration such as `30d`, `12h`, `45m`, `90s` or `2w`, in milliseconds.
    static func duration(_ text: String) -> Int64? {
        guard let unit = text.last, let n = Int64(text.dropLast()), n >= 0 else { return nil }
        let factor: Int64
        switch unit {
        case "s": factor = 1000
        case "m": factor = 60_000
        case "h": factor = 3_600_000
        case "d": factor = 86_400_000
        case "w": factor = 7 * 86_400_000
        default: return nil
        }
        let (ms, overflow) = n.multipliedReportingOverflow(by: factor)
        return overflow ? nil : ms
    }

    /// `YYYY-MM-DD[THH:MM[:SS]]` in local time, an ISO 8601 time with a zone, or a duration
    /// meaning that long ago; milliseconds since the epoch.
    static func date(_ text: String, now: Int64) -> Int64? {
        if let ago = duration(text) { return now - ago }
        let hasZone = text.hasSuffix("Z") || text.dropFirst(10).contains("+") || text.dropFirst(16).contains("-")
        if hasZone { return Timestamp.parse(text) }
        // A local time: parse as if UTC, then shift by the local offset at that moment.
        guard let asUTC = Timestamp.parse(text) else { return nil }
        var seconds = time_t(asUTC / 1000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        parts.tm_isdst = -1
        let local = mktime(&parts)
        guard local != -1 else { return nil }
        return Int64(local) * 1000 + asUTC % 1000
    }

    /// `2026-11-30 11:58` in local time.
    static func local(_ ms: Int64, seconds: Bool = false) -> String {
        var t = time_t(ms / 1000)
        var parts = tm()
        localtime_r(&t, &parts)
        func pad(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        var text = "\(parts.tm_year + 1900)-\(pad(parts.tm_mon + 1))-\(pad(parts.tm_mday)) \(pad(parts.tm_hour)):\(pad(parts.tm_min))"
        if seconds { text += ":\(pad(parts.tm_sec))" }
        return text
    }
}
