/// What a sealed message carries: text, or a file with its name.
public enum Payload: Equatable, Sendable {
    case text(String)
    /// A file; `name` is its last path component, or empty when the sender gave none.
    case file(name: String, bytes: [UInt8])

    /// The content's bytes, without the name.
    public var content: [UInt8] {
        switch self {
        case .text(let s): return Array(s.utf8)
        case .file(_, let bytes): return bytes
        }
    }
}

/// The inner plaintext (docs/FORMAT.md, section 3): flags, optional name, body.
enum InnerPlaintext {
    static let fileFlag: UInt8 = 0x01
    static let compressedFlag: UInt8 = 0x02

    /// Serialises `payload`, compressing the body when that makes it smaller; compression
    /// gives up once its output passes `compressedLimit` bytes.
    static func encode(_ payload: Payload, compress: Bool, compressedLimit: Int = .max) throws(SealError) -> [UInt8] {
        var flags: UInt8 = 0
        var head: [UInt8] = []
        if case .file(let name, _) = payload {
            flags |= fileFlag
            let nameBytes = Array(safeName(name).utf8)
            guard nameBytes.count <= 255 else { throw .malformed("file name longer than 255 bytes") }
            head = [UInt8(nameBytes.count)] + nameBytes
        }
        var body = payload.content
        if compress, let smaller = Compression.compress(body, text: flags & fileFlag == 0,
                                                         limit: min(compressedLimit, body.count - 1)) {
            body = smaller
            flags |= compressedFlag
        }
        return [flags] + head + body
    }

    /// Parses and checks an authenticated inner plaintext.
    static func decode(_ bytes: [UInt8], maxContent: Int) throws(SealError) -> Payload {
        guard let flags = bytes.first else { throw .malformed("empty plaintext (no inner header)") }
        guard flags & ~(fileFlag | compressedFlag) == 0 else {
            throw .malformed("unknown inner flags 0x\(String(flags, radix: 16))")
        }
        var offset = 1
        var name: String?
        if flags & fileFlag != 0 {
            guard bytes.count >= 2 else { throw .malformed("file name length missing") }
            let length = Int(bytes[1])
            guard bytes.count >= 2 + length else { throw .malformed("file name runs past the end") }
            let raw = Array(bytes[2..<2 + length])
            guard let decoded = String(validating: raw, as: UTF8.self) else {
                throw .malformed("file name is not UTF-8")
            }
            guard isSafeName(decoded) else { throw .malformed("unsafe file name \"\(DisplayText.escape(decoded))\"") }
            name = decoded
            offset = 2 + length
        }
        var body = Array(bytes[offset...])
        if flags & compressedFlag != 0 {
            body = try Compression.decompress(body, limit: maxContent)
        } else if body.count > maxContent {
            throw .contentTooLarge(limit: maxContent)
        }
        if let name { return .file(name: name, bytes: body) }
        guard let text = String(validating: body, as: UTF8.self) else {
            throw .malformed("text content is not UTF-8")
        }
        return .text(text)
    }

    /// A name may be empty; otherwise no path separators, not . or .., and none of the
    /// characters the format lists as showing as something else on a terminal
    /// (`DisplayText.isFormatControl`): no C0 or C1 controls, DEL, bidirectional or invisible
    /// format characters, nor the private-use scalars that stand for raw bytes. The list is
    /// the format's, fixed: what the display escapes beyond it (a soft hyphen, say) is made
    /// safe where a file is saved, and does not make a valid message invalid.
    static func isSafeName(_ name: String) -> Bool {
        if name.isEmpty { return true }
        if name == "." || name == ".." { return false }
        return !name.unicodeScalars.contains { $0 == "/" || $0 == "\\" || isRefusedInName($0) }
    }

    /// A C0 control, DEL, a format control (`DisplayText.isFormatControl`) or a raw byte.
    static func isRefusedInName(_ s: Unicode.Scalar) -> Bool {
        s.value < 0x20 || s.value == 0x7F || DisplayText.isFormatControl(s) || RawBytes.byte(of: s) != nil
    }

    /// The last path component of `name`, reduced to a safe name (empty if nothing is left):
    /// raw bytes become U+FFFD, other characters a reader refuses are dropped.
    static func safeName(_ name: String) -> String {
        let last = name.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last.map(String.init) ?? ""
        let cleaned = String(String.UnicodeScalarView(last.unicodeScalars.compactMap { scalar in
            RawBytes.byte(of: scalar) != nil ? "\u{FFFD}" : isRefusedInName(scalar) ? nil : scalar
        }))
        var bytes = Array(cleaned.utf8.prefix(255))
        while String(validating: bytes, as: UTF8.self) == nil { bytes.removeLast() }
        let result = String(decoding: bytes, as: UTF8.self)
        return isSafeName(result) ? result : ""
    }
}
