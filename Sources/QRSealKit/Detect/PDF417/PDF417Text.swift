import FoundationEssentials
import Glibc

/// The payload of PDF417 and MicroPDF417 data codewords (ISO/IEC 15438, 5.4; ISO/IEC 24728,
/// 5.4): Text Compaction (four sub-modes with latches and shifts, two characters a
/// codeword), Byte Compaction (six bytes in five codewords, or one a codeword), Numeric
/// Compaction (base 900 to base 10) and ECI designators. A Macro PDF417 control block ends
/// the data (Structured Append is not reported); Code 128 emulation flags a MicroPDF417
/// may begin with are passed over, and its linked (composite) modes are refused.
struct PDF417Text: Equatable, Sendable {
    /// The payload: the characters' and bytes' values, no ECI designator.
    var bytes: [UInt8] = []
    /// The payload as text when ECI designators name its character sets.
    var text: String?
    /// Whether an ECI designator declared a character set.
    var declaresCharacterSet = false

    // Mode codewords (ISO/IEC 15438, 5.4.1, Table 4; ISO/IEC 24728, 5.4.1).
    static let textLatch = 900, byteLatch = 901, numericLatch = 902, byteShift = 913, byteLatchSix = 924
    static let eciUser = 925, eciGeneral = 926, eciCharacterSet = 927, macroControl = 928
    static let readerInit = 921, linkageOther = 918, linkageGS1 = 920

    private enum SubMode { case alpha, lower, mixed, punct }

    // The Text Compaction sub-modes' characters, values 0 … 28 (ISO/IEC 15438, Table 2); −1
    // marks a latch or shift, handled apart. Value 29 shifts to (or, in punctuation, latches
    // back from) a sub-mode in each.
    private static let mixed: [Int] = Array("0123456789&\r\t,:#-.$/+%*=^".utf8).map(Int.init) + [-1, 32, -1, -1]
    private static let punct: [Int] = Array(";<>@[\\]_`~!\r\t,:\n-.$/\"|*()?{}'".utf8).map(Int.init)

    /// The payload of `codewords` (data codewords only, the length descriptor of a PDF417
    /// left out); nil when they break a rule (a reserved codeword, a value out of range).
    init?(codewords: [Int]) {
        var segments: [(eci: Int?, bytes: [UInt8])] = [(nil, [])]
        func append(_ b: Int) { segments[segments.count - 1].bytes.append(UInt8(truncatingIfNeeded: b)) }
        var i = 0
        let n = codewords.count
        // A MicroPDF417 may open with a flag for Code 128 emulation (908 … 911), passed over;
        // the linked modes (903 … 907, 912, 914, 915) need their companion symbol.
        if let first = codewords.first {
            if (908...911).contains(first) { i = 1 }
            if (903...907).contains(first) || [912, 914, 915].contains(first) { return nil }
        }
        var mode = Self.textLatch
        var sub = SubMode.alpha
        loop: while i < n {
            let c = codewords[i]
            switch c {
            case Self.textLatch:
                mode = c
                sub = .alpha
                i += 1
            case Self.byteLatch, Self.byteLatchSix, Self.numericLatch:
                mode = c
                i += 1
            case Self.byteShift:
                guard i + 1 < n, codewords[i + 1] < 256 else { return nil }
                append(codewords[i + 1])
                i += 2
            case Self.eciCharacterSet, Self.eciGeneral, Self.eciUser:
                let words = c == Self.eciGeneral ? 2 : 1
                guard i + words < n, codewords[(i + 1)...(i + words)].allSatisfy({ $0 < 900 }) else { return nil }
                let eci = c == Self.eciCharacterSet ? codewords[i + 1]
                    : c == Self.eciGeneral ? 900 * (codewords[i + 1] + 1) + codewords[i + 2]
                    : 810_900 + codewords[i + 1]
                segments.append((eci, []))
                declaresCharacterSet = true
                i += 1 + words
            case Self.macroControl:
                break loop
            case Self.readerInit, Self.linkageOther, Self.linkageGS1:
                i += 1
            case 900...:
                return nil
            default:
                // A run of data codewords in the current mode, up to the next mode codeword.
                var end = i
                while end < n && codewords[end] < 900 { end += 1 }
                let run = Array(codewords[i..<end])
                switch mode {
                case Self.numericLatch:
                    guard let digits = Self.numeric(run) else { return nil }
                    digits.forEach { append(Int($0)) }
                case Self.byteLatch, Self.byteLatchSix:
                    guard let bytes = Self.bytes(run, sixes: mode == Self.byteLatchSix) else { return nil }
                    bytes.forEach { append(Int($0)) }
                default:
                    // A byte shift inside text keeps the sub-mode: the run may stop before it.
                    sub = Self.text(run, from: sub, append: append)
                }
                i = end
            }
        }
        bytes = segments.flatMap(\.bytes)
        if declaresCharacterSet { text = AztecText.string(segments) }
    }

    /// The characters of Text Compaction codewords `run` (each two values, 30 · h + l),
    /// starting in `sub`; returns the sub-mode it ends in.
    private static func text(_ run: [Int], from start: SubMode, append: (Int) -> Void) -> SubMode {
        var sub = start
        var shifted: SubMode? = nil
        let values = run.flatMap { [$0 / 30, $0 % 30] }
        for v in values {
            let current = shifted ?? sub
            shifted = nil
            switch current {
            case .alpha, .lower:
                switch v {
                case 0..<26: append((current == .alpha ? 65 : 97) + v)
                case 26: append(32)
                case 27: if current == .alpha { sub = .lower } else { shifted = .alpha }
                case 28: sub = .mixed
                default: shifted = .punct
                }
            case .mixed:
                switch v {
                case 25: sub = .punct
                case 27: sub = .lower
                case 28: sub = .alpha
                case 29: shifted = .punct
                default: append(mixed[v])
                }
            case .punct:
                if v == 29 { sub = .alpha } else { append(punct[v]) }
            }
        }
        return sub
    }

    /// Byte Compaction: each five codewords are six bytes (base 900 to base 256) when more
    /// follow them, or whenever the latch was 924 (`sixes`: a multiple of six bytes); those
    /// left at the end are a byte each. Nil when a value is more than its bytes hold.
    private static func bytes(_ run: [Int], sixes: Bool) -> [UInt8]? {
        var out: [UInt8] = []
        var i = 0
        while i < run.count {
            if run.count - i > 5 || (sixes && run.count - i == 5) {
                var value: UInt64 = 0
                for c in run[i..<(i + 5)] { value = value * 900 + UInt64(c) }
                guard value < 1 << 48 else { return nil }
                for k in (0..<6).reversed() { out.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(k)))) }
                i += 5
            } else {
                guard run[i] < 256 else { return nil }
                out.append(UInt8(run[i]))
                i += 1
            }
        }
        return out
    }

    /// Numeric Compaction: each group of up to 15 codewords is a number in base 900 whose
    /// decimal digits, after a leading 1, are the characters. Nil when a group has no
    /// leading 1.
    private static func numeric(_ run: [Int]) -> [UInt8]? {
        var out: [UInt8] = []
        var start = 0
        while start < run.count {
            let group = run[start..<min(start + 15, run.count)]
            // The number in base 10⁹ limbs, least significant first.
            var limbs: [UInt64] = [0]
            for c in group {
                var carry = UInt64(c)
                for k in limbs.indices {
                    let v = limbs[k] * 900 + carry
                    limbs[k] = v % 1_000_000_000
                    carry = v / 1_000_000_000
                }
                if carry > 0 { limbs.append(carry) }
            }
            var digits = String(limbs.last ?? 0)
            for limb in limbs.dropLast().reversed() {
                let s = String(limb)
                digits += String(repeating: "0", count: 9 - s.count) + s
            }
            guard digits.first == "1" else { return nil }
            out += Array(digits.utf8.dropFirst())
            start += 15
        }
        return out
    }
}
