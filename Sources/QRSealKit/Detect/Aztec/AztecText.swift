import FoundationEssentials
import Glibc

/// The characters of an Aztec symbol's corrected, unstuffed data bits (ISO/IEC 24778, 7.3):
/// five character tables (upper, lower, mixed, punctuation, digit) with latches and
/// one-character shifts between them, binary shift for runs of bytes, and FLG(n) for FNC1
/// and ECI designators.
struct AztecText: Equatable, Sendable {
    /// The payload: each character's byte, the bytes of binary shifts as they are, a group
    /// separator (GS, 0x1D) for each FNC1 after the first position; no ECI designator and
    /// no Structured Append header.
    var bytes: [UInt8] = []
    /// The payload as text when ECI designators name its character sets.
    var text: String?
    /// Whether an ECI designator declared a character set.
    var declaresCharacterSet = false
    /// Whether FNC1 stood in the first position: the payload is a GS1 element string.
    var isGS1 = false

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    private enum Table { case upper, lower, mixed, punct, digit }

    private enum Code {
        case bytes([UInt8])
        case latch(Table)
        case shift(Table)
        case binaryShift
        /// FLG(n), punctuation table code 0.
        case flag
    }

    private static func code(_ value: Int, in table: Table) -> Code {
        switch table {
        case .upper, .lower:
            switch value {
            case 0: return .shift(.punct)
            case 1: return .bytes([0x20])
            case 2...27: return .bytes([UInt8((table == .upper ? 65 : 97) + value - 2)])
            case 28: return table == .upper ? .latch(.lower) : .shift(.upper)
            case 29: return .latch(.mixed)
            case 30: return .latch(.digit)
            default: return .binaryShift
            }
        case .mixed:
            switch value {
            case 0: return .shift(.punct)
            case 1: return .bytes([0x20])
            case 2...14: return .bytes([UInt8(value - 1)])  // ^A … ^M
            case 15...19: return .bytes([UInt8(value + 12)])  // ^[ ^\ ^] ^^ ^_
            case 20...26: return .bytes([Array("@\\^_`|~".utf8)[value - 20]])
            case 27: return .bytes([0x7F])
            case 28: return .latch(.lower)
            case 29: return .latch(.upper)
            case 30: return .latch(.punct)
            default: return .binaryShift
            }
        case .punct:
            switch value {
            case 0: return .flag
            case 1: return .bytes([0x0D])
            case 2: return .bytes([0x0D, 0x0A])
            case 3: return .bytes(Array(". ".utf8))
            case 4: return .bytes(Array(", ".utf8))
            case 5: return .bytes(Array(": ".utf8))
            case 6...30: return .bytes([Array("!\"#$%&'()*+,-./:;<=>?[]{}".utf8)[value - 6]])
            default: return .latch(.upper)
            }
        case .digit:
            switch value {
            case 0: return .shift(.punct)
            case 1: return .bytes([0x20])
            case 2...11: return .bytes([UInt8(48 + value - 2)])
            case 12: return .bytes([UInt8(ascii: ",")])
            case 13: return .bytes([UInt8(ascii: ".")])
            case 14: return .latch(.upper)
            default: return .shift(.upper)
            }
        }
    }

    /// The characters `bits` hold, or nil when they break a rule: a reserved FLG(7), an ECI
    /// designator with a non-digit. Bits too few for a whole character at the end are the
    /// padding and are ignored.
    init?(bits: [Bool]) {
        var position = 0
        func read(_ count: Int) -> Int? {
            guard bits.count - position >= count else { return nil }
            var value = 0
            for _ in 0..<count {
                value = value << 1 | (bits[position] ? 1 : 0)
                position += 1
            }
            return value
        }
        var latched = Table.upper
        var shifted: Table?
        // Each run of bytes under one ECI (nil: the default, ISO-8859-1).
        var segments: [(eci: Int?, bytes: [UInt8])] = [(nil, [])]
        var codes = 0, startsWithAppendHeader = false, firstCodes: [Int] = []
        decoding: while true {
            let table = shifted ?? latched
            shifted = nil
            guard let value = read(table == .digit ? 4 : 5) else { break }
            codes += 1
            if codes <= 2 { firstCodes.append(value) }
            if codes == 2 { startsWithAppendHeader = firstCodes == [29, 29] && table == .mixed }
            switch Self.code(value, in: table) {
            case .bytes(let b):
                segments[segments.count - 1].bytes += b
            case .latch(let t):
                latched = t
            case .shift(let t):
                shifted = t
            case .binaryShift:
                // After the bytes, the table B/S was read in holds, even one shifted to
                // for a character (U/S B/S from digits returns to upper), as zxing-cpp
                // reads it.
                latched = table
                guard var length = read(5) else { break decoding }
                if length == 0 {
                    guard let long = read(11) else { break decoding }
                    length = long + 31
                }
                for _ in 0..<length {
                    guard let byte = read(8) else { break decoding }
                    segments[segments.count - 1].bytes.append(UInt8(byte))
                }
            case .flag:
                guard let n = read(3) else { break decoding }
                switch n {
                case 0:
                    if segments.allSatisfy({ $0.bytes.isEmpty }) && !isGS1 {
                        isGS1 = true
                    } else {
                        segments[segments.count - 1].bytes.append(GS1.groupSeparator)
                    }
                case 7:
                    return nil
                default:
                    var eci = 0
                    for _ in 0..<n {
                        guard let digit = read(4) else { break decoding }
                        guard (2...11).contains(digit) else { return nil }
                        eci = eci * 10 + digit - 2
                    }
                    segments.append((eci, []))
                    declaresCharacterSet = true
                }
            }
        }
        bytes = segments.flatMap(\.bytes)
        if startsWithAppendHeader { bytes = Self.droppingAppendHeader(bytes) }
        if declaresCharacterSet { text = Self.string(segments) }
    }

    /// `bytes` without the Structured Append header a symbol of a sequence begins with
    /// (after M/L U/L): an optional message ID between spaces, then two capitals for the
    /// symbol's position and the count.
    private static func droppingAppendHeader(_ bytes: [UInt8]) -> [UInt8] {
        var rest = bytes[...]
        if rest.first == 0x20, let end = rest.dropFirst().firstIndex(of: 0x20) { rest = rest[(end + 1)...] }
        guard rest.count >= 2, rest.prefix(2).allSatisfy({ (65...90).contains($0) }) else { return bytes }
        return Array(rest.dropFirst(2))
    }

    /// The text of runs of bytes each under its ECI (nil: the default), joined; nil when
    /// one cannot be read in its character set. Data Matrix and PDF417 use it too.
    static func string(_ segments: [(eci: Int?, bytes: [UInt8])]) -> String? {
        var decoded = ""
        for segment in segments {
            guard let part = string(segment.bytes, eci: segment.eci) else { return nil }
            decoded += part
        }
        return decoded
    }

    /// `bytes` read in the character set ECI `eci` names, for the sets Foundation has; nil
    /// (the default) is ISO-8859-1.
    static func string(_ bytes: [UInt8], eci: Int?) -> String? {
        let encoding: String.Encoding
        switch eci {
        case nil, 1, 3: encoding = .isoLatin1
        case 4: encoding = .isoLatin2
        case 20: encoding = .shiftJIS
        case 21: encoding = .windowsCP1250
        case 22: encoding = .windowsCP1251
        case 23: encoding = .windowsCP1252
        case 24: return nil
        case 25: encoding = .utf16BigEndian
        case 26: encoding = .utf8
        case 27, 170: encoding = .ascii
        case 33: encoding = .utf16LittleEndian
        case 34: encoding = .utf32BigEndian
        case 35: encoding = .utf32LittleEndian
        default: return nil
        }
        return String(bytes: bytes, encoding: encoding)
    }
}
