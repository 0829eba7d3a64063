// The few string forms the package needs that only Foundation's full framework offered
// (`trimmingCharacters(in:)`, `String(format:)`): linking it for these would bring its 34 MB
// of ICU data into every binary (see Threads.swift).

extension StringProtocol {
    /// Without spaces and tabs at either end (Unicode's space separators count).
    public func trimmingSpaces() -> String {
        trimming { $0 == "\t" || $0.properties.generalCategory == .spaceSeparator }
    }

    /// Without white space, line breaks included, at either end.
    public func trimmingWhitespace() -> String {
        trimming { $0.properties.isWhitespace }
    }

    /// Exactly `width` characters: spaces added at the end, or the end cut off.
    public func padded(to width: Int) -> String {
        count >= width ? String(prefix(width)) : String(self) + String(repeating: " ", count: width - count)
    }

    private func trimming(_ drop: (Unicode.Scalar) -> Bool) -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !drop($0) }),
              let last = scalars.lastIndex(where: { !drop($0) }) else { return "" }
        return String(String.UnicodeScalarView(scalars[first...last]))
    }
}

extension Unicode.Scalar {
    /// A letter, a mark or a number (Unicode's L, M and N categories), as Foundation's
    /// `CharacterSet.alphanumerics` has it.
    public var isAlphanumeric: Bool {
        switch properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
             .nonspacingMark, .spacingMark, .enclosingMark,
             .decimalNumber, .letterNumber, .otherNumber: true
        default: false
        }
    }
}

/// Numbers and bytes as people read them.
public enum NumberText {
    /// A number as briefly as it is exact: `2` for 2.0, `2.5`, `0.1`.
    public static func brief(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }

    /// A number to one decimal place: `1.5`, `12.0`.
    public static func oneDecimal(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return (tenths < 0 ? "-" : "") + "\(abs(tenths) / 10).\(abs(tenths) % 10)"
    }

    /// Bytes as lower-case hexadecimal pairs, `separator` between them.
    public static func hex<S: Sequence<UInt8>>(_ bytes: S, separator: String = "") -> String {
        let digits = Array("0123456789abcdef".unicodeScalars)
        return bytes.map { byte in
            var pair = String.UnicodeScalarView()
            pair.append(digits[Int(byte >> 4)])
            pair.append(digits[Int(byte & 15)])
            return String(pair)
        }.joined(separator: separator)
    }
}
