extension ImageDecoder {
    /// Decodes a Windows bitmap (BMP) to grayscale: 1-, 4- and 8-bit palette images,
    /// uncompressed or RLE8/RLE4, and 16-, 24- and 32-bit ones (with bit fields), stored
    /// bottom-up or top-down; alpha, when a 32-bit file's masks give one, over white.
    ///
    /// A reader of our own: the format is a header and rows, and each field is checked
    /// against the file's length before it is used.
    func decodeBMP(_ bytes: [UInt8]) throws(RasterError) -> GrayImage {
        let header = try BMPHeader(bytes)
        try checkSize(width: header.width, height: header.height)
        var gray = [UInt8](repeating: 255, count: header.width * header.height)
        switch header.compression {
        case .rle8, .rle4: try header.decodeRLE(bytes, into: &gray)
        case .none, .bitFields: try header.decodeRows(bytes, into: &gray)
        }
        return GrayImage(width: header.width, height: header.height, pixels: gray)
    }
}

/// The fields of a BMP's file and information headers that decoding needs.
struct BMPHeader {
    enum Compression { case none, rle8, rle4, bitFields }

    let width: Int
    let height: Int
    /// Rows are stored top row first (a negative height in the file).
    let topDown: Bool
    let bitsPerPixel: Int
    let compression: Compression
    /// Where the pixel data starts.
    let dataOffset: Int
    /// The palette's gray values, for 1-, 4- and 8-bit images.
    let palette: [UInt8]
    /// Red, green, blue and alpha masks for 16- and 32-bit images.
    let masks: (UInt32, UInt32, UInt32, UInt32)

    static func damaged(_ reason: String) -> RasterError { .damaged(format: "BMP", reason: reason) }

    init(_ b: [UInt8]) throws(RasterError) {
        func u16(_ at: Int) -> Int { Int(b[at]) | Int(b[at + 1]) << 8 }
        func u32(_ at: Int) -> UInt32 { UInt32(b[at]) | UInt32(b[at + 1]) << 8 | UInt32(b[at + 2]) << 16 | UInt32(b[at + 3]) << 24 }
        guard b.count >= 26 else { throw Self.damaged("truncated") }
        dataOffset = Int(u32(10))
        let infoSize = Int(u32(14))
        guard [12, 40, 52, 56, 64, 108, 124].contains(infoSize) else {
            throw .unsupported(format: "BMP", reason: "header of \(infoSize) bytes")
        }
        guard b.count >= 14 + infoSize else { throw Self.damaged("truncated") }
        let rawHeight: Int
        let code: UInt32
        if infoSize == 12 {  // OS/2 BITMAPCOREHEADER
            width = u16(18)
            rawHeight = u16(20)
            bitsPerPixel = u16(24)
            code = 0
        } else {
            width = Int(Int32(bitPattern: u32(18)))
            rawHeight = Int(Int32(bitPattern: u32(22)))
            bitsPerPixel = u16(28)
            code = u32(30)
        }
        topDown = rawHeight < 0
        height = rawHeight == Int(Int32.min) ? 0 : abs(rawHeight)
        switch (code, bitsPerPixel) {
        case (0, 1), (0, 4), (0, 8), (0, 16), (0, 24), (0, 32): compression = .none
        case (1, 8): compression = .rle8
        case (2, 4): compression = .rle4
        case (3, 16), (3, 32), (6, 16), (6, 32): compression = .bitFields
        default: throw .unsupported(format: "BMP", reason: "\(bitsPerPixel) bits per pixel with compression \(code)")
        }
        guard !topDown || compression == .none || compression == .bitFields else {
            throw Self.damaged("a top-down image cannot be compressed")
        }
        // Masks: after a 40-byte header for BI_BITFIELDS, or inside the larger headers.
        switch (compression, bitsPerPixel) {
        case (.bitFields, _):
            guard b.count >= 54 + (code == 6 ? 16 : 12) else { throw Self.damaged("truncated") }
            let alpha: UInt32 = code == 6 || infoSize >= 56 ? u32(66) : 0
            masks = (u32(54), u32(58), u32(62), b.count >= 70 ? alpha : 0)
        case (_, 16): masks = (0x7C00, 0x03E0, 0x001F, 0)
        case (_, 32): masks = (0x00FF_0000, 0x0000_FF00, 0x0000_00FF, infoSize >= 56 ? u32(66) : 0)
        default: masks = (0, 0, 0, 0)
        }
        if bitsPerPixel <= 8 {
            let entrySize = infoSize == 12 ? 3 : 4
            let used = infoSize >= 40 ? Int(u32(46)) : 0
            let count = used == 0 ? 1 << bitsPerPixel : min(used, 1 << bitsPerPixel)
            var start = 14 + infoSize
            if code == 3 && infoSize == 40 { start += 12 }
            guard start + count * entrySize <= b.count else { throw Self.damaged("truncated palette") }
            palette = (0..<count).map { i in
                let at = start + i * entrySize  // blue, green, red
                return luma(Int(b[at + 2]), Int(b[at + 1]), Int(b[at]))
            } + [UInt8](repeating: 0, count: (1 << bitsPerPixel) - count)
        } else {
            palette = []
        }
        guard dataOffset >= 14 + infoSize, dataOffset < b.count else { throw Self.damaged("truncated") }
    }

    /// The output row that the file's `row`-th stored row is.
    private func outputRow(_ row: Int) -> Int { topDown ? row : height - 1 - row }

    /// Uncompressed and bit-field rows, each padded to four bytes.
    func decodeRows(_ b: [UInt8], into gray: inout [UInt8]) throws(RasterError) {
        let (bitsPerRow, o1) = width.multipliedReportingOverflow(by: bitsPerPixel)
        guard !o1 else { throw .tooLarge(width: width, height: height, limit: 0) }
        let stride = (bitsPerRow + 31) / 32 * 4
        let (size, o2) = stride.multipliedReportingOverflow(by: height)
        guard !o2, dataOffset + size <= b.count else { throw Self.damaged("truncated") }
        let fields = [masks.0, masks.1, masks.2, masks.3].map(MaskField.init)
        b.withUnsafeBufferPointer { p in
            for row in 0..<height {
                let start = dataOffset + row * stride, out = outputRow(row) * width
                for x in 0..<width {
                    let value: UInt8
                    switch bitsPerPixel {
                    case 1, 4, 8:
                        let bit = x * bitsPerPixel
                        let byte = Int(p[start + bit / 8])
                        let index = (byte >> (8 - bitsPerPixel - bit % 8)) & ((1 << bitsPerPixel) - 1)
                        value = palette[index]
                    case 24:
                        let at = start + 3 * x
                        value = luma(Int(p[at + 2]), Int(p[at + 1]), Int(p[at]))
                    default:
                        let at = start + x * bitsPerPixel / 8
                        var pixel = UInt32(p[at]) | UInt32(p[at + 1]) << 8
                        if bitsPerPixel == 32 { pixel |= UInt32(p[at + 2]) << 16 | UInt32(p[at + 3]) << 24 }
                        let r = fields[0].value(pixel), g = fields[1].value(pixel), b = fields[2].value(pixel)
                        let gray = Int(luma(r, g, b))
                        let alpha = fields[3].mask == 0 ? 255 : fields[3].value(pixel)
                        value = UInt8((gray * alpha + 255 * (255 - alpha) + 127) / 255)
                    }
                    gray[out + x] = value
                }
            }
        }
    }

    /// RLE8 and RLE4: runs and literal stretches of palette indices, with end-of-line,
    /// end-of-bitmap and delta codes; pixels a delta skips stay white.
    func decodeRLE(_ b: [UInt8], into gray: inout [UInt8]) throws(RasterError) {
        var at = dataOffset, x = 0, row = 0
        let four = compression == .rle4
        func put(_ index: Int) {
            if x < width && row < height { gray[outputRow(row) * width + x] = palette[index] }
            x += 1
        }
        while true {
            guard at + 2 <= b.count else { throw Self.damaged("truncated") }
            let count = Int(b[at]), code = Int(b[at + 1])
            at += 2
            if count > 0 {
                for i in 0..<count { put(four ? (i % 2 == 0 ? code >> 4 : code & 15) : code) }
                continue
            }
            switch code {
            case 0: x = 0; row += 1
            case 1: return
            case 2:
                guard at + 2 <= b.count else { throw Self.damaged("truncated") }
                x += Int(b[at]); row += Int(b[at + 1]); at += 2
            default:
                let bytes = four ? (code + 1) / 2 : code
                guard at + bytes <= b.count else { throw Self.damaged("truncated") }
                for i in 0..<code {
                    put(four ? (i % 2 == 0 ? Int(b[at + i / 2]) >> 4 : Int(b[at + i / 2]) & 15) : Int(b[at + i]))
                }
                at += (bytes + 1) & ~1
            }
            // Past the last row there is nothing more to draw; a file that goes on is done.
            if row >= height { return }
        }
    }
}

/// One channel of a bit-field pixel: its mask, shift and width, scaled to 0…255.
private struct MaskField {
    let mask: UInt32
    let shift: UInt32
    let maximum: UInt32

    init(_ mask: UInt32) {
        self.mask = mask
        shift = mask == 0 ? 0 : UInt32(mask.trailingZeroBitCount)
        maximum = mask == 0 ? 0 : mask >> shift
    }

    func value(_ pixel: UInt32) -> Int {
        guard maximum > 0 else { return 0 }
        return Int((UInt64((pixel & mask) >> shift) * 255 + UInt64(maximum) / 2) / UInt64(maximum))
    }
}
