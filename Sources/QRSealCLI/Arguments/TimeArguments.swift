import FoundationEssentials
import Glibc
import QRSealKit

/// Dates and durations on the command line.
enum TimeArguments {
    /// A duration such as `500ms`, `90s`, `45m`, `12h`, `30d` or `2w` (a decimal number may
    /// have a fraction: `1.5d`), in milliseconds; `--older-than` and `--forget-after` share it.
    static func duration(_ text: String) -> Int64? {
        let units: [(String, Double)] = [("ms", 1), ("s", 1000), ("m", 60_000), ("h", 3_600_000),
                                         ("d", 86_400_000), ("w", 7 * 86_400_000)]
        guard let (unit, factor) = units.first(where: { text.hasSuffix($0.0) }),  // "ms" before "s"
              case let number = text.dropLast(unit.count), isDecimal(number), let n = Double(number) else { return nil }
        let ms = (n * factor).rounded()
        return ms < 9.2e18 ? Int64(ms) : nil
    }

    /// Digits, with at most one point between digits: no sign, exponent, `inf` or `nan`.
    private static func isDecimal(_ text: Substring) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        return (1...2).contains(parts.count) && parts.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }
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
}
