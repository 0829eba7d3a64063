/// The canonical decimal form of a byte string (docs/FORMAT.md, section 4.1): the bytes as one
/// big-endian number, written with exactly D(n) digits, D(n) being the digit count of 256^n − 1.
public enum Digits {
    /// The most digits one QR symbol holds (version 40, level L, one numeric segment).
    public static let maxDigits = 7089

    /// D(n): the number of digits that encodes `n` bytes.
    public static func count(forBytes n: Int) -> Int {
        precondition(n >= 0, "negative byte count")
        // ⌈n·log10(256)⌉; n·log10(256) is never an integer for n > 0, and the error of the
        // double product stays far below the distance to the next integer for any n a QR holds.
        return n == 0 ? 0 : Int((Double(n) * 2.408239965311849).rounded(.up))
    }

    /// The byte count whose digit form has `digits` digits, or nil if none has.
    public static func byteCount(forDigits digits: Int) -> Int? {
        guard digits > 0 else { return digits == 0 ? 0 : nil }
        let n = Int((Double(digits) / 2.408239965311849).rounded(.down))
        for candidate in [n, n + 1] where count(forBytes: candidate) == digits { return candidate }
        return nil
    }

    /// The digits of `bytes` as ASCII `0`–`9`.
    public static func encode(_ bytes: [UInt8]) -> [UInt8] {
        let width = count(forBytes: bytes.count)
        // Base-2^32 limbs, most significant first; repeatedly divide by 10^9.
        var limbs = limbsOf(bytes)
        var chunks: [UInt32] = []  // base 10^9, least significant first
        while !limbs.isEmpty {
            var remainder: UInt64 = 0
            for i in limbs.indices {
                let value = remainder << 32 | UInt64(limbs[i])
                limbs[i] = UInt32(value / 1_000_000_000)
                remainder = value % 1_000_000_000
            }
            chunks.append(UInt32(remainder))
            while let first = limbs.first, first == 0 { limbs.removeFirst() }
        }
        var digits: [UInt8] = []
        digits.reserveCapacity(chunks.count * 9)
        for chunk in chunks.reversed() {
            var part = [UInt8](repeating: 0x30, count: 9)
            var v = chunk
            for i in stride(from: 8, through: 0, by: -1) { part[i] = 0x30 + UInt8(v % 10); v /= 10 }
            digits += part
        }
        // Exactly `width` digits: trim the leading zeros of the 9-digit chunks, or pad.
        if digits.count > width { digits.removeFirst(digits.count - width) }
        return [UInt8](repeating: 0x30, count: width - digits.count) + digits
    }

    /// The bytes behind a canonical digit string; throws for anything else.
    public static func decode(_ digits: [UInt8]) throws(SealError) -> [UInt8] {
        guard digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
            throw .badArmor("the armor holds characters that are not digits")
        }
        // Conversion is quadratic; nothing longer than a QR symbol holds is worth it.
        guard digits.count <= maxDigits else {
            throw .badArmor("\(digits.count) digits, more than one QR code holds (\(maxDigits))")
        }
        guard let n = byteCount(forDigits: digits.count) else { throw .nonCanonicalDigits }
        // Multiply-add into base-2^32 limbs, least significant first.
        var limbs: [UInt32] = []
        var index = 0
        while index < digits.count {
            let take = min(9, digits.count - index)
            var chunk: UInt64 = 0
            var scale: UInt64 = 1
            for d in digits[index..<index + take] { chunk = chunk * 10 + UInt64(d - 0x30); scale *= 10 }
            var carry = chunk
            for i in limbs.indices {
                let value = UInt64(limbs[i]) * scale + carry
                limbs[i] = UInt32(truncatingIfNeeded: value)
                carry = value >> 32
            }
            if carry > 0 { limbs.append(UInt32(carry)) }
            index += take
        }
        var bytes: [UInt8] = []
        for limb in limbs {
            bytes += [UInt8(limb & 0xFF), UInt8(limb >> 8 & 0xFF), UInt8(limb >> 16 & 0xFF), UInt8(limb >> 24)]
        }
        while let last = bytes.last, last == 0 { bytes.removeLast() }
        // The value must be below 256^n, i.e. fit n bytes.
        guard bytes.count <= n else { throw .nonCanonicalDigits }
        return [UInt8](repeating: 0, count: n - bytes.count) + bytes.reversed()
    }

    private static func limbsOf(_ bytes: [UInt8]) -> [UInt32] {
        let padded = [UInt8](repeating: 0, count: (4 - bytes.count % 4) % 4) + bytes
        var limbs: [UInt32] = []
        for i in stride(from: 0, to: padded.count, by: 4) {
            var limb: UInt32 = 0
            for b in padded[i..<i + 4] { limb = limb << 8 | UInt32(b) }
            limbs.append(limb)
        }
        while let first = limbs.first, first == 0 { limbs.removeFirst() }
        return limbs
    }
}
