/// The data segments QR Code's family shares, each read from a bit stream given its
/// character count: numeric, alphanumeric, 8-bit byte and Kanji (ISO/IEC 18004, 7.4.3 to
/// 7.4.6). QR Code Model 1 (`QRModel1`) and rMQR (`RMQRSymbol`) write them alike and differ
/// only in their mode indicators and the lengths of their character counts. Each gives nil
/// for what no encoder writes: digits or characters out of range, a segment longer than
/// the stream.
enum QRSegments {
    /// The 45 characters of alphanumeric mode by value.
    static let alphanumeric = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:".utf8)

    /// `count` digits, three to 10 bits, a last two to 7 bits and a last one to 4.
    static func numeric(_ bits: inout BitStream, count: Int) -> [UInt8]? {
        var bytes: [UInt8] = [], count = count
        while count > 0 {
            let digits = min(count, 3)
            guard let value = bits.read(3 * digits + 1), value < [0, 10, 100, 1000][digits] else { return nil }
            var text = String(value)
            while text.count < digits { text = "0" + text }
            bytes += Array(text.utf8)
            count -= digits
        }
        return bytes
    }

    /// `count` characters, two to 11 bits and a last one to 6.
    static func alphanumeric(_ bits: inout BitStream, count: Int) -> [UInt8]? {
        var bytes: [UInt8] = [], count = count
        while count > 0 {
            if count == 1 {
                guard let value = bits.read(6), value < 45 else { return nil }
                bytes.append(alphanumeric[value])
                count = 0
            } else {
                guard let value = bits.read(11), value < 45 * 45 else { return nil }
                bytes += [alphanumeric[value / 45], alphanumeric[value % 45]]
                count -= 2
            }
        }
        return bytes
    }

    /// `count` bytes of 8 bits.
    static func bytes(_ bits: inout BitStream, count: Int) -> [UInt8]? {
        var bytes: [UInt8] = []
        for _ in 0..<count {
            guard let byte = bits.read(8) else { return nil }
            bytes.append(UInt8(byte))
        }
        return bytes
    }

    /// `count` Kanji characters of 13 bits, as their Shift_JIS bytes (as zxing-cpp gives them).
    static func kanji(_ bits: inout BitStream, count: Int) -> [UInt8]? {
        var bytes: [UInt8] = []
        for _ in 0..<count {
            guard let value = bits.read(13) else { return nil }
            // 0xC0 × (lead − 0x81 or 0xC1) + (trail − 0x40), as Model 2 counts them.
            let assembled = (value / 0xC0) << 8 | value % 0xC0
            let code = assembled + (assembled < 0x1F00 ? 0x8140 : 0xC140), trail = code & 0xFF
            guard trail != 0x7F, trail <= 0xFC else { return nil }
            bytes += [UInt8(code >> 8), UInt8(trail)]
        }
        return bytes
    }
}

/// Bits of a byte array, most significant first.
struct BitStream {
    private let bytes: [UInt8]
    private var position = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var remaining: Int { bytes.count * 8 - position }

    /// The next `count` bits (at most 24) as a number, or nil when fewer remain.
    mutating func read(_ count: Int) -> Int? {
        guard count <= remaining, count <= 24 else { return nil }
        var value = 0
        for _ in 0..<count {
            value = value << 1 | Int(bytes[position / 8] >> (7 - position % 8) & 1)
            position += 1
        }
        return value
    }
}
