/// Dates and times written in a line of text, found conservatively: a year of four digits
/// is always needed, so that numbers, versions and page ranges stay text.
///
/// The forms read, each with an optional time after it (`14:30`, `14:30:05`, `2:30 pm`, with
/// or without `at`, ISO's `T…` with `Z` or an offset):
/// - ISO 8601: `2026-12-01`, `2026-12-01T14:30:00Z`; also `2026/12/01`.
/// - day, month name, year: `1 December 2026`, `1st Dec. 2026`, after an optional weekday.
/// - month name, day, year: `December 1, 2026`, `Dec 1st 2026`.
/// - dotted, day first as where it is written: `01.12.2026`.
/// - slashed `12/01/2026`: month first in the US and day first in Europe. When both
///   readings are dates the kind is still `date`, without a `date` field: `month_first` and
///   `day_first` give both. When only one is (`25/12/2026`) it is the `date`.
/// A time alone counts only with `am`/`pm` (`10:30 pm`): `room 12 at 10:30` stays text.
enum TextDates {
    /// A date or time found, with the index of its first and one past its last word.
    struct Found {
        let words: Range<Int>
        let summary: ContentSummary
    }

    static let months = ["january", "february", "march", "april", "may", "june", "july", "august",
                         "september", "october", "november", "december"]
    static let weekdays = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
                           "mon", "tue", "tues", "wed", "thu", "thur", "thurs", "fri", "sat", "sun"]

    /// Every date or time in `words` (a line's words as read), left to right, none overlapping.
    static func find(_ words: [String]) -> [Found] {
        let tokens = words.map(TextBlock.trimmedToken)
        var found: [Found] = []
        var i = 0
        while i < tokens.count {
            if let (end, fields) = date(tokens, at: i) ?? timeAlone(tokens, at: i) {
                let text = words[i..<end].joined(separator: " ")
                let written = TextBlock.trimmedToken(text)
                found.append(Found(words: i..<end,
                                   summary: ContentSummary(kind: .date, fields: [ContentField(name: "text", value: written)] + fields)))
                i = end
            } else {
                i += 1
            }
        }
        return found
    }

    /// A date starting at word `i`, with a time after it if there is one: the index past
    /// its last word, and its fields.
    static func date(_ t: [String], at i: Int) -> (Int, [ContentField])? {
        var start = i
        if weekdays.contains(t[i].lowercased()), i + 1 < t.count { start = i + 1 }
        guard let (end, day, inlineTime) = calendarDay(t, at: start) else { return nil }
        var fields = day
        if let inlineTime {
            fields += inlineTime
            return (end, fields)
        }
        if let (after, time) = time(t, at: end, needsMarker: false) {
            fields += time
            return (after, fields)
        }
        return (end, fields)
    }

    /// The calendar day at word `i` in one of the forms above.
    private static func calendarDay(_ t: [String], at i: Int) -> (Int, [ContentField], [ContentField]?)? {
        let word = t[i]
        // ISO, or year first with slashes, in one word; ISO may carry its time after a T.
        let parts = word.split(separator: "T", maxSplits: 1, omittingEmptySubsequences: false)
        if let ymd = numbers(String(parts[0]), separator: "-") ?? numbers(String(parts[0]), separator: "/"),
           ymd.count == 3, ymd[0].digits == 4, ymd[1].digits <= 2, ymd[2].digits <= 2,
           let iso = isoDate(year: ymd[0].value, month: ymd[1].value, day: ymd[2].value) {
            guard parts.count == 2 else { return (i + 1, [field("date", iso)], nil) }
            guard parts[0].contains("-"), let time = clock(String(parts[1]), allowZone: true) else { return nil }
            return (i + 1, [field("date", iso)], time)
        }
        if let dmy = numbers(word, separator: "."), dmy.count == 3, dmy[2].digits == 4, dmy[0].digits <= 2, dmy[1].digits <= 2,
           let iso = isoDate(year: dmy[2].value, month: dmy[1].value, day: dmy[0].value) {
            return (i + 1, [field("date", iso)], nil)
        }
        if let abc = numbers(word, separator: "/"), abc.count == 3, abc[2].digits == 4, abc[0].digits <= 2, abc[1].digits <= 2 {
            let monthFirst = isoDate(year: abc[2].value, month: abc[0].value, day: abc[1].value)
            let dayFirst = isoDate(year: abc[2].value, month: abc[1].value, day: abc[0].value)
            switch (monthFirst, dayFirst) {
            case let (m?, d?) where m == d: return (i + 1, [field("date", m)], nil)
            case let (m?, d?): return (i + 1, [field("month_first", m), field("day_first", d)], nil)
            case let (m?, nil), let (nil, m?): return (i + 1, [field("date", m)], nil)
            case (nil, nil): return nil
            }
        }
        // 1 December 2026
        if i + 2 < t.count, let day = dayNumber(t[i]), let month = monthNumber(t[i + 1]), let year = yearNumber(t[i + 2]),
           let iso = isoDate(year: year, month: month, day: day) {
            return (i + 3, [field("date", iso)], nil)
        }
        // December 1, 2026
        if i + 2 < t.count, let month = monthNumber(t[i]), let day = dayNumber(t[i + 1]), let year = yearNumber(t[i + 2]),
           let iso = isoDate(year: year, month: month, day: day) {
            return (i + 3, [field("date", iso)], nil)
        }
        return nil
    }

    /// A time at word `i` (after `at` or a comma), as 24-hour `time`; without a date it
    /// needs `am` or `pm`.
    static func time(_ t: [String], at i: Int, needsMarker: Bool) -> (Int, [ContentField])? {
        var i = i
        if i < t.count, t[i].lowercased() == "at" { i += 1 }
        guard i < t.count else { return nil }
        let word = t[i].lowercased()
        for marker in ["am", "pm", "a.m", "p.m"] {
            // "2:30pm", or "2:30 pm" in two words.
            let joined = word.hasSuffix(marker) && word.count > marker.count
            let apart = i + 1 < t.count && t[i + 1].lowercased() == marker
            guard joined || apart else { continue }
            let digits = joined ? String(word.dropLast(marker.count)) : word
            guard let hm = numbers(digits, separator: ":") ?? number(digits).map({ [$0] }), (1...2).contains(hm.count), hm[0].digits <= 2,
                  (1...12).contains(hm[0].value), hm.count == 1 || (hm[1].digits == 2 && hm[1].value < 60) else { return nil }
            let hour = hm[0].value % 12 + (marker.hasPrefix("p") ? 12 : 0)
            return (joined ? i + 1 : i + 2, [field("time", twoDigits(hour) + ":" + twoDigits(hm.count == 2 ? hm[1].value : 0))])
        }
        guard !needsMarker, let time = clock(word, allowZone: false) else { return nil }
        return (i + 1, time)
    }

    /// `10:30 pm` with no date before it.
    private static func timeAlone(_ t: [String], at i: Int) -> (Int, [ContentField])? {
        guard t[i].lowercased() != "at" else { return nil }
        return time(t, at: i, needsMarker: true)
    }

    /// `14:30`, `14:30:05`, `14:30:05.250` and, when allowed, `Z` or `+01:00` after it.
    private static func clock(_ word: String, allowZone: Bool) -> [ContentField]? {
        var body = Substring(word), zone: String?
        if allowZone {
            if body.hasSuffix("Z") || body.hasSuffix("z") { zone = "Z"; body = body.dropLast() }
            else if let sign = body.lastIndex(where: { $0 == "+" || $0 == "-" }) {
                let offset = String(body[body.index(after: sign)...])
                guard let hm = numbers(offset, separator: ":"), hm.count == 2, hm[0].digits == 2, hm[1].digits == 2,
                      hm[0].value <= 14, hm[1].value < 60 else { return nil }
                zone = String(body[sign...]); body = body[..<sign]
            }
        }
        let pieces = body.split(separator: ":", omittingEmptySubsequences: false)
        guard (2...3).contains(pieces.count) else { return nil }
        var seconds: String?
        if pieces.count == 3 {
            let s = pieces[2].split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
            guard let whole = number(String(s[0])), whole.digits == 2, whole.value < 60 else { return nil }
            if s.count == 2 { guard number(String(s[1])) != nil else { return nil } }
            seconds = String(s[0])
        }
        guard let h = number(String(pieces[0])), h.digits == 2 || (h.digits == 1 && !allowZone), h.value < 24,
              let m = number(String(pieces[1])), m.digits == 2, m.value < 60 else { return nil }
        var fields = [field("time", twoDigits(h.value) + ":" + twoDigits(m.value) + (seconds.map { ":" + $0 } ?? ""))]
        if let zone { fields.append(field("zone", zone)) }
        return fields
    }

    /// `yyyy-mm-dd` when the day exists in that month (leap years included), else nil.
    static func isoDate(year: Int, month: Int, day: Int) -> String? {
        guard (1...12).contains(month), day >= 1 else { return nil }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let lengths = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        guard day <= lengths[month - 1] else { return nil }
        return String(year) + "-" + twoDigits(month) + "-" + twoDigits(day)
    }

    private static func monthNumber(_ word: String) -> Int? {
        let w = word.lowercased()
        guard w.count >= 3 else { return nil }
        if let full = months.firstIndex(of: w) { return full + 1 }
        // "Sept" as well as "Sep"; "May" is whole already.
        if let short = months.firstIndex(where: { w.count <= 4 && $0.hasPrefix(w) && (w.count == 3 || w == "sept") }) {
            return short + 1
        }
        return nil
    }

    /// `1`, `01`, `1st`, `2nd`, `3rd`, `21st`: a day of the month.
    private static func dayNumber(_ word: String) -> Int? {
        var w = Substring(word.lowercased())
        for suffix in ["st", "nd", "rd", "th"] where w.hasSuffix(suffix) { w = w.dropLast(2); break }
        guard let n = number(String(w)), n.digits <= 2, (1...31).contains(n.value) else { return nil }
        return n.value
    }

    private static func yearNumber(_ word: String) -> Int? {
        guard let n = number(word), n.digits == 4 else { return nil }
        return n.value
    }

    /// Decimal digits only, at most 4 of them: their value and count.
    static func number(_ s: String) -> (value: Int, digits: Int)? {
        guard !s.isEmpty, s.utf8.count <= 4, s.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return (s.utf8.reduce(0) { $0 * 10 + Int($1 - 0x30) }, s.utf8.count)
    }

    /// The numbers of `s` split at `separator`, nil unless every piece is one.
    private static func numbers(_ s: String, separator: Character) -> [(value: Int, digits: Int)]? {
        guard s.contains(separator) else { return nil }
        var out: [(value: Int, digits: Int)] = []
        for piece in s.split(separator: separator, omittingEmptySubsequences: false) {
            guard let n = number(String(piece)) else { return nil }
            out.append(n)
        }
        return out
    }

    private static func twoDigits(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
    private static func field(_ name: String, _ value: String) -> ContentField { ContentField(name: name, value: value) }
}
