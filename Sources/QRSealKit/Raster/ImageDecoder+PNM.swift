extension ImageDecoder {
    /// Decodes a Netpbm bitmap, graymap or pixmap (P1 to P6) to grayscale, in pure Swift.
    ///
    /// Bitmap pixels are black (0) where a bit is 1 and white (255) where it is 0.
    /// Samples are scaled from `0...maxval` to `0...255`, rounding to nearest; binary files
    /// with a maxval above 255 hold 16-bit big-endian samples. Colour is reduced to luma
    /// with the ITU-R BT.601 weights (299 R + 587 G + 114 B) / 1000, rounded.
    func decodePNM(_ bytes: [UInt8]) throws(RasterError) -> GrayImage {
        var reader = PNMReader(bytes: bytes)
        let header = try reader.header()
        try checkSize(width: header.width, height: header.height)
        // Checked before allocating, so a few bytes declaring a huge image cost nothing.
        try reader.requireRoom(for: header)
        let count = header.width * header.height
        if header.kind == .bitmap {
            let pixels = header.binary
                ? reader.packedBits(width: header.width, height: header.height)
                : try reader.asciiBits(count: count)
            return GrayImage(width: header.width, height: header.height, pixels: pixels)
        }

        // A table maps every possible sample once instead of dividing per pixel.
        let maxval = header.maxval
        let scale = (0...maxval).map { UInt8((($0 * 255) + maxval / 2) / maxval) }
        if header.binary, header.kind == .graymap, maxval <= 255 {
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
            if header.kind == .pixmap {
                let r = Int(scale[try reader.sample(maxval: maxval, binary: header.binary)])
                let g = Int(scale[try reader.sample(maxval: maxval, binary: header.binary)])
                let b = Int(scale[try reader.sample(maxval: maxval, binary: header.binary)])
                pixels[index] = luma(r, g, b)
            } else {
                pixels[index] = scale[try reader.sample(maxval: maxval, binary: header.binary)]
            }
        }
        return GrayImage(width: header.width, height: header.height, pixels: pixels)
    }
}

/// What a PNM header declares.
private struct PNMHeader {
    /// PBM (P1, P4), PGM (P2, P5) or PPM (P3, P6).
    enum Kind { case bitmap, graymap, pixmap }

    var kind: Kind
    var binary: Bool
    var width: Int
    var height: Int
    /// 1 for a bitmap, which declares none.
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
        let magic = bytes[1]
        let kinds: [UInt8: (PNMHeader.Kind, binary: Bool)] = [
            UInt8(ascii: "1"): (.bitmap, false), UInt8(ascii: "2"): (.graymap, false),
            UInt8(ascii: "3"): (.pixmap, false), UInt8(ascii: "4"): (.bitmap, true),
            UInt8(ascii: "5"): (.graymap, true), UInt8(ascii: "6"): (.pixmap, true),
        ]
        guard let (kind, binary) = kinds[magic] else {
            throw Self.damaged("unknown magic P\(Character(UnicodeScalar(magic)))")
        }
        position = 2
        guard position < bytes.count else { throw Self.damaged("truncated header") }
        guard Self.isSpace(bytes[position]) || bytes[position] == UInt8(ascii: "#") else {
            throw Self.damaged("malformed header")
        }
        let width = try number(naming: "width")
        let height = try number(naming: "height")
        let maxval = kind == .bitmap ? 1 : try number(naming: "maxval")
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
        return PNMHeader(kind: kind, binary: binary, width: width, height: height, maxval: maxval)
    }

    /// The bytes after the current position.
    var remainingBytes: ArraySlice<UInt8> { bytes[position...] }

    /// Throws unless the bytes left could hold the pixel data `header` declares. Binary
    /// files need a bit a pixel for P4, whose rows are padded to whole bytes, and a byte a
    /// sample otherwise, two when maxval is above 255. ASCII files need a character a
    /// pixel for P1, whose digits need no separator, and a digit and a separator a sample
    /// otherwise, the last of which may end the file.
    mutating func requireRoom(for header: PNMHeader) throws(RasterError) {
        let available = bytes.count - position
        let channels = header.kind == .pixmap ? 3 : 1
        let needed: Int?
        switch (header.kind, header.binary) {
        case (.bitmap, true): needed = product((header.width + 7) / 8, header.height)
        case (.bitmap, false): needed = product(header.width, header.height)
        case (_, true): needed = product(header.width, header.height, channels, header.maxval > 255 ? 2 : 1)
        case (_, false): needed = product(header.width, header.height, channels, 2).map { $0 - 1 }
        }
        if let needed, needed <= available { return }
        if header.binary, let needed {
            throw Self.damaged("truncated: \(available) of \(needed) bytes of pixel data")
        }
        throw Self.damaged("truncated: too few bytes for \(header.width)x\(header.height) pixels")
    }

    /// The pixels of P4 rows (after `requireRoom`): a bit a pixel, the most significant
    /// first, 1 for black; the bits padding each row to a whole byte are ignored.
    mutating func packedBits(width: Int, height: Int) -> [UInt8] {
        let rowBytes = (width + 7) / 8
        var pixels = [UInt8](repeating: 255, count: width * height)
        for y in 0..<height {
            let row = position + y * rowBytes
            for x in 0..<width where bytes[row + x / 8] & (0x80 >> (x % 8)) != 0 {
                pixels[y * width + x] = 0
            }
        }
        position += rowBytes * height
        return pixels
    }

    /// The pixels of a P1 raster: `count` characters `0` (white) or `1` (black), which
    /// whitespace and comments may separate but need not.
    mutating func asciiBits(count: Int) throws(RasterError) -> [UInt8] {
        var pixels = [UInt8](repeating: 255, count: count)
        for index in 0..<count {
            skipSpaceAndComments()
            guard position < bytes.count else { throw Self.damaged("truncated: pixel data ends early") }
            switch bytes[position] {
            case UInt8(ascii: "0"): break
            case UInt8(ascii: "1"): pixels[index] = 0
            default: throw Self.damaged("expected 0 or 1 for a pixel")
            }
            position += 1
        }
        return pixels
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

/// The product of `factors`, or nil when it overflows `Int`.
private func product(_ factors: Int...) -> Int? {
    var result = 1
    for factor in factors {
        let (next, overflow) = result.multipliedReportingOverflow(by: factor)
        if overflow { return nil }
        result = next
    }
    return result
}
