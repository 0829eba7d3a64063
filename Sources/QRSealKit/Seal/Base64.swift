/// RFC 4648 base64 (standard alphabet) in the strict forms age needs: without padding in the
/// header, with padding in the armor, and in both only the one canonical encoding of the bytes
/// (the unused low bits of the last character zero).
enum Base64 {
    static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    static let values: [Int8] = {
        var table = [Int8](repeating: -1, count: 256)
        for (i, c) in alphabet.enumerated() { table[Int(c)] = Int8(i) }
        return table
    }()

    static func encode(_ bytes: [UInt8], padded: Bool) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var i = 0
        while i < bytes.count {
            let n = min(3, bytes.count - i)
            let chunk = Int(bytes[i]) << 16 | (n > 1 ? Int(bytes[i + 1]) << 8 : 0) | (n > 2 ? Int(bytes[i + 2]) : 0)
            for j in 0..<(n + 1) { out.append(alphabet[(chunk >> (18 - 6 * j)) & 63]) }
            if padded { out += [UInt8](repeating: UInt8(ascii: "="), count: 3 - n) }
            i += 3
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The bytes of canonical base64; nil for any other character, wrong padding (required when
    /// `padded`, refused otherwise), a length no encoding has, or non-zero unused bits.
    static func decode<C: Collection<UInt8>>(_ text: C, padded: Bool) -> [UInt8]? {
        var chars = Array(text)
        if padded {
            guard chars.count % 4 == 0 else { return nil }
            // Up to two '='; a third or one inside is not an alphabet character below.
            if chars.last == UInt8(ascii: "=") { chars.removeLast() }
            if chars.last == UInt8(ascii: "=") { chars.removeLast() }
        }
        guard chars.count % 4 != 1 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(chars.count * 3 / 4)
        var acc = 0, bits = 0
        for c in chars {
            let v = values[Int(c)]
            guard v >= 0 else { return nil }
            acc = (acc << 6 | Int(v)) & 0xFFFFFF
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8((acc >> bits) & 0xFF))
            }
        }
        guard acc & ((1 << bits) - 1) == 0 else { return nil }
        return out
    }
}
