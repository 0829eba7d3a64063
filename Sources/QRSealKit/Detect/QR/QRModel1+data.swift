extension QRModel1 {
    /// The payload of a Model 1 data bit stream (its corrected data codewords): four zero
    /// bits, then segments, each a 4-bit mode and a character count, up to the terminator
    /// (0000) or the end. Numeric, alphanumeric, 8-bit byte and Kanji segments, and a
    /// Structured Append header; Kanji characters become their Shift_JIS bytes, as zxing-cpp
    /// gives them for Model 2. Nil for a stream no encoder writes: an ECI or other unknown
    /// mode, digits or characters out of range, a segment longer than the stream.
    static func payload(_ data: [UInt8], version: Int) -> Read? {
        var bits = BitStream(data)
        guard bits.read(4) == 0 else { return nil }
        // Character count bits, versions 1 to 9 and 10 to 14 (as Model 2's).
        let small = version <= 9
        var bytes: [UInt8] = []
        var structuredAppend: StructuredAppend?
        let alphanumeric = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:".utf8)
        while bits.remaining >= 4 {
            guard let mode = bits.read(4) else { return nil }
            switch mode {
            case 0:
                return Read(bytes: bytes, version: version, level: .low, structuredAppend: structuredAppend)
            case 1:
                guard var count = bits.read(small ? 10 : 12) else { return nil }
                while count > 0 {
                    let digits = min(count, 3)
                    guard let value = bits.read(3 * digits + 1), value < [0, 10, 100, 1000][digits] else { return nil }
                    var text = String(value)
                    while text.count < digits { text = "0" + text }
                    bytes += Array(text.utf8)
                    count -= digits
                }
            case 2:
                guard var count = bits.read(small ? 9 : 11) else { return nil }
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
            case 3:
                guard structuredAppend == nil, bytes.isEmpty, let index = bits.read(4), let total = bits.read(4),
                      let parity = bits.read(8), index <= total else { return nil }
                structuredAppend = StructuredAppend(index: index, count: total + 1, parity: parity)
            case 4:
                guard let count = bits.read(small ? 8 : 16) else { return nil }
                for _ in 0..<count {
                    guard let byte = bits.read(8) else { return nil }
                    bytes.append(UInt8(byte))
                }
            case 8:
                guard let count = bits.read(small ? 8 : 10) else { return nil }
                for _ in 0..<count {
                    guard let value = bits.read(13) else { return nil }
                    // 0xC0 × (lead − 0x81 or 0xC1) + (trail − 0x40), as Model 2 counts them.
                    let assembled = (value / 0xC0) << 8 | value % 0xC0
                    let code = assembled + (assembled < 0x1F00 ? 0x8140 : 0xC140), trail = code & 0xFF
                    guard trail != 0x7F, trail <= 0xFC else { return nil }
                    bytes += [UInt8(code >> 8), UInt8(trail)]
                }
            default:
                return nil
            }
        }
        return Read(bytes: bytes, version: version, level: .low, structuredAppend: structuredAppend)
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
