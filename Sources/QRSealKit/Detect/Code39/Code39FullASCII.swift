/// Code 39's Full ASCII mode (ISO/IEC 16388, annex on the full ASCII set): a character of
/// the 128 that Code 39 cannot draw is written as one of the shift characters `$`, `%`, `/`
/// or `+` followed by a capital letter. The symbol says nothing of whether it uses the
/// mode, so a reader decodes the pairs when every shift character starts a valid pair, and
/// reports the characters as they stand otherwise (as zxing-cpp 3.1 does).
enum Code39FullASCII {
    /// The text `raw` stands for in Full ASCII, or nil when a shift character is last or is
    /// followed by a letter it has no meaning with (then `raw` is plain Code 39).
    static func decoded(_ raw: [UInt8]) -> [UInt8]? {
        var out: [UInt8] = []
        out.reserveCapacity(raw.count)
        var i = 0
        while i < raw.count {
            let c = raw[i]
            guard isShift(c) else {
                out.append(c)
                i += 1
                continue
            }
            guard i + 1 < raw.count, let value = pair(c, raw[i + 1]) else { return nil }
            out.append(value)
            i += 2
        }
        return out
    }

    static func isShift(_ c: UInt8) -> Bool {
        c == UInt8(ascii: "$") || c == UInt8(ascii: "%") || c == UInt8(ascii: "/") || c == UInt8(ascii: "+")
    }

    /// The ASCII value of the pair `shift`, `letter`, from the standard's table.
    static func pair(_ shift: UInt8, _ letter: UInt8) -> UInt8? {
        let a = UInt8(ascii: "A")
        switch shift {
        case UInt8(ascii: "$"):
            // $A–$Z: the control characters 1–26.
            guard (a...UInt8(ascii: "Z")).contains(letter) else { return nil }
            return letter - a + 1
        case UInt8(ascii: "+"):
            // +A–+Z: the small letters.
            guard (a...UInt8(ascii: "Z")).contains(letter) else { return nil }
            return letter - a + UInt8(ascii: "a")
        case UInt8(ascii: "/"):
            // /A–/O: the punctuation ! to /; /Z: the colon.
            if (a...UInt8(ascii: "O")).contains(letter) { return letter - a + UInt8(ascii: "!") }
            return letter == UInt8(ascii: "Z") ? UInt8(ascii: ":") : nil
        case UInt8(ascii: "%"):
            switch letter {
            case a...UInt8(ascii: "E"): return letter - a + 27                           // ESC, FS, GS, RS, US
            case UInt8(ascii: "F")...UInt8(ascii: "J"): return letter - UInt8(ascii: "F") + UInt8(ascii: ";")  // ; < = > ?
            case UInt8(ascii: "K")...UInt8(ascii: "O"): return letter - UInt8(ascii: "K") + UInt8(ascii: "[")  // [ \ ] ^ _
            case UInt8(ascii: "P")...UInt8(ascii: "T"): return letter - UInt8(ascii: "P") + UInt8(ascii: "{")  // { | } ~ DEL
            case UInt8(ascii: "U"): return 0
            case UInt8(ascii: "V"): return UInt8(ascii: "@")
            case UInt8(ascii: "W"): return UInt8(ascii: "`")
            case UInt8(ascii: "X")...UInt8(ascii: "Z"): return 127
            default: return nil
            }
        default:
            return nil
        }
    }
}
