/// What a scanned payload holds, recognised from its content rather than its symbology.
public enum ContentKind: String, CaseIterable, Sendable, Codable {
    case sealed, recipient, url, email, phone, sms, geo, wifi, contact, event, product, text, binary
    /// Found in recognised text only: a date or time (`TextDates`), a postal address (`TextAddresses`).
    case date, address
}

/// One parsed detail of a payload, e.g. `ssid: home`.
public struct ContentField: Equatable, Sendable {
    public let name: String
    public let value: String

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

/// The kind of a payload and the details worth showing for it.
public struct ContentSummary: Equatable, Sendable {
    public let kind: ContentKind
    /// Parsed details for display, in a sensible order, e.g. wifi: ssid, security, password, hidden.
    public let fields: [ContentField]

    public init(kind: ContentKind, fields: [ContentField] = []) {
        self.kind = kind
        self.fields = fields
    }

    /// The first value of the field `name`, nil without one.
    public func value(_ name: String) -> String? {
        fields.first { $0.name == name }?.value
    }

    /// Every value of the field `name` (contacts may have several phones and emails).
    public func values(_ name: String) -> [String] {
        fields.filter { $0.name == name }.map(\.value)
    }
}

/// Recognises what a scanned or pasted payload holds, the way scanner apps do: by its scheme or
/// container (`WIFI:`, `BEGIN:VCARD`, `mailto:` …), checked strictly enough that text which
/// merely resembles a kind stays text.
public enum ContentClassifier {
    typealias Scalars = ArraySlice<Unicode.Scalar>

    /// The kind and details of a payload; `symbology` is a `Symbology` raw value, or "text"
    /// for pasted text. `text` is nil when the bytes are not text.
    public static func classify(bytes: [UInt8], text: String?, symbology: String) -> ContentSummary {
        if let sealed = sealed(bytes) { return sealed }
        if let recipient = recipient(text) { return recipient }
        guard let text else {
            guard !bytes.isEmpty else { return ContentSummary(kind: .text) }
            return ContentSummary(kind: .binary, fields: [field("size", String(bytes.count))])
        }
        let content = trimmed(Array(text.unicodeScalars)[...])
        guard !content.isEmpty else { return ContentSummary(kind: .text) }
        // Pasted text may carry white space around the armor that the scanned bytes would not.
        if content.first == "Q" || content.first == "q", let sealed = sealed(Array(string(content).utf8)) {
            return sealed
        }
        if let product = product(content, symbology: Symbology(rawValue: symbology)) { return product }
        return structured(content) ?? url(content) ?? bareEmail(content) ?? ContentSummary(kind: .text)
    }

    static func sealed(_ bytes: [UInt8]) -> ContentSummary? {
        if AgeFile.isAgeFile(bytes) {
            let armored = AgeArmor.isArmored(bytes)
            let size = armored ? ((try? AgeArmor.decode(bytes))?.count ?? bytes.count) : bytes.count
            return ContentSummary(kind: .sealed, fields: [field("armor", armored ? "age-text" : "age"), field("size", String(size))])
        }
        guard Armor.isSealed(bytes) else { return nil }
        let armor: Armor = bytes.starts(with: Armor.magic) ? .binary : .digits
        // The size of the sealed message itself, as scan and list report it; the armor's
        // digits take more room than that.
        let size = ((try? Armor.envelope(fromSymbol: bytes)) ?? nil)?.count ?? bytes.count
        return ContentSummary(kind: .sealed, fields: [field("armor", armor.rawValue), field("size", String(size))])
    }

    /// An age recipient (`age1…`, either case, as a QR code holds it upper case), with its
    /// fingerprint: a public key someone shows to be sealed to.
    static func recipient(_ text: String?) -> ContentSummary? {
        guard let text, text.utf8.count < 200 else { return nil }
        let line = text.trimmingWhitespace()
        guard line.lowercased().hasPrefix("age1"), let recipient = try? AgeRecipient(text: line) else { return nil }
        return ContentSummary(kind: .recipient, fields: [field("recipient", recipient.text),
                                                          field("fingerprint", recipient.fingerprint)])
    }

    /// Kinds introduced by a scheme or container name (matched case-insensitively); nil when
    /// none matches or the content after it does not hold what the kind needs.
    static func structured(_ s: Scalars) -> ContentSummary? {
        let rules: [(prefix: String, parse: (Scalars) -> ContentSummary?)] = [
            ("wifi:", wifi), ("mecard:", mecard), ("mebkm:", bookmark), ("matmsg:", matmsg),
            ("mailto:", mailto), ("tel:", phone),
            ("smsto:", sms), ("sms:", sms), ("mmsto:", sms), ("mms:", sms), ("geo:", geo),
            ("begin:vcard", vcard), ("begin:vevent", { event($0, opened: "VEVENT") }),
            ("begin:vcalendar", { event($0, opened: "VCALENDAR") }),
        ]
        for rule in rules where hasPrefix(s, rule.prefix) {
            return rule.parse(s.dropFirst(rule.prefix.unicodeScalars.count))
        }
        return nil
    }

    // MARK: - Products

    /// A retail or book code with a valid check digit, read from a product barcode, or a
    /// 13-digit EAN in a QR code.
    static func product(_ s: Scalars, symbology: Symbology?) -> ContentSummary? {
        guard let symbology, s.count <= 16 else { return nil }
        var digits: [Int] = []
        for (i, c) in s.enumerated() {
            if isDigit(c) {
                digits.append(Int(c.value) - 48)
            } else if symbology == .isbn10, i == 9, c == "X" || c == "x" {
                digits.append(10)
            } else {
                return nil
            }
        }
        var code = string(s)
        let type: String
        switch (symbology, digits.count) {
        case (.ean13, 13), (.qr, 13), (.isbn13, 13):
            guard eanValid(digits) else { return nil }
            let bookland = code.hasPrefix("978") || code.hasPrefix("979")
            type = symbology == .isbn13 || bookland ? "ISBN-13" : "EAN-13"
        case (.ean8, 8):
            guard eanValid(digits) else { return nil }
            type = "EAN-8"
        case (.upca, 12), (.upca, 13):
            // A UPC-A is an EAN-13 with a leading zero, and some readers report it that way.
            guard digits.count == 12 || digits[0] == 0, eanValid(digits) else { return nil }
            code = String(code.suffix(12))
            type = "UPC-A"
        case (.upce, 8):
            guard digits[0] <= 1, eanValid(upcEExpanded(digits)) else { return nil }
            type = "UPC-E"
        case (.databar, 16), (.databarLimited, 16):
            // A GS1 DataBar (and a DataBar Limited) holds one element string: AI 01 and a GTIN-14.
            guard code.hasPrefix("01"), eanValid(Array(digits.dropFirst(2))) else { return nil }
            code = String(code.dropFirst(2))
            type = "GTIN-14"
        case (.isbn10, 10):
            let sum = digits.enumerated().reduce(0) { $0 + (10 - $1.offset) * $1.element }
            guard sum % 11 == 0 else { return nil }
            code = code.uppercased()
            type = "ISBN-10"
        default:
            return nil
        }
        return ContentSummary(kind: .product, fields: [field("code", code), field("type", type)])
    }

    /// Whether the last digit is the GS1 check digit of the others (weights 3, 1, … from the right).
    static func eanValid(_ digits: [Int]) -> Bool {
        guard let check = digits.last, digits.allSatisfy({ $0 < 10 }) else { return false }
        let sum = digits.dropLast().reversed().enumerated().reduce(0) { $0 + $1.element * ($1.offset % 2 == 0 ? 3 : 1) }
        return (10 - sum % 10) % 10 == check
    }

    /// The 12 digits of the UPC-A that the 8 digits of a UPC-E (number system, six digits,
    /// check digit) stand for; the check digit is computed over this expansion.
    static func upcEExpanded(_ d: [Int]) -> [Int] {
        let m = Array(d[1...6])
        let middle: [Int]
        switch m[5] {
        case 0...2: middle = [m[0], m[1], m[5], 0, 0, 0, 0, m[2], m[3], m[4]]
        case 3: middle = [m[0], m[1], m[2], 0, 0, 0, 0, 0, m[3], m[4]]
        case 4: middle = [m[0], m[1], m[2], m[3], 0, 0, 0, 0, 0, m[4]]
        default: middle = [m[0], m[1], m[2], m[3], m[4], 0, 0, 0, 0, m[5]]
        }
        return [d[0]] + middle + [d[7]]
    }

    // MARK: - Links and addresses

    /// `scheme://host…` with a plausible scheme, or `www.` and a dotted host name; white space
    /// or control characters inside mean it is text that merely starts like a link.
    static func url(_ s: Scalars) -> ContentSummary? {
        guard !s.contains(where: { $0.properties.isWhitespace || isControl($0) }) else { return nil }
        if let colon = s.firstIndex(of: ":"), s[colon...].starts(with: "://".unicodeScalars) {
            let scheme = s[..<colon]
            let host = s[(colon + 3)...]
            guard (1...32).contains(scheme.count), let first = scheme.first, isLetter(first), first.isASCII,
                  scheme.allSatisfy({ $0.isASCII && (isLetter($0) || isDigit($0) || "+-.".unicodeScalars.contains($0)) }),
                  let h = host.first, !"/?#@:".unicodeScalars.contains(h) else { return nil }
            return ContentSummary(kind: .url, fields: [field("url", string(s))])
        }
        guard hasPrefix(s, "www.") else { return nil }
        let host = s.dropFirst(4).prefix { !"/?#:".unicodeScalars.contains($0) }
        guard isHostName(host) else { return nil }
        return ContentSummary(kind: .url, fields: [field("url", string(s))])
    }

    /// `MEBKM:TITLE:…;URL:…;;`, as written by feature phones.
    static func bookmark(_ s: Scalars) -> ContentSummary? {
        let list = fieldList(s)
        guard let raw = list.first(where: { $0.key == "URL" })?.value else { return nil }
        let link = trim(unescape(raw))
        guard !link.isEmpty else { return nil }
        var fields = [field("url", link)]
        if let title = list.first(where: { $0.key == "TITLE" }).map({ trim(unescape($0.value)) }), !title.isEmpty {
            fields.append(field("title", title))
        }
        return ContentSummary(kind: .url, fields: fields)
    }

    /// `mailto:to?subject=…&body=…`, percent-decoded; the address may also come as `to=`.
    static func mailto(_ s: Scalars) -> ContentSummary? {
        let q = s.firstIndex(of: "?") ?? s.endIndex
        let query = q < s.endIndex ? queryItems(s[(q + 1)...]) : [:]
        var to = hexDecoded(s[..<q])
        if to.isEmpty { to = query["to"] ?? "" }
        return email(to, subject: query["subject"], body: query["body"])
    }

    /// `MATMSG:TO:…;SUB:…;BODY:…;;`, as written by feature phones.
    static func matmsg(_ s: Scalars) -> ContentSummary? {
        let list = fieldList(s)
        func value(_ key: String) -> String? { list.first { $0.key == key }.map { unescape($0.value) } }
        return email(value("TO") ?? "", subject: value("SUB"), body: value("BODY"))
    }

    /// A mail summary; nil unless each comma-separated recipient has text on both sides of an `@`.
    static func email(_ to: String, subject: String?, body: String?) -> ContentSummary? {
        let to = trim(to)
        let recipients = to.unicodeScalars.split(separator: ",").map { trimmed($0) }
        guard !recipients.isEmpty, recipients.allSatisfy({ r in
            guard let at = r.firstIndex(of: "@") else { return false }
            return at > r.startIndex && at < r.endIndex - 1
                && !r.contains { $0.properties.isWhitespace || isControl($0) }
        }) else { return nil }
        var fields = [field("address", to)]
        if let subject, !subject.isEmpty { fields.append(field("subject", subject)) }
        if let body, !body.isEmpty { fields.append(field("body", body)) }
        return ContentSummary(kind: .email, fields: fields)
    }

    /// A whole payload that is one address, `local@domain.tld`.
    static func bareEmail(_ s: Scalars) -> ContentSummary? {
        guard let at = s.firstIndex(of: "@") else { return nil }
        let local = s[..<at]
        let localSymbols = "!#$%&'*+/=?^_`{|}~-.".unicodeScalars
        guard (1...64).contains(local.count),
              local.allSatisfy({ isLetter($0) || isDigit($0) || localSymbols.contains($0) }),
              isHostName(s[(at + 1)...]) else { return nil }
        return ContentSummary(kind: .email, fields: [field("address", string(s))])
    }

    /// Whether `s` is a host name of at least two labels whose last is letters only.
    static func isHostName(_ s: Scalars) -> Bool {
        let labels = s.split(separator: ".", omittingEmptySubsequences: false)
        guard s.count <= 253, labels.count >= 2, let tld = labels.last, tld.count >= 2,
              tld.allSatisfy(isLetter) else { return false }
        return labels.allSatisfy { label in
            (1...63).contains(label.count) && label.first != "-" && label.last != "-"
                && label.allSatisfy { isLetter($0) || isDigit($0) || $0 == "-" }
        }
    }

    // MARK: - Short URIs

    /// `tel:+1-555-0100`, percent-decoded; nil unless it is a dialable number.
    static func phone(_ s: Scalars) -> ContentSummary? {
        let number = trim(hexDecoded(s))
        guard isPhoneNumber(number.unicodeScalars.prefix { $0 != ";" }) else { return nil }
        return ContentSummary(kind: .phone, fields: [field("number", number)])
    }

    /// `SMSTO:number:message` or `sms:number?body=…` (also `mms`, `mmsto`).
    static func sms(_ s: Scalars) -> ContentSummary? {
        let split = s.firstIndex { $0 == "?" || $0 == "&" || $0 == ":" } ?? s.endIndex
        let number = trim(String(hexDecoded(s[..<split]).unicodeScalars.prefix { $0 != ";" }))
        guard isPhoneNumber(number.unicodeScalars[...]) else { return nil }
        var fields = [field("number", number)]
        if split < s.endIndex {
            let rest = s[(split + 1)...]
            let message = s[split] == ":" ? string(rest) : queryItems(rest)["body"] ?? ""
            if !message.isEmpty { fields.append(field("message", message)) }
        }
        return ContentSummary(kind: .sms, fields: fields)
    }

    /// Digits with the separators people write in numbers, and at least one digit.
    static func isPhoneNumber<S: Collection<Unicode.Scalar>>(_ s: S) -> Bool {
        let separators = "+-.()*#/, ".unicodeScalars
        return s.contains(where: isDigit) && s.allSatisfy { isDigit($0) || separators.contains($0) }
    }

    /// `geo:lat,lon[,alt][;u=…][?q=…]` with latitude and longitude in range.
    static func geo(_ s: Scalars) -> ContentSummary? {
        let q = s.firstIndex(of: "?") ?? s.endIndex
        let coordinates = s[..<q].prefix { $0 != ";" }
        let pieces = coordinates.split(separator: ",", maxSplits: 3, omittingEmptySubsequences: false)
        guard pieces.count == 2 || pieces.count == 3, case let parts = pieces.map({ trim(string($0)) }),
              let latitude = decimal(parts[0]), (-90...90).contains(latitude),
              let longitude = decimal(parts[1]), (-180...180).contains(longitude),
              parts.count == 2 || decimal(parts[2]) != nil else { return nil }
        var fields = [field("latitude", parts[0]), field("longitude", parts[1])]
        if parts.count == 3 { fields.append(field("altitude", parts[2])) }
        if q < s.endIndex, let query = queryItems(s[(q + 1)...], plusIsSpace: true)["q"], !query.isEmpty {
            fields.append(field("query", query))
        }
        return ContentSummary(kind: .geo, fields: fields)
    }

    /// A plain decimal number (`-48.85`), not `1e5`, `nan` or `0x1p3`.
    static func decimal(_ s: String) -> Double? {
        let body = s.unicodeScalars.drop { $0 == "-" || $0 == "+" }
        guard s.unicodeScalars.count - body.count <= 1, body.count <= 32,
              body.contains(where: isDigit), body.allSatisfy({ isDigit($0) || $0 == "." }),
              body.filter({ $0 == "." }).count <= 1 else { return nil }
        return Double(s.hasPrefix("+") ? String(s.dropFirst()) : s)
    }
}
