import FoundationEssentials
import Glibc

/// Turns a symbol's bytes into text the way the QR standard allows, or says they are not text.
///
/// The engines hand us raw bytes (zbar's own character-set guessing is off). Without an
/// ECI designator, a QR byte segment is by convention UTF-8; older encoders wrote
/// Shift_JIS (JIS X 0208), and ISO/IEC 18004 names ISO-8859-1 as the default.
public enum TextDecoding {
    /// The text `bytes` hold: UTF-8 if valid, else Shift_JIS if valid and it uses Japanese
    /// characters, else ISO-8859-1 if every byte is a printable Latin-1 character; nil for
    /// anything else (binary data).
    public static func text(from bytes: [UInt8]) -> String? {
        if let utf8 = String(validating: bytes, as: UTF8.self) {
            return utf8.unicodeScalars.contains(where: { $0.value == 0 }) ? nil : utf8
        }
        guard !bytes.contains(where: isControl) else { return nil }
        if looksLikeShiftJIS(bytes), let sjis = String(bytes: bytes, encoding: .shiftJIS) {
            return sjis
        }
        if bytes.allSatisfy({ $0 < 0x7F || $0 >= 0xA0 }) {
            return String(bytes.map { Character(Unicode.Scalar($0)) })
        }
        return nil
    }

    /// The text `bytes` hold, taking `engineReading` when the engine read the character set
    /// from the symbol itself (an ECI designator, or a Hanzi segment for GB 2312) rather
    /// than guessing it as we do: that is, when `declared` is set, or when the engine's
    /// text is none of the readings a guess could give (UTF-8, Shift_JIS, ISO-8859-1).
    static func text(from bytes: [UInt8], engineReading: String?, declared: Bool) -> String? {
        guard let reading = engineReading, !reading.isEmpty || bytes.isEmpty,
              !reading.unicodeScalars.contains(where: { $0.value == 0 || $0.value == 0xFFFD }) else {
            return text(from: bytes)
        }
        if declared { return reading }
        let guesses = [String(validating: bytes, as: UTF8.self), String(bytes: bytes, encoding: .shiftJIS),
                       String(bytes.map { Character(Unicode.Scalar($0)) })]
        return guesses.contains(reading) ? text(from: bytes) : reading
    }

    private static func isControl(_ b: UInt8) -> Bool {
        b < 0x20 && b != 0x09 && b != 0x0A && b != 0x0D
    }

    /// Whether `bytes` parse as Shift_JIS with at least one double-byte or half-width
    /// katakana character and no invalid sequence.
    static func looksLikeShiftJIS(_ bytes: [UInt8]) -> Bool {
        var i = 0
        var japanese = false
        while i < bytes.count {
            let b = bytes[i]
            switch b {
            case 0x00...0x7F:
                i += 1
            case 0xA1...0xDF:  // half-width katakana
                japanese = true
                i += 1
            case 0x81...0x9F, 0xE0...0xEF:
                guard i + 1 < bytes.count else { return false }
                let t = bytes[i + 1]
                guard (0x40...0x7E).contains(t) || (0x80...0xFC).contains(t) else { return false }
                japanese = true
                i += 2
            default:
                return false
            }
        }
        return japanese
    }
}
