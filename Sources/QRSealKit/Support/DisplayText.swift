/// Text from outside (a code's payload, a file name, a pasted line) made safe to show a person
/// on a terminal: every character that could move the cursor, change colours, set a window
/// title, start a new line or reorder what follows is written as a visible escape.
///
/// `--raw`, `--json` and `-o` keep the bytes; only text printed for people goes through here.
public enum DisplayText {
    /// `text` with control characters escaped: `\n`, `\r`, `\t` and `\xHH` for the other C0
    /// controls and DEL; `\u{HHHH}` for C1 controls, bidirectional and other invisible
    /// formatting characters, line and paragraph separators, the blanks and fillers that
    /// show nothing (`isInvisible`); `\xHH` for a byte that was not UTF-8 (kept by
    /// ``RawBytes`` as a private-use scalar).
    public static func escape(_ text: some StringProtocol) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        var previous: Unicode.Scalar?
        for scalar in text.unicodeScalars {
            defer { previous = scalar }
            if let byte = RawBytes.byte(of: scalar) {
                out += "\\x" + hex(UInt32(byte), width: 2)
                continue
            }
            switch scalar.value {
            case 0x0A: out += "\\n"
            case 0x0D: out += "\\r"
            case 0x09: out += "\\t"
            case 0x00...0x1F, 0x7F: out += "\\x" + hex(scalar.value, width: 2)
            case _ where isInvisible(scalar, after: previous): out += "\\u{" + hex(scalar.value, width: 4) + "}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// `text` with control characters escaped as `escape` does, but for line feeds, tabs and
    /// the CR of a CRLF, kept as they are: for a message of several lines shown on a terminal.
    public static func escapeKeepingLines(_ text: some StringProtocol) -> String {
        var out = ""
        var line = ""
        var pendingCR = false
        for scalar in text.unicodeScalars {
            if pendingCR {
                pendingCR = false
                if scalar == "\n" { out += escape(line) + "\r\n"; line = ""; continue }
                line += "\r"
            }
            switch scalar {
            case "\n": out += escape(line) + "\n"; line = ""
            case "\t": out += escape(line) + "\t"; line = ""
            case "\r": pendingCR = true
            default: line.unicodeScalars.append(scalar)
            }
        }
        if pendingCR { line += "\r" }
        return out + escape(line)
    }

    /// Whether `text` needs no escaping at all.
    public static func isSafe(_ text: some StringProtocol) -> Bool {
        var previous: Unicode.Scalar?
        for s in text.unicodeScalars {
            defer { previous = s }
            if RawBytes.byte(of: s) != nil || s.value < 0x20 || s.value == 0x7F || isInvisible(s, after: previous) { return false }
        }
        return true
    }

    /// C1 controls, bidirectional controls (which can make a line read in another order than
    /// it is stored), zero-width and other format characters, separators that end lines:
    /// the characters the sealed-message format refuses in a file name (docs/FORMAT.md,
    /// section 3), a fixed list, which `isInvisible` only ever adds to.
    static func isFormatControl(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x80...0x9F,            // C1 controls (U+009B is CSI on some terminals)
             0x061C,                 // Arabic letter mark
             0x200B...0x200F,        // zero-width space, joiners, LRM, RLM
             0x2028...0x202E,        // line/paragraph separators, bidi embeddings and overrides
             0x2060...0x2064,        // word joiner, invisible operators
             0x2066...0x2069,        // bidi isolates
             0xFEFF,                 // zero-width no-break space
             0xFFF9...0xFFFB:        // interlinear annotation
            return true
        default:
            return false
        }
    }

    /// A character that shows as something else, or as nothing, on a terminal: the format
    /// controls above; every default-ignorable code point (U+00AD soft hyphen, U+034F,
    /// the Hangul fillers, U+180E, variation selectors, tag characters U+E0000–U+E0FFF),
    /// which a terminal draws as nothing and so can hide text or smuggle bytes; and U+2800,
    /// the braille blank. Scalar by scalar: a JSON writer escapes each of them.
    static func isInvisible(_ s: Unicode.Scalar) -> Bool {
        isFormatControl(s) || s.value == 0x2800 || s.properties.isDefaultIgnorableCodePoint
    }

    /// `isInvisible`, but for one text-or-emoji presentation selector (U+FE0E, U+FE0F)
    /// right after an emoji, where it only chooses how that emoji is drawn (`❤️`).
    static func isInvisible(_ s: Unicode.Scalar, after previous: Unicode.Scalar?) -> Bool {
        guard isInvisible(s) else { return false }
        guard s.value == 0xFE0E || s.value == 0xFE0F, let previous else { return true }
        return !(previous.properties.isEmoji && !isInvisible(previous))
    }

    private static func hex(_ value: UInt32, width: Int) -> String {
        let digits = String(value, radix: 16, uppercase: false)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    /// Outside text as lines safe to show: split at LF or CR LF, every other control
    /// character escaped (`escape`), so that no content can pass for another line.
    public static func lines(of text: String) -> [String] {
        text.replacing("\r\n", with: "\n").split(separator: "\n", omittingEmptySubsequences: false)
            .map { escape($0) }
    }

    /// Outside text on one line: its lines (`lines(of:)`) joined by "⏎".
    public static func oneLine(_ text: String) -> String { lines(of: text).joined(separator: "⏎") }
}

/// A lossless way to carry bytes that are not UTF-8 (file names, arguments) in a `String`:
/// each such byte becomes one scalar of the private-use plane U+10FF80…U+10FFFF, and turns
/// back into the same byte when the string is given to the system again.
public enum RawBytes {
    static let base: UInt32 = 0x10FF00

    /// The text of `bytes`: valid UTF-8 as it is, every other byte as its private-use scalar.
    /// The UTF-8 of a scalar of that range is itself carried as four raw bytes, so that it
    /// too comes back as it was.
    public static func string(_ bytes: some Collection<UInt8>) -> String {
        if let text = String(validating: Array(bytes), as: UTF8.self), !hasRawBytes(text) { return text }
        var out = String.UnicodeScalarView()
        let all = Array(bytes)
        var index = 0
        while index < all.count {
            let length = validSequenceLength(all, at: index)
            let text = String(decoding: all[index..<index + max(length, 1)], as: UTF8.self)
            if length > 0, !hasRawBytes(text) {
                out.append(contentsOf: text.unicodeScalars)
                index += length
            } else {
                out.append(Unicode.Scalar(base + UInt32(all[index]))!)
                index += 1
            }
        }
        return String(out)
    }

    /// The bytes `text` stands for: UTF-8, with private-use scalars turned back into their byte.
    public static func bytes(_ text: some StringProtocol) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            if let byte = byte(of: scalar) { out.append(byte) } else { out += Array(String(scalar).utf8) }
        }
        return out
    }

    /// The raw byte a private-use scalar carries, if it is one.
    public static func byte(of scalar: Unicode.Scalar) -> UInt8? {
        scalar.value >= base + 0x80 && scalar.value <= base + 0xFF ? UInt8(scalar.value - base) : nil
    }

    /// Whether `text` carries any byte that was not UTF-8.
    public static func hasRawBytes(_ text: some StringProtocol) -> Bool {
        text.unicodeScalars.contains { byte(of: $0) != nil }
    }

    /// Calls `body` with `text` as a NUL-terminated C path of its original bytes.
    public static func withCString<R>(_ text: some StringProtocol, _ body: (UnsafePointer<CChar>) throws -> R) rethrows -> R {
        var bytes = bytes(text).map { CChar(bitPattern: $0) }
        bytes.append(0)
        return try bytes.withUnsafeBufferPointer { try body($0.baseAddress!) }
    }

    /// The length of the valid UTF-8 sequence starting at `index`, 0 if none starts there.
    private static func validSequenceLength(_ b: [UInt8], at index: Int) -> Int {
        let lead = b[index]
        let length: Int
        var low: UInt8 = 0x80, high: UInt8 = 0xBF
        switch lead {
        case 0x00...0x7F: return 1
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; high = 0x9F
        case 0xF0: length = 4; low = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; high = 0x8F
        default: return 0
        }
        guard index + length <= b.count else { return 0 }
        for k in 1..<length {
            let c = b[index + k]
            let (lo, hi) = k == 1 ? (low, high) : (UInt8(0x80), UInt8(0xBF))
            guard c >= lo && c <= hi else { return 0 }
        }
        return length
    }
}
