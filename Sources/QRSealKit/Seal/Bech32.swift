/// Bech32 (BIP-173) as age uses it: the checksum of BIP-173 (not Bech32m), data bytes packed
/// into 5-bit groups, and no 90-character limit (age lifts it for long plugin keys; this reader
/// stops at `maxLength` instead).
enum Bech32 {
    static let charset = Array("qpzry9x8gf2tvdw0s3jn54khce6mua7l".utf8)
    static let maxLength = 2048

    /// Why a string is not Bech32; each text says what is wrong, for a person.
    enum Failure: Error, Equatable {
        case tooLong, mixedCase, badCharacter, noSeparator, tooShort, badChecksum, badPadding

        var reason: String {
            switch self {
            case .tooLong: return "longer than \(maxLength) characters"
            case .mixedCase: return "it mixes upper and lower case"
            case .badCharacter: return "it holds a character Bech32 does not use"
            case .noSeparator: return "it has no '1' between its prefix and its data"
            case .tooShort: return "too short for a checksum"
            case .badChecksum: return "checksum mismatch (mistyped or damaged)"
            case .badPadding: return "its last bits are not zero padding"
            }
        }
    }

    /// `hrp` and `data` in Bech32, lower case.
    static func encode(hrp: String, data: [UInt8]) -> String {
        let hrpBytes = Array(hrp.lowercased().utf8)
        let values = regroup(data, from: 8, to: 5, pad: true)!
        let checksum = Self.checksum(hrp: hrpBytes, values: values)
        return String(decoding: hrpBytes + [UInt8(ascii: "1")] + (values + checksum).map { charset[Int($0)] },
                      as: UTF8.self)
    }

    /// The human-readable part (lower case) and data bytes of `text`.
    static func decode(_ text: String) throws(Failure) -> (hrp: String, data: [UInt8]) {
        let bytes = Array(text.utf8)
        guard bytes.count <= maxLength else { throw .tooLong }
        guard bytes.allSatisfy({ (33...126).contains($0) }) else { throw .badCharacter }
        let hasLower = bytes.contains { (0x61...0x7A).contains($0) }, hasUpper = bytes.contains { (0x41...0x5A).contains($0) }
        guard !(hasLower && hasUpper) else { throw .mixedCase }
        let lower = bytes.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }
        guard let separator = lower.lastIndex(of: UInt8(ascii: "1")), separator > 0 else { throw .noSeparator }
        let hrp = Array(lower[..<separator])
        let rest = lower[(separator + 1)...]
        guard rest.count >= 6 else { throw .tooShort }
        var values: [UInt8] = []
        for c in rest {
            guard let v = charset.firstIndex(of: c) else { throw .badCharacter }
            values.append(UInt8(v))
        }
        guard polymod(expand(hrp) + values) == 1 else { throw .badChecksum }
        guard let data = regroup(Array(values.dropLast(6)), from: 5, to: 8, pad: false) else { throw .badPadding }
        return (String(decoding: hrp, as: UTF8.self), data)
    }

    private static func checksum(hrp: [UInt8], values: [UInt8]) -> [UInt8] {
        let mod = polymod(expand(hrp) + values + [0, 0, 0, 0, 0, 0]) ^ 1
        return (0..<6).map { UInt8((mod >> (5 * (5 - $0))) & 31) }
    }

    private static func expand(_ hrp: [UInt8]) -> [UInt8] {
        hrp.map { $0 >> 5 } + [0] + hrp.map { $0 & 31 }
    }

    private static func polymod(_ values: [UInt8]) -> UInt32 {
        let generator: [UInt32] = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3]
        var chk: UInt32 = 1
        for v in values {
            let top = chk >> 25
            chk = (chk & 0x1ffffff) << 5 ^ UInt32(v)
            for i in 0..<5 where (top >> UInt32(i)) & 1 == 1 { chk ^= generator[i] }
        }
        return chk
    }

    /// Regroups bits; when not padding, leftover bits must be fewer than `from` and zero.
    private static func regroup(_ data: [UInt8], from: Int, to: Int, pad: Bool) -> [UInt8]? {
        var acc = 0, bits = 0, out: [UInt8] = []
        let maxValue = (1 << to) - 1
        for value in data {
            acc = (acc << from | Int(value)) & 0xFFFF
            bits += from
            while bits >= to {
                bits -= to
                out.append(UInt8((acc >> bits) & maxValue))
            }
        }
        if pad {
            if bits > 0 { out.append(UInt8((acc << (to - bits)) & maxValue)) }
        } else if bits >= from || (acc << (to - bits)) & maxValue != 0 {
            return nil
        }
        return out
    }
}
