/// The readers behind `ContentClassifier` for field lists, cards, calendars and short URIs.
/// Each walks its input once, so a hostile megabyte costs no more than a megabyte.
extension ContentClassifier {
    // MARK: - Wi-Fi, MECARD and other `KEY:value;` lists

    /// `WIFI:T:WPA;S:ssid;P:password;H:true;;` with fields in any order; nil without an SSID.
    static func wifi(_ s: Scalars) -> ContentSummary? {
        let list = fieldList(s)
        func raw(_ key: String) -> Scalars? { list.first { $0.key == key }?.value }
        guard let ssid = raw("S").map(unquoted), !ssid.isEmpty else { return nil }
        let password = raw("P").map(unquoted) ?? ""
        var fields = [field("ssid", ssid)]
        let type = raw("T").map { trim(unescape($0)) } ?? ""
        if let security = wifiSecurity(type, hasPassword: !password.isEmpty) {
            fields.append(field("security", security))
        }
        if !password.isEmpty { fields.append(field("password", password)) }
        if let hidden = raw("H").map({ trim(unescape($0)).lowercased() }), ["true", "1", "yes"].contains(hidden) {
            fields.append(field("hidden", "yes"))
        }
        return ContentSummary(kind: .wifi, fields: fields)
    }

    /// The security a `T:` value names; an absent one means an open network unless a
    /// password is given, when it is left unsaid.
    static func wifiSecurity(_ type: String, hasPassword: Bool) -> String? {
        switch type.lowercased() {
        case "": return hasPassword ? nil : "none"
        case "nopass", "none", "open": return "none"
        case "wep": return "WEP"
        case "wpa", "wpa2", "wpa/wpa2", "wpa-psk", "wpa2-psk", "psk": return "WPA"
        case "sae", "wpa3", "wpa3-sae": return "WPA3"
        case "wpa-eap", "wpa2-eap", "eap": return "WPA-EAP"
        default: return type.uppercased()
        }
    }

    /// `MECARD:N:Doe,John;TEL:…;EMAIL:…;;`, as written by feature phones.
    static func mecard(_ s: Scalars) -> ContentSummary? {
        var values: [String: [String]] = [:]
        for (key, raw) in fieldList(s) {
            let parts = { splitEscaped(raw, on: ",").map { trim(unescape($0)) }.filter { !$0.isEmpty } }
            switch key {
            case "N": values["name", default: []].append(parts().reversed().joined(separator: " "))
            case "TEL", "TEL-AV": values["phone", default: []].append(trim(unescape(raw)))
            case "EMAIL": values["email", default: []].append(trim(unescape(raw)))
            case "ORG": values["organization", default: []].append(trim(unescape(raw)))
            case "ADR": values["address", default: []].append(parts().joined(separator: ", "))
            case "URL": values["url", default: []].append(trim(unescape(raw)))
            default: break
            }
        }
        return card(.contact, values, order: ["name", "phone", "email", "organization", "address", "url"])
    }

    /// The `KEY:value` fields after a `WIFI:`-style prefix, keys uppercased and values still
    /// escaped; the list ends at an empty field (`;;`) or the end of the text.
    static func fieldList(_ s: Scalars) -> [(key: String, value: Scalars)] {
        splitEscaped(s, on: ";", untilEmpty: true).compactMap { piece in
            guard let colon = piece.firstIndex(of: ":") else { return nil }
            return (trim(string(piece[..<colon])).uppercased(), piece[(colon + 1)...])
        }
    }

    /// The pieces of `s` between unescaped `separator`s; with `untilEmpty`, stops at the first
    /// empty piece.
    static func splitEscaped(_ s: Scalars, on separator: Unicode.Scalar, untilEmpty: Bool = false) -> [Scalars] {
        var pieces: [Scalars] = []
        var start = s.startIndex
        var i = s.startIndex
        while i < s.endIndex {
            if s[i] == "\\" { i += 2; continue }  // an escaped separator does not split
            if s[i] == separator {
                if untilEmpty && i == start { return pieces }
                pieces.append(s[start..<i])
                start = i + 1
            }
            i += 1
        }
        if start < s.endIndex || !untilEmpty { pieces.append(s[start..<s.endIndex]) }
        return pieces
    }

    /// `s` with backslash escapes resolved; `\n` is a line break where `newlines` says so (vCard).
    static func unescape(_ s: Scalars, newlines: Bool = false) -> String {
        var out = String.UnicodeScalarView()
        var escaped = false
        for c in s {
            if escaped { out.append(newlines && (c == "n" || c == "N") ? "\n" : c) } else if c != "\\" { out.append(c) }
            escaped = !escaped && c == "\\"
        }
        if escaped { out.append("\\") }
        return String(out)
    }

    /// An escaped value without the double quotes some generators put around an SSID or password.
    static func unquoted(_ raw: Scalars) -> String {
        guard raw.count >= 2, raw.first == "\"", raw.last == "\"" else { return unescape(raw) }
        let backslashes = raw.dropLast().reversed().prefix { $0 == "\\" }.count
        return backslashes % 2 == 0 ? unescape(raw.dropFirst().dropLast()) : unescape(raw)
    }

    // MARK: - vCard and iCalendar

    /// A vCard after its `BEGIN:VCARD`: FN (or N), TEL, EMAIL, ORG, ADR and URL of the outer card.
    static func vcard(_ s: Scalars) -> ContentSummary? {
        guard let lines = linesAfterBegin(s) else { return nil }
        var values: [String: [String]] = [:]
        var depth = 1
        for line in lines {
            guard case let (name, params, raw)? = contentLine(line) else { continue }
            if name == "BEGIN" || name == "END" { depth += name == "BEGIN" ? 1 : -1 }
            if depth == 0 { break }
            guard depth == 1 else { continue }
            let quotedPrintable = params.contains { $0.uppercased().contains("QUOTED-PRINTABLE") }
            let value = quotedPrintable ? Array(hexDecoded(raw, marker: "=").unicodeScalars)[...] : raw
            let parts = { splitEscaped(value, on: ";").map { trim(unescape($0, newlines: true)) }.filter { !$0.isEmpty } }
            let text = trim(unescape(value, newlines: true))
            switch name {
            case "FN": values["name", default: []].append(text)
            case "N":
                let n = splitEscaped(value, on: ";").map { trim(unescape($0)) } + Array(repeating: "", count: 5)
                values["n", default: []].append([n[3], n[1], n[2], n[0], n[4]].filter { !$0.isEmpty }.joined(separator: " "))
            case "TEL": values["phone", default: []].append(text.lowercased().hasPrefix("tel:") ? String(text.dropFirst(4)) : text)
            case "EMAIL": values["email", default: []].append(text)
            case "ORG": values["organization", default: []].append(parts().joined(separator: ", "))
            case "ADR": values["address", default: []].append(parts().joined(separator: ", "))
            case "URL": values["url", default: []].append(text)
            default: break
            }
        }
        if values["name"]?.contains(where: { !$0.isEmpty }) != true { values["name"] = values["n"] }
        return card(.contact, values, order: ["name", "phone", "email", "organization", "address", "url"])
    }

    /// The first VEVENT of an iCalendar text after its `BEGIN:VEVENT` or `BEGIN:VCALENDAR`:
    /// SUMMARY, DTSTART, DTEND and LOCATION; nil without a VEVENT.
    static func event(_ s: Scalars, opened: String) -> ContentSummary? {
        guard let lines = linesAfterBegin(s) else { return nil }
        var stack = [opened]
        var level: Int? = opened == "VEVENT" ? 1 : nil  // how deep the first VEVENT sits
        var values: [String: [String]] = [:]
        for line in lines {
            guard case let (name, params, raw)? = contentLine(line) else { continue }
            if name == "BEGIN" {
                stack.append(trim(string(raw)).uppercased())
                if level == nil && stack.last == "VEVENT" { level = stack.count }
                continue
            }
            if name == "END" {
                if stack.count == level || stack.count == 1 { break }
                stack.removeLast()
                continue
            }
            guard stack.count == level else { continue }
            let text = trim(unescape(raw, newlines: true))
            let tzid = params.first { $0.uppercased().hasPrefix("TZID=") }.map { String($0.dropFirst(5)) }
            switch name {
            case "SUMMARY": values["summary", default: []].append(text)
            case "DTSTART": values["start", default: []].append(isoDateTime(text, zone: tzid))
            case "DTEND": values["end", default: []].append(isoDateTime(text, zone: tzid))
            case "LOCATION": values["location", default: []].append(text)
            default: break
            }
        }
        guard values["summary"] != nil || values["start"] != nil else { return nil }
        return card(.event, values, order: ["summary", "start", "end", "location"])
    }

    /// The unfolded lines after a `BEGIN:…` name, which must end its line; nil when it does not
    /// (`BEGIN:VCARDS`).
    static func linesAfterBegin(_ s: Scalars) -> [[Unicode.Scalar]]? {
        let rest = s.prefix { $0 != "\n" && $0 != "\r" }
        guard rest.allSatisfy({ $0.properties.isWhitespace }) else { return nil }
        var lines: [[Unicode.Scalar]] = []
        var i = rest.endIndex
        while i < s.endIndex {
            var end = i
            while end < s.endIndex, s[end] != "\n", s[end] != "\r" { end += 1 }
            let line = s[i..<end]
            if let first = line.first, first == " " || first == "\t", !lines.isEmpty {
                lines[lines.count - 1].append(contentsOf: line.dropFirst())  // a folded line goes on
            } else if !line.isEmpty {
                lines.append(Array(line))
            }
            i = end
            if i < s.endIndex, s[i] == "\r" { i += 1 }
            if i < s.endIndex, s[i] == "\n" { i += 1 }
        }
        return lines
    }

    /// A content line `group.NAME;param;param:value`: the uppercased name, the parameters as
    /// written and the value; colons inside quoted parameters do not end the name.
    static func contentLine(_ line: [Unicode.Scalar]) -> (String, [String], Scalars)? {
        var quoted = false
        guard let colon = line.firstIndex(where: { c in
            if c == "\"" { quoted.toggle() }
            return c == ":" && !quoted
        }) else { return nil }
        let head = line[..<colon].split(separator: ";", omittingEmptySubsequences: false)
        let name = string(head[0].split(separator: ".").last ?? head[0]).uppercased()
        return (trim(name), head.dropFirst().map(string), line[(colon + 1)...])
    }

    /// An iCalendar DATE or DATE-TIME as ISO 8601 (`20261130T190000Z` → `2026-11-30T19:00:00Z`),
    /// a named zone in brackets as RFC 9557 writes it; anything else as written.
    static func isoDateTime(_ raw: String, zone: String?) -> String {
        let c = Array(raw.unicodeScalars)
        func number(_ r: Range<Int>, _ valid: ClosedRange<Int>) -> String? {
            guard r.upperBound <= c.count, c[r].allSatisfy(isDigit) else { return nil }
            let text = string(c[r])
            return valid.contains(Int(text) ?? -1) ? text : nil
        }
        guard c.count == 8 || c.count == 15 || (c.count == 16 && c[15] == "Z"),
              let year = number(0..<4, 0...9999), let month = number(4..<6, 1...12),
              let day = number(6..<8, 1...31) else { return raw }
        let date = "\(year)-\(month)-\(day)"
        guard c.count > 8 else { return date }
        guard c[8] == "T", let hour = number(9..<11, 0...23), let minute = number(11..<13, 0...59),
              let second = number(13..<15, 0...60) else { return raw }
        let zoneSuffix = c.count == 16 ? "Z" : zone.map { "[\($0.filter { $0 != "\"" })]" } ?? ""
        return "\(date)T\(hour):\(minute):\(second)\(zoneSuffix)"
    }

    /// Fields in `order`; only phone and email may repeat. Nil when there is nothing to show.
    static func card(_ kind: ContentKind, _ values: [String: [String]], order: [String]) -> ContentSummary? {
        let fields = order.flatMap { name in
            let present = (values[name] ?? []).filter { !$0.isEmpty }
            return (name == "phone" || name == "email" ? present : Array(present.prefix(1))).map { field(name, $0) }
        }
        return fields.isEmpty ? nil : ContentSummary(kind: kind, fields: fields)
    }

    // MARK: - Query strings

    /// `key=value&…` with keys lowercased and values percent-decoded; the first of a key wins.
    static func queryItems(_ s: Scalars, plusIsSpace: Bool = false) -> [String: String] {
        var items: [String: String] = [:]
        for pair in s.split(separator: "&") {
            let eq = pair.firstIndex(of: "=") ?? pair.endIndex
            let key = string(pair[..<eq]).lowercased()
            if items[key] == nil { items[key] = eq < pair.endIndex ? hexDecoded(pair[(eq + 1)...], plusIsSpace: plusIsSpace) : "" }
        }
        return items
    }

    /// `s` with `%XX` escapes (or vCard 2.1 quoted-printable `=XX`) decoded as UTF-8; a
    /// malformed escape stays as written.
    static func hexDecoded(_ s: Scalars, marker: Unicode.Scalar = "%", plusIsSpace: Bool = false) -> String {
        var bytes: [UInt8] = []
        var i = s.startIndex
        while i < s.endIndex {
            if s[i] == marker, i + 2 < s.endIndex, let hi = hexValue(s[i + 1]), let lo = hexValue(s[i + 2]) {
                bytes.append(hi << 4 | lo)
                i += 3
                continue
            }
            if plusIsSpace && s[i] == "+" { bytes.append(0x20) } else { UTF8.encode(s[i]) { bytes.append($0) } }
            i += 1
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    // MARK: - Scalars

    static func field(_ name: String, _ value: String) -> ContentField { ContentField(name: name, value: value) }
    static func string<S: Sequence<Unicode.Scalar>>(_ s: S) -> String { String(String.UnicodeScalarView(s)) }
    static func trim(_ s: String) -> String { string(trimmed(Array(s.unicodeScalars)[...])) }
    static func isDigit(_ c: Unicode.Scalar) -> Bool { ("0"..."9").contains(c) }
    static func isLetter(_ c: Unicode.Scalar) -> Bool { c.isASCII ? ("a"..."z").contains(lower(c)) : c.properties.isAlphabetic }
    static func isControl(_ c: Unicode.Scalar) -> Bool { c.properties.generalCategory == .control }
    static func lower(_ c: Unicode.Scalar) -> Unicode.Scalar { ("A"..."Z").contains(c) ? Unicode.Scalar(c.value + 32)! : c }
    static func hexValue(_ c: Unicode.Scalar) -> UInt8? { c.properties.isASCIIHexDigit ? UInt8(String(c), radix: 16) : nil }

    static func trimmed(_ s: Scalars) -> Scalars {
        var s = s
        while let c = s.first, c.properties.isWhitespace { s.removeFirst() }
        while let c = s.last, c.properties.isWhitespace { s.removeLast() }
        return s
    }

    /// Whether `s` starts with the lowercase ASCII `prefix`, in any case.
    static func hasPrefix(_ s: Scalars, _ prefix: String) -> Bool {
        s.count >= prefix.unicodeScalars.count && zip(s, prefix.unicodeScalars).allSatisfy { lower($0) == $1 }
    }
}
