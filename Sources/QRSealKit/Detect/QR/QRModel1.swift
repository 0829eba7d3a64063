/// QR Code Model 1, the original QR Code of 1994 (AIM ITS/97-001; ISO/IEC 18004:2000,
/// Annex M): versions 1 to 14, 21 to 73 modules a side, still printed on old labels, which
/// none of the engines reads.
///
/// It has Model 2's finder and timing patterns and its format information (the same
/// BCH(15,5) code and data masks), but the format information is masked with 0x2825
/// instead of 0x5412, which tells the two apart; no alignment patterns and no version
/// information, but extension patterns on the right and bottom edges; codewords of 2 × 4
/// or 4 × 2 modules in fixed places rather than a zigzag; Reed–Solomon blocks one after
/// another rather than interleaved; and a data bit stream that starts with four zero bits.
/// It has no ECI.
///
/// `read(_:dimension:)` decodes a sampled module grid: nothing unless the format
/// information is nearer Model 1's than Model 2's and every block passes its Reed–Solomon
/// check with a margin, so that a grid of another code, or of noise, reads as nothing.
enum QRModel1 {
    /// What one symbol holds.
    struct Read: Equatable {
        var bytes: [UInt8]
        var version: Int
        var level: ErrorCorrection
        /// Whether the symbol was read mirrored (its modules transposed).
        var mirrored = false
        var structuredAppend: StructuredAppend? = nil
        /// The most words corrected in one block, and that block's check words.
        var corrected = 0, checkWords = 1

        /// As `AztecSymbol.isSoundlyChecked`: at most a quarter of the check words spent.
        var isSoundlyChecked: Bool { 4 * corrected <= checkWords }
    }

    static let versions = 1...14

    /// The mask of Model 1's format information (Model 2's is 0x5412).
    static let formatMask = 0x2825

    /// Reed–Solomon blocks per version (1 to 14) and level (L, M, Q, H): check words per
    /// block, blocks, data words per block (ISO/IEC 18004:2000, Table M.2). Some levels
    /// leave a codeword or two of the symbol unused.
    static let blocks: [[(check: Int, count: Int, data: Int)]] = [
        [(7, 1, 19), (10, 1, 16), (13, 1, 13), (17, 1, 9)],
        [(10, 1, 36), (16, 1, 30), (22, 1, 24), (30, 1, 16)],
        [(15, 1, 57), (28, 1, 44), (36, 1, 36), (48, 1, 24)],
        [(20, 1, 80), (40, 1, 60), (50, 1, 50), (66, 1, 34)],
        [(26, 1, 108), (52, 1, 82), (66, 1, 68), (44, 2, 23)],
        [(34, 1, 136), (32, 2, 53), (42, 2, 43), (56, 2, 29)],
        [(42, 1, 170), (40, 2, 66), (52, 2, 54), (46, 3, 24)],
        [(24, 2, 104), (48, 2, 80), (64, 2, 64), (56, 3, 29)],
        [(30, 2, 123), (60, 2, 93), (50, 3, 52), (68, 3, 34)],
        [(34, 2, 145), (68, 2, 111), (58, 3, 61), (58, 4, 31)],
        [(40, 2, 168), (40, 4, 64), (52, 4, 52), (54, 5, 29)],
        [(46, 2, 192), (46, 4, 73), (58, 4, 61), (62, 5, 33)],
        [(36, 3, 144), (52, 4, 83), (66, 4, 69), (58, 6, 32)],
        [(40, 3, 163), (60, 4, 92), (60, 5, 62), (66, 6, 35)],
    ]

    static let levels: [ErrorCorrection] = [.low, .medium, .quartile, .high]

    /// The levels by the format information's two bits: 01 L, 00 M, 11 Q, 10 H (as Model 2).
    static let levelByBits: [ErrorCorrection] = [.medium, .low, .high, .quartile]

    /// The symbol the modules of `dimension`² hold (row by row, dark true), read as it is
    /// and then mirrored; nil for anything short of a sound Model 1 read.
    static func read(_ modules: [Bool], dimension n: Int) -> Read? {
        guard n >= 21, (n - 17) % 4 == 0, versions.contains((n - 17) / 4), modules.count == n * n else { return nil }
        if let read = readUnmirrored(modules, dimension: n) { return read }
        var transposed = modules
        for y in 0..<n {
            for x in 0..<n { transposed[y * n + x] = modules[x * n + y] }
        }
        guard var read = readUnmirrored(transposed, dimension: n) else { return nil }
        read.mirrored = true
        return read
    }

    private static func readUnmirrored(_ modules: [Bool], dimension n: Int) -> Read? {
        guard let format = formatData(modules, dimension: n) else { return nil }
        let version = (n - 17) / 4, level = levelByBits[format >> 3], mask = format & 7
        let positions = codewordPositions(dimension: n)
        var words = positions.map { bits in
            bits.reduce(0) { $0 << 1 | (modules[$1] != masked(mask, $1 % n, $1 / n) ? 1 : 0) }
        }
        // The first codeword's first four bits lie in the bottom-right corner, drawn there
        // as a fixed pattern: the bit stream's four leading zeros.
        words[0] &= 0x0F
        let table = blocks[version - 1][levels.firstIndex(of: level)!]
        guard table.count * (table.check + table.data) <= words.count else { return nil }
        var data: [UInt8] = []
        var most = 0
        for b in 0..<table.count {
            let dataStart = b * table.data, checkStart = table.count * table.data + b * table.check
            var block = Array(words[dataStart..<(dataStart + table.data)]) + Array(words[checkStart..<(checkStart + table.check)])
            // Keep two check words back in a small block, as Model 2 does for its smallest
            // versions (misdecode protection): a wrong read is worse than none.
            guard let corrected = ReedSolomon.correct(&block, checkWords: table.check, field: .qr256, firstRoot: 0),
                  2 * corrected + (table.check < 16 ? 2 : 0) <= table.check else { return nil }
            most = max(most, corrected)
            data += block.prefix(table.data).map { UInt8($0) }
        }
        guard var read = payload(data, version: version) else { return nil }
        read.level = level
        read.corrected = most
        read.checkWords = table.check
        return read
    }

    /// The format information's five data bits, from whichever copy is nearer a Model 1
    /// codeword (within three bit errors); nil when either copy is as near a Model 2 one,
    /// or neither is near enough. `transposed` reads the modules mirrored.
    static func formatData(_ modules: [Bool], dimension n: Int, transposed: Bool = false) -> Int? {
        guard n >= 21, modules.count == n * n else { return nil }
        return formatData(dimension: n) { x, y in modules[transposed ? x * n + y : y * n + x] }
    }

    /// `formatData(_:dimension:)` of the modules `isDark` gives by column and row.
    static func formatData(dimension n: Int, isDark: (Int, Int) -> Bool) -> Int? {
        guard n >= 21 else { return nil }
        func bit(_ x: Int, _ y: Int) -> Int { isDark(x, y) ? 1 : 0 }
        var first = 0, second = 0
        for x in 0..<6 { first = first << 1 | bit(x, 8) }
        for (x, y) in [(7, 8), (8, 8), (8, 7)] { first = first << 1 | bit(x, y) }
        for y in stride(from: 5, through: 0, by: -1) { first = first << 1 | bit(8, y) }
        for y in stride(from: n - 1, through: n - 7, by: -1) { second = second << 1 | bit(8, y) }
        for x in (n - 8)..<n { second = second << 1 | bit(x, 8) }
        func nearest(_ mask: Int) -> (data: Int, distance: Int) {
            var best = (data: 0, distance: Int.max)
            for bits in [first, second] {
                for (data, code) in QRGeometry.formatCodes {
                    // The table holds Model 2's codes; take its mask off and put ours on.
                    let distance = (bits ^ code ^ 0x5412 ^ mask).nonzeroBitCount
                    if distance < best.distance || distance == best.distance && data < best.data { best = (data, distance) }
                }
            }
            return best
        }
        let model1 = nearest(formatMask), model2 = nearest(0x5412)
        guard model1.distance <= 3, model1.distance < model2.distance else { return nil }
        return model1.data
    }

    /// Whether data mask `k` (the format information's three bits) inverts the module at
    /// (column x, row y): the same eight masks as Model 2.
    static func masked(_ k: Int, _ x: Int, _ y: Int) -> Bool {
        switch k {
        case 0: return (x + y) % 2 == 0
        case 1: return y % 2 == 0
        case 2: return x % 3 == 0
        case 3: return (x + y) % 3 == 0
        case 4: return (y / 2 + x / 3) % 2 == 0
        case 5: return (x * y) % 2 + (x * y) % 3 == 0
        case 6: return ((x * y) % 2 + (x * y) % 3) % 2 == 0
        default: return ((x + y) % 2 + (x * y) % 3) % 2 == 0
        }
    }
}

extension QRModel1 {
    /// Where each codeword lies, in reading order: its eight modules (indices into the
    /// row-by-row grid), most significant bit first.
    ///
    /// The symbol falls into three strips. The right one (columns n−4 to n−1, row 9 down)
    /// holds two columns of 2 × 4 codewords, the outer one first, each read from the bottom
    /// up; in the outer column every second codeword but the first and the last is an
    /// extension pattern. The middle one (columns 9 to n−5) holds columns of 4 × 2
    /// codewords, right to left, each from the bottom up, stepping over the timing pattern
    /// in row 6; the first column stops below the top-right finder, and the bottom
    /// codeword of every second column from the second, but the last, is an extension
    /// pattern. The left one (columns 0 to 8 but the timing pattern, rows 9 to n−9) holds
    /// four columns of 2 × 4 codewords, right to left, each from the bottom up.
    /// Within a codeword the bits run from its bottom-right module leftwards, row by row upwards.
    static func codewordPositions(dimension n: Int) -> [[Int]] {
        let version = (n - 17) / 4
        func block(_ right: Int, _ bottom: Int, width: Int) -> [Int] {
            (0..<8).map { b in (bottom - b / width) * n + right - b % width }
        }
        var words: [[Int]] = []
        let rightRows = version + 2
        for pair in 0..<2 {
            for i in 0..<rightRows where !(pair == 0 && i % 2 == 0 && i > 0 && i < rightRows - 1) {
                words.append(block(n - 1 - 2 * pair, n - 1 - 4 * i, width: 2))
            }
        }
        let middleRows = n / 2
        for group in 0...version {
            for i in 0..<middleRows {
                if group == 0 && i >= middleRows - 4 { continue }
                if i == 0 && group % 2 == 1 && group != version { continue }
                let bottom = n - 1 - 2 * i - (i >= middleRows - 3 ? 1 : 0)
                words.append(block(n - 5 - 4 * group, bottom, width: 4))
            }
        }
        for right in [8, 5, 3, 1] {
            for i in 0..<version { words.append(block(right, n - 9 - 4 * i, width: 2)) }
        }
        return words
    }
}
