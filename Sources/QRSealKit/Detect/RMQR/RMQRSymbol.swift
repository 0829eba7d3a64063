/// rMQR, Rectangular Micro QR Code (ISO/IEC 23941): 32 sizes, 7 to 17 rows of 27 to 139
/// columns, for narrow labels; none of the engines linked reads it.
///
/// A 7 × 7 finder pattern at the top-left corner, a 5 × 5 finder sub-pattern at the
/// bottom-right, corner patterns at the other two; timing patterns along the four edges and
/// down the alignment pattern columns (`alignmentColumns`), whose 3 × 3 rings sit on the top
/// and bottom edges. Format information (18 bits: the level, M or H, and the size; BCH(18,6),
/// masked differently on each side) beside the finder and beside the sub-pattern. Codewords
/// fill two-module columns from the bottom-right as in QR Code, under one data mask, in
/// Reed–Solomon blocks interleaved as QR Code's; segments as QR Code's (`QRSegments`) with
/// 3-bit mode indicators and character counts by size.
///
/// `read(_:width:height:)` decodes a sampled module grid: nothing unless a copy of the
/// format information names this size and every block passes its Reed–Solomon check with a
/// margin, so that a grid of another code, or of noise, reads as nothing.
enum RMQRSymbol {
    /// What one symbol holds.
    struct Read: Equatable {
        var bytes: [UInt8]
        var width: Int, height: Int
        /// The size's number, 1 (R7x43) to 32 (R17x139), in the order of `sizes`.
        var version: Int
        var level: ErrorCorrection
        /// The most words corrected in one block, and that block's check words.
        var corrected = 0, checkWords = 1

        /// As `AztecSymbol.isSoundlyChecked`: at most a quarter of the check words spent.
        var isSoundlyChecked: Bool { 4 * corrected <= checkWords }
    }

    /// One size: its modules, its codewords, its data codewords and Reed–Solomon blocks at
    /// levels M and H, and the character count bits of numeric, alphanumeric, byte and
    /// Kanji segments.
    struct Size {
        let height: Int, width: Int, total: Int
        let dataM: Int, blocksM: Int, dataH: Int, blocksH: Int
        let counts: [Int]
    }

    /// The sizes in the order of the format information's five size bits (R7x43 to
    /// R17x139). The numbers are ISO/IEC 23941's tables (symbol sizes, codewords,
    /// error correction blocks, character count lengths) as zint's backend/qr.h lists them
    /// (BSD-3-Clause).
    static let sizes: [Size] = {
        let heights = [7, 7, 7, 7, 7, 9, 9, 9, 9, 9, 11, 11, 11, 11, 11, 11, 13, 13, 13, 13, 13, 13,
                       15, 15, 15, 15, 15, 17, 17, 17, 17, 17]
        let widths = [43, 59, 77, 99, 139, 43, 59, 77, 99, 139, 27, 43, 59, 77, 99, 139, 27, 43, 59, 77, 99, 139,
                      43, 59, 77, 99, 139, 43, 59, 77, 99, 139]
        let totals = [13, 21, 32, 44, 68, 21, 33, 49, 66, 99, 15, 31, 47, 67, 89, 132, 21, 41, 60, 85, 113, 166,
                      51, 74, 103, 136, 199, 61, 88, 122, 160, 232]
        let dataM = [6, 12, 20, 28, 44, 12, 21, 31, 42, 63, 7, 19, 31, 43, 57, 84, 12, 27, 38, 53, 73, 106,
                     33, 48, 67, 88, 127, 39, 56, 78, 100, 152]
        let dataH = [3, 7, 10, 14, 24, 7, 11, 17, 22, 33, 5, 11, 15, 23, 29, 42, 7, 13, 20, 29, 35, 54,
                     15, 26, 31, 48, 69, 21, 28, 38, 56, 76]
        let blocksM = [1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 1, 1, 1, 1, 2, 2, 1, 1, 1, 2, 2, 3, 1, 1, 2, 2, 3, 1, 2, 2, 3, 4]
        let blocksH = [1, 1, 1, 1, 2, 1, 1, 2, 2, 3, 1, 1, 2, 2, 2, 3, 1, 1, 2, 2, 3, 4, 2, 2, 3, 4, 5, 2, 2, 3, 4, 6]
        let numeric = [4, 5, 6, 7, 7, 5, 6, 7, 7, 8, 4, 6, 7, 7, 8, 8, 5, 6, 7, 8, 8, 8, 7, 7, 8, 8, 9, 7, 8, 8, 8, 9]
        let alphanumeric = [3, 5, 5, 6, 6, 5, 5, 6, 6, 7, 4, 5, 6, 6, 7, 7, 5, 6, 6, 7, 7, 8, 6, 7, 7, 7, 8, 6, 7, 7, 8, 8]
        let byte = [3, 4, 5, 5, 6, 4, 5, 5, 6, 6, 3, 5, 5, 6, 6, 7, 4, 5, 6, 6, 7, 7, 6, 6, 7, 7, 7, 6, 6, 7, 7, 8]
        let kanji = [2, 3, 4, 5, 5, 3, 4, 5, 5, 6, 2, 4, 5, 5, 6, 6, 3, 5, 5, 6, 6, 7, 5, 5, 6, 6, 7, 5, 6, 6, 6, 7]
        return (0..<32).map { i in
            Size(height: heights[i], width: widths[i], total: totals[i], dataM: dataM[i], blocksM: blocksM[i],
                 dataH: dataH[i], blocksH: blocksH[i], counts: [numeric[i], alphanumeric[i], byte[i], kanji[i]])
        }
    }()

    /// The index in `sizes` of the symbol `width` × `height` modules, nil for no rMQR size.
    static func sizeIndex(width: Int, height: Int) -> Int? {
        sizes.firstIndex { $0.width == width && $0.height == height }
    }

    /// The columns of the alignment patterns' centres by the symbol's width (ISO/IEC 23941,
    /// Table D.1, as zint lists it); a symbol 27 wide has none.
    static func alignmentColumns(width: Int) -> [Int] {
        switch width {
        case 43: return [21]
        case 59: return [19, 39]
        case 77: return [25, 51]
        case 99: return [23, 49, 75]
        case 139: return [27, 55, 83, 111]
        default: return []
        }
    }

    // MARK: Format information

    /// The masks of the format information beside the finder and beside the sub-pattern:
    /// the codes of data 0 on each side (ISO/IEC 23941, 7.9.1; zint's tables begin with them).
    static let finderSideMask = 0x1FAB2, subPatternSideMask = 0x20A7B

    /// The 18-bit code of the format data `data` (bit 5 set for level H, bits 0 to 4 the
    /// size's index): the data, then the remainder of a BCH division by
    /// x¹² + x¹¹ + x¹⁰ + x⁹ + x⁸ + x⁵ + x² + 1 (QR Code's version information code), masked.
    static func formatCode(_ data: Int, mask: Int) -> Int {
        var remainder = data << 12
        for bit in stride(from: 17, through: 12, by: -1) where remainder >> bit & 1 == 1 {
            remainder ^= 0x1F25 << (bit - 12)
        }
        return (data << 12 | remainder) ^ mask
    }

    static let finderSideCodes = (0..<64).map { formatCode($0, mask: finderSideMask) }
    static let subPatternSideCodes = (0..<64).map { formatCode($0, mask: subPatternSideMask) }

    /// The format data nearest `bits` among `codes`, and how many bits differ.
    static func nearestFormat(_ bits: Int, codes: [Int]) -> (data: Int, distance: Int) {
        var best = (data: 0, distance: Int.max)
        for (data, code) in codes.enumerated() {
            let distance = (bits ^ code).nonzeroBitCount
            if distance < best.distance { best = (data, distance) }
        }
        return best
    }

    /// Where bit i of the format information beside the finder lies, by column and row:
    /// bits 0 to 14 down columns 8 to 10 of rows 1 to 5, bits 15 to 17 down column 11 of
    /// rows 1 to 3. The sub-pattern's copy lies at columns width − 8 to width − 6 of rows
    /// height − 6 to height − 2, its last three bits along row height − 6 from column
    /// width − 5.
    static func formatPositions(finderSide: Bool, width: Int, height: Int) -> [(x: Int, y: Int)] {
        let x0 = finderSide ? 8 : width - 8, y0 = finderSide ? 1 : height - 6
        var positions = (0..<15).map { (x: x0 + $0 / 5, y: y0 + $0 % 5) }
        positions += finderSide ? (0..<3).map { (x: 11, y: 1 + $0) } : (0..<3).map { (x: width - 5 + $0, y: height - 6) }
        return positions
    }

    /// The format data (bit 5 the level, bits 0 to 4 the size) one copy of the modules
    /// `isDark` gives by column and row holds, within three bit errors; nil when neither
    /// copy is that near.
    static func formatData(finderSide: Bool, width: Int, height: Int, isDark: (Int, Int) -> Bool) -> (data: Int, distance: Int)? {
        var bits = 0
        for (i, p) in formatPositions(finderSide: finderSide, width: width, height: height).enumerated() where isDark(p.x, p.y) {
            bits |= 1 << i
        }
        let best = nearestFormat(bits, codes: finderSide ? finderSideCodes : subPatternSideCodes)
        return best.distance <= 3 ? best : nil
    }

    // MARK: Function patterns

    /// The modules of a `width` × `height` symbol that hold no data, row by row: nil for a
    /// data module, else whether the pattern draws it dark (format information counts as
    /// light). Laid out as ISO/IEC 23941, 6.3 describes and zint draws it.
    static func functionModules(width w: Int, height h: Int) -> [Bool?] {
        var grid = [Bool?](repeating: nil, count: w * h)
        func set(_ x: Int, _ y: Int, _ dark: Bool) {
            if x >= 0, x < w, y >= 0, y < h { grid[y * w + x] = dark }
        }
        for x in 0..<w { set(x, 0, x % 2 == 0); set(x, h - 1, x % 2 == 0) }
        for y in 0..<h { set(0, y, y % 2 == 0); set(w - 1, y, y % 2 == 0) }
        // The finder: dark ring, light ring, dark 3 × 3 core.
        for y in 0..<7 {
            for x in 0..<7 {
                let ring = max(abs(x - 3), abs(y - 3))
                set(x, y, ring != 2)
            }
        }
        // The sub-pattern: dark ring, light ring, dark centre.
        for y in 0..<5 {
            for x in 0..<5 { set(w - 5 + x, h - 5 + y, max(abs(x - 2), abs(y - 2)) != 1) }
        }
        set(0, h - 2, true); set(1, h - 2, false); set(1, h - 1, true)
        set(w - 2, 0, true); set(w - 2, 1, false); set(w - 1, 1, true)
        for y in 0..<7 { set(7, y, false) }
        if h > 7 { for x in 0..<8 { set(x, 7, false) } }
        for c in alignmentColumns(width: w) {
            for y in 0..<h { set(c, y, y % 2 == 0) }
            for y in [1, 2, h - 3, h - 2] { set(c - 1, y, true); set(c + 1, y, true) }
        }
        for finderSide in [true, false] {
            for p in formatPositions(finderSide: finderSide, width: w, height: h) { set(p.x, p.y, false) }
        }
        return grid
    }

    /// The data modules in reading order (indices into the row-by-row grid): pairs of
    /// columns from the right, the column just inside the right edge's timing pattern
    /// first, up the first pair and down the next, the right module of a pair before the
    /// left, skipping function modules.
    static func dataPositions(width w: Int, height h: Int, function: [Bool?]) -> [Int] {
        var positions: [Int] = []
        var upwards = true
        var right = w - 2
        while right >= 1 {
            for step in 0..<h {
                let y = upwards ? h - 1 - step : step
                for x in [right, right - 1] where function[y * w + x] == nil { positions.append(y * w + x) }
            }
            upwards.toggle()
            right -= 2
        }
        return positions
    }

    /// Whether the data mask inverts the module at (column x, row y).
    static func masked(_ x: Int, _ y: Int) -> Bool { (y / 2 + x / 3) % 2 == 0 }

    // MARK: Reading

    /// The symbol the modules of a `width` × `height` grid hold (row by row, dark true);
    /// nil for anything short of a sound read.
    static func read(_ modules: [Bool], width w: Int, height h: Int) -> Read? {
        guard let index = sizeIndex(width: w, height: h), modules.count == w * h else { return nil }
        let size = sizes[index]
        let copies = [true, false].compactMap { side in
            formatData(finderSide: side, width: w, height: h) { modules[$1 * w + $0] }
        }.filter { $0.data & 31 == index }
        guard let format = copies.min(by: { $0.distance < $1.distance }) else { return nil }
        let high = format.data >> 5 == 1
        let function = functionModules(width: w, height: h)
        let positions = dataPositions(width: w, height: h, function: function)
        guard positions.count >= size.total * 8 else { return nil }
        let words = (0..<size.total).map { k in
            (0..<8).reduce(0) { word, b in
                let p = positions[k * 8 + b]
                return word << 1 | (modules[p] != masked(p % w, p / w) ? 1 : 0)
            }
        }
        let dataWords = high ? size.dataH : size.dataM, blocks = high ? size.blocksH : size.blocksM
        guard let (data, corrected, check) = corrected(words, data: dataWords, blocks: blocks) else { return nil }
        guard let bytes = payload(data, counts: size.counts) else { return nil }
        return Read(bytes: bytes, width: w, height: h, version: index + 1, level: high ? .high : .medium, corrected: corrected, checkWords: check)
    }

    /// The data codewords of `words`, interleaved as QR Code's: `blocks` blocks with equal
    /// check words, the shorter data blocks first. Nil when a block is beyond correction
    /// with a margin: two check words are kept back (misdecode protection), as in
    /// `QRModel1`. Also the most words corrected in one block, and its check words.
    static func corrected(_ words: [Int], data: Int, blocks: Int) -> (data: [UInt8], corrected: Int, check: Int)? {
        let total = words.count
        guard blocks > 0, data < total, (total - data) % blocks == 0 else { return nil }
        let check = (total - data) / blocks, short = data / blocks, long = data % blocks
        let lengths = (0..<blocks).map { $0 < blocks - long ? short : short + 1 }
        var blockWords = lengths.map { _ in [Int]() }
        var next = 0
        for i in 0..<(short + 1) {
            for b in 0..<blocks where i < lengths[b] {
                blockWords[b].append(words[next])
                next += 1
            }
        }
        for _ in 0..<check {
            for b in 0..<blocks {
                blockWords[b].append(words[next])
                next += 1
            }
        }
        var out: [UInt8] = [], most = 0
        for b in 0..<blocks {
            var block = blockWords[b]
            guard let fixed = ReedSolomon.correct(&block, checkWords: check, field: .qr256, firstRoot: 0),
                  2 * fixed + 2 <= check else { return nil }
            most = max(most, fixed)
            out += block.prefix(lengths[b]).map { UInt8($0) }
        }
        return (out, most, check)
    }

    /// The payload of a data bit stream: segments, each a 3-bit mode and a character count
    /// of `counts` bits (numeric, alphanumeric, byte, Kanji), up to the terminator (000) or
    /// the end. Nil for a stream we do not read (an ECI, FNC1) or that no encoder writes.
    static func payload(_ data: [UInt8], counts: [Int]) -> [UInt8]? {
        guard counts.count == 4 else { return nil }
        var bits = BitStream(data)
        var bytes: [UInt8] = []
        while bits.remaining >= 3 {
            guard let mode = bits.read(3) else { return nil }
            let segment: [UInt8]?
            switch mode {
            case 0: return bytes
            case 1: segment = bits.read(counts[0]).flatMap { QRSegments.numeric(&bits, count: $0) }
            case 2: segment = bits.read(counts[1]).flatMap { QRSegments.alphanumeric(&bits, count: $0) }
            case 3: segment = bits.read(counts[2]).flatMap { QRSegments.bytes(&bits, count: $0) }
            case 4: segment = bits.read(counts[3]).flatMap { QRSegments.kanji(&bits, count: $0) }
            default: return nil
            }
            guard let segment else { return nil }
            bytes += segment
        }
        return bytes
    }
}
