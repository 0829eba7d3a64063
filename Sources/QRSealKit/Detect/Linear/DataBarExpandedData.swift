/// The data bits of a GS1 DataBar Expanded symbol (ISO/IEC 24724, 7.2.5) as the element
/// string qrseal reports (`GS1`).
///
/// The bits are the data characters' 12-bit values in order. The first is the linkage flag
/// (a 2D component above, ignored here); an encodation method follows: `1` (AI 01 and
/// others), `00` (general purpose), `0100` (AI 01 and 3103), `0101` (01 and 3202/3203),
/// `01100` and `01101` (01 and 392x, 01 and 393x) and `0111000` to `0111111` (01, 310x or
/// 320x and a date); what a method leaves is a general-purpose field of numeric,
/// alphanumeric and ISO/IEC 646 characters, FNC1 among them. Nil when the bits are no data
/// the standard encodes.
enum DataBarExpandedData {
    /// The element string the bits stand for.
    static func elementString(_ bits: [Bool]) -> [UInt8]? {
        let b = Bits(bits)
        guard bits.count >= 5 else { return nil }
        if bits[1] {
            // Method 1: the GTIN's first digit in 4 bits, the other 12 in 10-bit triples.
            guard let first = b.value(4, 4), first <= 9, let gtin = gtin(b, first: first, at: 8),
                  let rest = generalPurpose(b, from: 48) else { return nil }
            return Array("01".utf8) + gtin + rest
        }
        guard let method = b.value(1, 4) else { return nil }
        if method >> 2 == 0 { return generalPurpose(b, from: 5) }
        switch method {
        case 0b0100, 0b0101:
            // A GTIN starting with 9 and a weight in 15 bits: 3103, or 3202/3203 below and
            // above 10 000.
            guard bits.count == 60, let gtin = gtin(b, first: 9, at: 5), let weight = b.value(45, 15) else { return nil }
            if method == 0b0100 { return Array("01".utf8) + gtin + Array("3103".utf8) + digits(weight, 6) }
            let (ai, value) = weight < 10_000 ? ("3202", weight) : ("3203", weight - 10_000)
            return Array("01".utf8) + gtin + Array(ai.utf8) + digits(value, 6)
        case 0b0110:
            // 392x (a price) or 393x (a price with its ISO 4217 currency), then a general field.
            guard let fifth = b.value(5, 1), let gtin = gtin(b, first: 9, at: 8), let decimals = b.value(48, 2) else { return nil }
            if fifth == 0 {
                guard let rest = generalPurpose(b, from: 50) else { return nil }
                return Array("01".utf8) + gtin + Array("392".utf8) + digits(decimals, 1) + rest
            }
            guard let currency = b.value(50, 10), currency < 1000, let rest = generalPurpose(b, from: 60) else { return nil }
            return Array("01".utf8) + gtin + Array("393".utf8) + digits(decimals, 1) + digits(currency, 3) + rest
        default:
            return weightAndDate(b)
        }
    }

    /// Methods `0111000` to `0111111`: a GTIN starting with 9, a weight in 20 bits (its
    /// first digit the AI's last: the decimal point) under 310x or 320x, and a date in 16
    /// bits (38 400 for none) under 11, 13, 15 or 17.
    static func weightAndDate(_ b: Bits) -> [UInt8]? {
        guard b.count == 84, let method = b.value(1, 7), let gtin = gtin(b, first: 9, at: 8),
              let weight = b.value(48, 20), weight < 1_000_000, let date = b.value(68, 16) else { return nil }
        let weightAI = method & 1 == 0 ? "310" : "320"
        let dateAI = ["11", "13", "15", "17"][(method >> 1) & 3]
        var out = Array("01".utf8) + gtin + Array(weightAI.utf8) + digits(weight / 100_000, 1) + digits(weight % 100_000, 6)
        if date != 38_400 {
            let day = date % 32, month = date / 32 % 12 + 1, year = date / 384
            guard year < 100 else { return nil }
            out += Array(dateAI.utf8) + digits(year, 2) + digits(month, 2) + digits(day, 2)
        }
        return out
    }

    /// The 14 digits of a GTIN: `first`, four 10-bit triples from `at`, and its check digit.
    static func gtin(_ b: Bits, first: Int, at: Int) -> [UInt8]? {
        var thirteen = [first]
        for k in 0..<4 {
            guard let triple = b.value(at + 10 * k, 10), triple < 1000 else { return nil }
            thirteen += [triple / 100, triple / 10 % 10, triple % 10]
        }
        let sum = thirteen.reversed().enumerated().reduce(0) { $0 + $1.element * ($1.offset % 2 == 0 ? 3 : 1) }
        return (thirteen + [(10 - sum % 10) % 10]).map { UInt8(48 + $0) }
    }

    /// `value` in `width` decimal digits, zeros first.
    static func digits(_ value: Int, _ width: Int) -> [UInt8] {
        let text = Array(String(value).utf8)
        return [UInt8](repeating: UInt8(ascii: "0"), count: max(0, width - text.count)) + text
    }

    /// The characters of ISO/IEC 646 mode's 8-bit values 232 to 252 (table 7).
    static let isoPunctuation = Array("!\"%&'()*+,-./:;<=>?_ ".utf8)
    /// The characters of alphanumeric mode's 6-bit values 58 to 62 (table 6).
    static let alphanumericPunctuation = Array("*,-./".utf8)

    /// The general-purpose field from bit `start` to the end: numeric pairs in 7 bits (a
    /// last digit in 4), alphanumeric and ISO/IEC 646 characters in 5 to 8, the latches
    /// between them, and FNC1 (the group separator; in the other modes a latch to numeric
    /// too, after which a numeric latch some encoders add is passed over). What is left
    /// when no character fits is padding. A separator at the end is padding too.
    static func generalPurpose(_ b: Bits, from start: Int) -> [UInt8]? {
        enum Mode { case numeric, alphanumeric, iso646 }
        var mode = Mode.numeric, p = start, out: [UInt8] = []
        let size = b.count
        guard start <= size else { return nil }
        decoding: while p < size {
            switch mode {
            case .numeric:
                if p + 7 > size {
                    // Four to six bits: a last digit plus one, or 0 for none.
                    if let v = b.value(p, 4), v > 0 {
                        guard v <= 10 else { return nil }
                        out.append(UInt8(47 + v))
                    }
                    break decoding
                }
                guard let latch = b.value(p, 4), let pair = b.value(p, 7) else { return nil }
                if latch == 0 {
                    mode = .alphanumeric
                    p += 4
                    continue
                }
                let v = pair - 8
                for digit in [v / 11, v % 11] { out.append(digit == 10 ? GS1.groupSeparator : UInt8(48 + digit)) }
                p += 7
            case .alphanumeric, .iso646:
                guard let five = b.value(p, 5) else {
                    // Fewer than five bits: a numeric latch or padding.
                    break decoding
                }
                if five < 4 {
                    mode = .numeric
                    p += 3
                } else if five == 4 {
                    mode = mode == .alphanumeric ? .iso646 : .alphanumeric
                    p += 5
                } else if five < 15 {
                    out.append(UInt8(43 + five))
                    p += 5
                } else if five == 15 {
                    out.append(GS1.groupSeparator)
                    mode = .numeric
                    p += 5
                    // Some encoders write a numeric latch (000) after it: what follows is an
                    // AI, digits, never the latch to alphanumeric (0000) it would start.
                    if let next = b.value(p, 7), next < 8 { p += 3 }
                } else if mode == .alphanumeric {
                    guard let six = b.value(p, 6) else { break decoding }
                    switch six {
                    case 32...57: out.append(UInt8(65 + six - 32))
                    case 58...62: out.append(alphanumericPunctuation[six - 58])
                    default: return nil
                    }
                    p += 6
                } else {
                    guard let seven = b.value(p, 7) else { break decoding }
                    switch seven {
                    case 64...89: out.append(UInt8(seven + 1))
                    case 90...115: out.append(UInt8(seven + 7))
                    default:
                        guard let eight = b.value(p, 8) else { break decoding }
                        guard (232...252).contains(eight) else { return nil }
                        out.append(isoPunctuation[eight - 232])
                        p += 1
                    }
                    p += 7
                }
            }
        }
        while out.last == GS1.groupSeparator { out.removeLast() }
        return out
    }

    /// Bits read as numbers, most significant first.
    struct Bits {
        let bits: [Bool]
        init(_ bits: [Bool]) { self.bits = bits }
        var count: Int { bits.count }

        /// The `width` bits from `at` as a number, nil when they run past the end.
        func value(_ at: Int, _ width: Int) -> Int? {
            guard at >= 0, width >= 0, at + width <= bits.count else { return nil }
            return bits[at..<(at + width)].reduce(0) { $0 << 1 | ($1 ? 1 : 0) }
        }
    }
}
