/// The characters of an ECC 200 Data Matrix symbol's corrected data codewords (ISO/IEC 16022,
/// 5.2): ASCII (with digit pairs and the upper shift), C40, Text, ANSI X12, EDIFACT and Base
/// 256 (with its 255-state randomising), FNC1, ECI designators, the 05 and 06 Macros, and a
/// Structured Append header.
struct DataMatrixText: Equatable, Sendable {
    /// The payload: each character's byte, Base 256 bytes as they are, a group separator (GS,
    /// 0x1D) for each FNC1 after the first position, a Macro's header and trailer written
    /// out (`[)>` RS `05` GS … RS EOT), as zxing-cpp gives them; no ECI designator.
    var bytes: [UInt8] = []
    /// The payload as text when ECI designators name its character sets.
    var text: String?
    /// Whether an ECI designator declared a character set.
    var declaresCharacterSet = false
    /// Whether FNC1 stood in the first position: the payload is a GS1 element string.
    var isGS1 = false
    /// Whether the symbol asks the reader to program itself (Reader Programming).
    var isReaderProgramming = false
    /// The symbol's place in a Structured Append sequence: 0-based position, count (2 to
    /// 16) and the file identification both its codewords give, 1…254 each.
    var sequence: (index: Int, count: Int, file: Int)?

    static func == (a: DataMatrixText, b: DataMatrixText) -> Bool {
        a.bytes == b.bytes && a.text == b.text && a.isGS1 == b.isGS1 && a.sequence?.index == b.sequence?.index
            && a.sequence?.count == b.sequence?.count && a.sequence?.file == b.sequence?.file
    }

    private enum Mode { case ascii, c40, text, x12, edifact, base256 }

    /// The characters `codewords` (the data codewords, pads included) hold, or nil when they
    /// break a rule: a codeword no encodation defines, a value outside its set, a Base 256
    /// field longer than the symbol, a Structured Append header that is not first.
    init?(codewords: [Int]) {
        var segments: [(eci: Int?, bytes: [UInt8])] = [(nil, [])]
        var trailer: [UInt8] = []
        var mode = Mode.ascii
        var i = 0
        var upper = false
        let n = codewords.count
        func emit(_ b: Int) {
            segments[segments.count - 1].bytes.append(UInt8(truncatingIfNeeded: upper ? b + 128 : b))
            upper = false
        }
        // Whether codeword `i` stands first in the data (after a Structured Append header).
        var dataStart = 0
        // A C40 or Text shift pending; at the end of the data, a lone Shift 1 is the padding
        // of the last pair.
        var shift = 0
        decoding: while i < n {
            switch mode {
            case .ascii:
                let c = codewords[i]
                i += 1
                switch c {
                case 1...128: emit(c - 1)
                case 129: break decoding  // pad: the rest is padding
                case 130...229:
                    guard !upper else { return nil }
                    let v = c - 130
                    emit(48 + v / 10)
                    emit(48 + v % 10)
                case 230: mode = .c40
                case 231: mode = .base256
                case 232:
                    if i - 1 == dataStart && !isGS1 {
                        isGS1 = true
                    } else {
                        segments[segments.count - 1].bytes.append(GS1.groupSeparator)
                    }
                case 233:
                    guard i - 1 == 0, i + 3 <= n else { return nil }
                    let indicator = codewords[i], f1 = codewords[i + 1], f2 = codewords[i + 2]
                    let index = indicator >> 4, count = 17 - (indicator & 0x0F)
                    guard (2...16).contains(count), index < count, (1...254).contains(f1), (1...254).contains(f2)
                    else { return nil }
                    sequence = (index, count, f1 << 8 | f2)
                    i += 3
                    dataStart = i
                case 234:
                    guard i - 1 == dataStart else { return nil }
                    isReaderProgramming = true
                    dataStart = i
                case 235:
                    guard !upper else { return nil }
                    upper = true
                case 236, 237:
                    guard i - 1 == dataStart else { return nil }
                    segments[segments.count - 1].bytes += Array("[)>\u{1E}0\(c == 236 ? 5 : 6)\u{1D}".utf8)
                    trailer = [0x1E, 0x04]
                case 238: mode = .x12
                case 239: mode = .text
                case 240: mode = .edifact
                case 241:
                    guard i < n else { return nil }
                    let c1 = codewords[i]
                    var eci: Int
                    if c1 <= 127 {
                        eci = c1 - 1
                        i += 1
                    } else if c1 <= 191 {
                        guard i + 2 <= n else { return nil }
                        eci = (c1 - 128) * 254 + codewords[i + 1] - 1 + 127
                        i += 2
                    } else {
                        guard c1 <= 207, i + 3 <= n else { return nil }
                        eci = (c1 - 192) * 64516 + (codewords[i + 1] - 1) * 254 + codewords[i + 2] - 1 + 16383
                        i += 3
                    }
                    guard eci >= 0 else { return nil }
                    segments.append((eci, []))
                    declaresCharacterSet = true
                default:
                    // 0, and 242…255; encoders that end with an unlatch (254) in ASCII are forgiven.
                    guard c == 254 && i == n else { return nil }
                }
            case .c40, .text:
                guard let values = Self.triple(codewords, at: &i) else {
                    if i > n { return nil }
                    mode = .ascii
                    continue
                }
                for v in values {
                    switch shift {
                    case 0:
                        switch v {
                        case 0...2: shift = v + 1
                        case 3: emit(32)
                        case 4...13: emit(48 + v - 4)
                        default: emit((mode == .c40 ? 65 : 97) + v - 14)
                        }
                        continue
                    case 1:
                        guard v < 32 else { return nil }
                        emit(v)
                    case 2:
                        switch v {
                        case 0...14: emit(33 + v)
                        case 15...21: emit(58 + v - 15)
                        case 22...26: emit(91 + v - 22)
                        case 27: segments[segments.count - 1].bytes.append(GS1.groupSeparator)
                        case 30:
                            guard !upper else { return nil }
                            upper = true
                        default: return nil
                        }
                    default:
                        if mode == .c40 {
                            emit(96 + v)
                        } else {
                            switch v {
                            case 0: emit(96)
                            case 1...26: emit(65 + v - 1)
                            case 27...31: emit(123 + v - 27)
                            default: return nil
                            }
                        }
                    }
                    shift = 0
                }
            case .x12:
                guard let values = Self.triple(codewords, at: &i) else {
                    if i > n { return nil }
                    mode = .ascii
                    continue
                }
                for v in values {
                    switch v {
                    case 0: emit(13)
                    case 1: emit(42)
                    case 2: emit(62)
                    case 3: emit(32)
                    case 4...13: emit(48 + v - 4)
                    default: emit(65 + v - 14)
                    }
                }
            case .edifact:
                // Three codewords hold four 6-bit values; fewer than three left are ASCII.
                if n - i < 3 {
                    mode = .ascii
                    continue
                }
                let packed = codewords[i] << 16 | codewords[i + 1] << 8 | codewords[i + 2]
                var used = 0
                for k in 0..<4 {
                    let v = packed >> (18 - 6 * k) & 0x3F
                    used = k
                    if v == 0x1F {
                        mode = .ascii
                        break
                    }
                    emit(v & 0x20 == 0 ? v | 0x40 : v)
                    used = k + 1
                }
                // After an unlatch the rest of its codeword is padding; ASCII starts at the next.
                i += mode == .ascii ? (6 * used + 6 + 7) / 8 : 3
            case .base256:
                func byte(_ position: Int) -> Int {
                    let pseudo = (149 * (position + 1)) % 255 + 1
                    let v = codewords[position] - pseudo
                    return v >= 0 ? v : v + 256
                }
                let d1 = byte(i)
                i += 1
                var length: Int
                if d1 == 0 {
                    length = n - i
                } else if d1 < 250 {
                    length = d1
                } else {
                    guard i < n else { return nil }
                    length = 250 * (d1 - 249) + byte(i)
                    i += 1
                }
                guard length <= n - i else { return nil }
                for _ in 0..<length {
                    segments[segments.count - 1].bytes.append(UInt8(byte(i)))
                    i += 1
                }
                mode = .ascii
            }
        }
        guard !upper else { return nil }
        segments[segments.count - 1].bytes += trailer
        bytes = segments.flatMap(\.bytes)
        if declaresCharacterSet { text = AztecText.string(segments) }
    }

    /// The three C40, Text or X12 values of the codeword pair at `i`, which moves past it; nil
    /// where the encodation returns to ASCII: an unlatch (254, passed over), or a codeword left
    /// alone at the end. An impossible pair moves `i` past the end.
    private static func triple(_ codewords: [Int], at i: inout Int) -> [Int]? {
        let n = codewords.count
        if n - i < 2 || codewords[i] == 254 {
            if i < n && codewords[i] == 254 { i += 1 }
            return nil
        }
        let value = codewords[i] << 8 + codewords[i + 1] - 1
        guard value >= 0, value < 64000 else {
            i = n + 1
            return nil
        }
        i += 2
        return [value / 1600, value / 40 % 40, value % 40]
    }
}
