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
        while bits.remaining >= 4 {
            guard let mode = bits.read(4) else { return nil }
            let segment: [UInt8]?
            switch mode {
            case 0:
                return Read(bytes: bytes, version: version, level: .low, structuredAppend: structuredAppend)
            case 1:
                segment = bits.read(small ? 10 : 12).flatMap { QRSegments.numeric(&bits, count: $0) }
            case 2:
                segment = bits.read(small ? 9 : 11).flatMap { QRSegments.alphanumeric(&bits, count: $0) }
            case 3:
                guard structuredAppend == nil, bytes.isEmpty, let index = bits.read(4), let total = bits.read(4),
                      let parity = bits.read(8), index <= total else { return nil }
                structuredAppend = StructuredAppend(index: index, count: total + 1, parity: parity)
                segment = []
            case 4:
                segment = bits.read(small ? 8 : 16).flatMap { QRSegments.bytes(&bits, count: $0) }
            case 8:
                segment = bits.read(small ? 8 : 10).flatMap { QRSegments.kanji(&bits, count: $0) }
            default:
                return nil
            }
            guard let segment else { return nil }
            bytes += segment
        }
        return Read(bytes: bytes, version: version, level: .low, structuredAppend: structuredAppend)
    }
}
