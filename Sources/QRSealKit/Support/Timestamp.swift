import FoundationEssentials
import Glibc

/// Times as milliseconds since 1970-01-01 UTC, written and read as ISO 8601.
public enum Timestamp {
    /// `2026-11-30T11:58:03.123Z`.
    public static func iso8601(_ ms: Int64) -> String {
        let (days, msOfDay) = floorDivide(ms, 86_400_000)
        let (y, m, d) = civil(fromDays: days)
        let h = msOfDay / 3_600_000, min = msOfDay / 60_000 % 60, s = msOfDay / 1000 % 60, milli = msOfDay % 1000
        return "\(pad(y, 4))-\(pad(m, 2))-\(pad(d, 2))T\(pad(h, 2)):\(pad(min, 2)):\(pad(s, 2)).\(pad(milli, 3))Z"
    }

    /// Parses `YYYY-MM-DD[THH:MM[:SS[.fff…]]][Z|±HH:MM]`; a time without a zone is taken as
    /// `defaultOffset` minutes east of UTC. Any number of fractional digits is accepted and
    /// cut to milliseconds. Nil when the text is not such a date.
    public static func parse(_ text: String, defaultOffsetMinutes: Int = 0) -> Int64? {
        let chars = Array(text.utf8)
        var i = 0
        func number(_ width: Int) -> Int? {
            guard i + width <= chars.count else { return nil }
            var n = 0
            for c in chars[i..<i + width] {
                guard c >= 0x30 && c <= 0x39 else { return nil }
                n = n * 10 + Int(c - 0x30)
            }
            i += width
            return n
        }
        func expect(_ c: Character) -> Bool {
            guard i < chars.count, chars[i] == c.asciiValue! else { return false }
            i += 1
            return true
        }
        guard let y = number(4), expect("-"), let m = number(2), expect("-"), let d = number(2),
              (1...12).contains(m), (1...daysIn(month: m, year: y)).contains(d) else { return nil }
        var h = 0, min = 0, s = 0, milli = 0
        var offset = defaultOffsetMinutes
        if i < chars.count, chars[i] == UInt8(ascii: "T") || chars[i] == UInt8(ascii: " ") {
            i += 1
            guard let hh = number(2), expect(":"), let mm = number(2), hh < 24, mm < 60 else { return nil }
            (h, min) = (hh, mm)
            if expect(":") {
                guard let ss = number(2), ss < 60 else { return nil }
                s = ss
                if expect(".") {
                    var digits = 0
                    while i < chars.count, chars[i] >= 0x30, chars[i] <= 0x39 {
                        if digits < 3 { milli = milli * 10 + Int(chars[i] - 0x30) }
                        digits += 1
                        i += 1
                    }
                    guard digits > 0 else { return nil }
                    for _ in Swift.min(digits, 3)..<3 { milli *= 10 }
                }
            }
            if expect("Z") {
                offset = 0
            } else if i < chars.count, chars[i] == UInt8(ascii: "+") || chars[i] == UInt8(ascii: "-") {
                let sign = chars[i] == UInt8(ascii: "-") ? -1 : 1
                i += 1
                guard let oh = number(2), expect(":"), let om = number(2), oh < 24, om < 60 else { return nil }
                offset = sign * (oh * 60 + om)
            }
        }
        guard i == chars.count else { return nil }
        let days = Int64(daysFromCivil(y, m, d))
        let local = days * 86_400_000 + Int64(h) * 3_600_000 + Int64(min) * 60_000 + Int64(s) * 1000 + Int64(milli)
        let time = local - Int64(offset) * 60_000
        // Only times `iso8601` can write: years 0000 to 9999 in UTC.
        guard time >= Int64(daysFromCivil(0, 1, 1)) * 86_400_000,
              time < Int64(daysFromCivil(10_000, 1, 1)) * 86_400_000 else { return nil }
        return time
    }

    private static func pad<T: BinaryInteger>(_ n: T, _ width: Int) -> String {
        let s = String(n)
        return String(repeating: "0", count: max(0, width - s.count)) + s
    }

    private static func floorDivide(_ a: Int64, _ b: Int64) -> (Int64, Int64) {
        let q = a / b, r = a % b
        return r < 0 ? (q - 1, r + b) : (q, r)
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
        return [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's algorithm).
    static func daysFromCivil(_ y0: Int, _ m: Int, _ d: Int) -> Int {
        let y = m <= 2 ? y0 - 1 : y0
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    static func civil(fromDays z0: Int64) -> (Int64, Int64, Int64) {
        let z = z0 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }

    /// `2026-11-30 12:58` (with `seconds`, `2026-11-30 12:58:03`) in the local time zone: how
    /// both front ends show when an item came.
    public static func local(_ ms: Int64, seconds: Bool = false) -> String {
        var t = time_t(ms / 1000)
        var parts = tm()
        localtime_r(&t, &parts)
        func pad(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        var text = "\(parts.tm_year + 1900)-\(pad(parts.tm_mon + 1))-\(pad(parts.tm_mday)) \(pad(parts.tm_hour)):\(pad(parts.tm_min))"
        if seconds { text += ":\(pad(parts.tm_sec))" }
        return text
    }
}
