extension ImageDecoder {
    /// Decodes a Netpbm graymap or pixmap (P2, P3, P5, P6) to grayscale, in pure Swift.
    ///
    /// Samples are scaled from `0...maxval` to `0...255`, rounding to nearest; binary files
    /// with a maxval above 255 hold 16-bit big-endian samples. Colour is reduced to luma
    /// with the ITU-R BT.601 weights (299 R + 587 G + 114 B) / 1000, rounded.
    func decodePNM(_ bytes: [UInt8]) throws(RasterError) -> GrayImage {
        var reader = PNMReader(bytes: bytes)
        let header = try reader.header()
        try checkSize(width: header.width, height: header.height)
        let count = header.width * header.height
        let channels = header.color ? 3 : 1
        // Checked before allocating, so a few bytes declaring a huge image cost nothing.
        try reader.requireRoom(samples: count * channels, maxval: header.maxval, binary: header.binary)

        // A table maps every possible sample once instead of dividing per pixel.
        let maxval = header.maxval
        let scale = (0...maxval).map { UInt8((($0 * 255) + maxval / 2) / maxval) }
        if header.binary, !header.color, maxval <= 255 {
            // The common P5 case: one byte per pixel, mapped in a single pass.
            let samples = reader.remainingBytes.prefix(count)
            if let bad = samples.first(where: { Int($0) > maxval }) {
                throw .damaged(format: "PNM", reason: "sample \(bad) above maxval \(maxval)")
            }
            let pixels = samples.map { scale[Int($0)] }
            return GrayImage(width: header.width, height: header.height, pixels: pixels)
        }
        var pixels = [UInt8](repeating: 0, count: count)
        for index in 0..<count {
            if header.color {
                let r = Int(scale[try reader.sample(maxval: maxval, binary: header.binary)])
                let g = Int(scale[try reader.sample(maxval: maxval, binary: header.binary)])
                let b = Int(scale[try reader.sample(maxval: maxval, binary: header.binary)])
                pixels[index] = UInt8((299 * r + 587 * g + 114 * b + 500) / 1000)
            } else {
                pixels[index] = scale[try reader.sample(maxval: maxval, binary: header.binary)]
            }
        }
        return GrayImage(width: header.width, height: header.height, pixels: pixels)
    }
}

/// What a PNM header declares.
private struct PNMHeader {
    var binary: Bool
    var color: Bool
    var width: Int
    var height: Int
    var maxval: Int
}

/// A cursor over the bytes of one PNM file; every read is checked against the end.
private struct PNMReader {
    let bytes: [UInt8]
    var position = 0

    init(bytes: [UInt8]) { self.bytes = bytes }

    private static func damaged(_ reason: String) -> RasterError {
        .damaged(format: "PNM", reason: reason)
    }

    mutating func header() throws(RasterError) -> PNMHeader {
        guard bytes.count >= 2, bytes[0] == UInt8(ascii: "P") else { throw Self.damaged("missing P magic") }
        let kind = bytes[1]
        guard let (binary, color) = [UInt8(ascii: "2"): (false, false), UInt8(ascii: "3"): (false, true),
                                     UInt8(ascii: "5"): (true, false), UInt8(ascii: "6"): (true, true)][kind]
        else { throw Self.damaged("unknown magic P\(Character(UnicodeScalar(kind)))") }
        position = 2
        guard position < bytes.count else { throw Self.damaged("truncated header") }
        guard Self.isSpace(bytes[position]) || bytes[position] == UInt8(ascii: "#") else {
            throw Self.damaged("malformed header")
        }
        let width = try number(naming: "width")
        let height = try number(naming: "height")
        let maxval = try number(naming: "maxval")
        guard (1...65535).contains(maxval) else {
            throw Self.damaged("maxval \(maxval) outside 1...65535")
        }
        if binary {
            // Exactly one whitespace byte separates the header from binary samples, and a
            // sample may itself be a whitespace byte, so nothing more may be skipped.
            guard position < bytes.count, Self.isSpace(bytes[position]) else {
                throw Self.damaged(position < bytes.count ? "malformed header" : "truncated: no pixel data")
            }
            position += 1
        }
        return PNMHeader(binary: binary, color: color, width: width, height: height, maxval: maxval)
    }

    /// The bytes after the current position.
    var remainingBytes: ArraySlice<UInt8> { bytes[position...] }

    /// Throws unless the bytes left could hold `samples` samples: two bytes each when
    /// binary with a wide maxval, one otherwise, and a digit plus a separator when ASCII.
    mutating func requireRoom(samples: Int, maxval: Int, binary: Bool) throws(RasterError) {
        let available = bytes.count - position
        if binary {
            let (needed, overflow) = samples.multipliedReportingOverflow(by: maxval > 255 ? 2 : 1)
            guard !overflow, needed <= available else {
                throw Self.damaged("truncated: \(available) of \(needed) bytes of pixel data")
            }
        } else {
            let (needed, overflow) = samples.multipliedReportingOverflow(by: 2)
            guard !overflow, needed - 1 <= available else {
                throw Self.damaged("truncated: too few bytes for \(samples) samples")
            }
        }
    }

    /// The next sample, binary (after `requireRoom`) or ASCII, checked against `maxval`.
    mutating func sample(maxval: Int, binary: Bool) throws(RasterError) -> Int {
        let value: Int
        if binary {
            if maxval > 255 {
                value = Int(bytes[position]) << 8 | Int(bytes[position + 1])
                position += 2
            } else {
                value = Int(bytes[position])
                position += 1
            }
        } else {
            guard let number = try optionalNumber(naming: "sample") else {
                throw Self.damaged("truncated: pixel data ends early")
            }
            value = number
        }
        guard value <= maxval else { throw Self.damaged("sample \(value) above maxval \(maxval)") }
        return value
    }

    private mutating func number(naming name: String) throws(RasterError) -> Int {
        guard let value = try optionalNumber(naming: name) else {
            throw Self.damaged("truncated header: missing \(name)")
        }
        return value
    }

    /// The next decimal number after whitespace and `#` comments, or nil at the end.
    private mutating func optionalNumber(naming name: String) throws(RasterError) -> Int? {
        skipSpaceAndComments()
        guard position < bytes.count else { return nil }
        var value = 0
        var digits = 0
        while position < bytes.count, let digit = Self.digit(bytes[position]) {
            // Capped well below overflow; no limit we accept needs ten digits.
            guard value < 100_000_000 else { throw Self.damaged("\(name) is out of range") }
            value = value * 10 + digit
            digits += 1
            position += 1
        }
        guard digits > 0 else { throw Self.damaged("expected a number for \(name)") }
        if position < bytes.count, !Self.isSpace(bytes[position]), bytes[position] != UInt8(ascii: "#") {
            throw Self.damaged("expected a number for \(name)")
        }
        return value
    }

    private mutating func skipSpaceAndComments() {
        while position < bytes.count {
            if Self.isSpace(bytes[position]) {
                position += 1
            } else if bytes[position] == UInt8(ascii: "#") {
                while position < bytes.count, bytes[position] != 0x0A, bytes[position] != 0x0D {
                    position += 1
                }
            } else {
                return
            }
        }
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || (0x09...0x0D).contains(byte)
    }

    private static func digit(_ byte: UInt8) -> Int? {
        (0x30...0x39).contains(byte) ? Int(byte - 0x30) : nil
    }
}
