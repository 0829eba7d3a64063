/// age's ASCII armor (C2SP age.md, "ASCII armor"): the binary file in padded base64, 64
/// columns a line, between `-----BEGIN AGE ENCRYPTED FILE-----` and `-----END …-----`.
/// Reading is strict, as the spec asks: white space only outside the armor, LF or CRLF line
/// ends, every line full but the last, canonical padded base64, nothing after the end line.
public enum AgeArmor {
    static let begin = Array("-----BEGIN AGE ENCRYPTED FILE-----".utf8)
    static let end = Array("-----END AGE ENCRYPTED FILE-----".utf8)
    /// Armored text longer than this is refused before it is decoded.
    public static let maxLength = 64 << 20

    static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || (0x09...0x0D).contains(b) }

    /// Whether `bytes` start (after white space) with the begin line.
    public static func isArmored(_ bytes: [UInt8]) -> Bool {
        bytes.drop(while: isSpace).starts(with: begin)
    }

    /// The armor of `binary`, with LF line ends and a final line break.
    public static func encode(_ binary: [UInt8]) -> String {
        let text = Base64.encode(binary, padded: true)
        var lines = [String(decoding: begin, as: UTF8.self)]
        var rest = Substring(text)
        while !rest.isEmpty {
            lines.append(String(rest.prefix(64)))
            rest = rest.dropFirst(64)
        }
        lines.append(String(decoding: end, as: UTF8.self))
        return lines.joined(separator: "\n") + "\n"
    }

    /// The binary file inside the armor.
    public static func decode(_ bytes: [UInt8]) throws(SealError) -> [UInt8] {
        guard bytes.count <= maxLength else { throw .ageArmor("longer than \(maxLength >> 20) MiB") }
        var i = bytes.firstIndex { !isSpace($0) } ?? bytes.endIndex
        /// The line from i to its LF (a CR just before the LF is the line end's, not the line's).
        func line() throws(SealError) -> ArraySlice<UInt8>? {
            guard i < bytes.count else { return nil }
            guard let lf = bytes[i...].firstIndex(of: 0x0A) else {
                defer { i = bytes.count }
                return bytes[i...]
            }
            defer { i = lf + 1 }
            return lf > i && bytes[lf - 1] == 0x0D ? bytes[i..<(lf - 1)] : bytes[i..<lf]
        }
        guard let first = try line(), first.elementsEqual(begin), i <= bytes.count, bytes[..<i].last == 0x0A else {
            throw .ageArmor("it does not start with the line \(String(decoding: begin, as: UTF8.self))")
        }
        var out: [UInt8] = []
        var sawShort = false
        while true {
            guard let text = try line() else { throw .ageArmor("the end line is missing") }
            if text.elementsEqual(end) { break }
            guard !sawShort else { throw .ageArmor("a line shorter than 64 columns is not the last") }
            guard !text.isEmpty else { throw .ageArmor("an empty line inside the armor") }
            guard text.count <= 64 else { throw .ageArmor("a line is longer than 64 columns") }
            if text.count < 64 { sawShort = true }
            guard let decoded = Base64.decode(text, padded: true) else {
                throw .ageArmor("a line is not canonical, padded base64")
            }
            out += decoded
            // Padding ends the data: only the end line may follow.
            if text.last == UInt8(ascii: "=") { sawShort = true }
        }
        guard bytes[i...].allSatisfy(isSpace) else { throw .ageArmor("there is text after the end line") }
        return out
    }
}
