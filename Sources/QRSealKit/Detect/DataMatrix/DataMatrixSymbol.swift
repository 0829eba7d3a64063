/// What an ECC 200 Data Matrix symbol's modules say (ISO/IEC 16022): the codewords its
/// data regions hold in the standard's placement (Annex F), de-interleaved into blocks, each
/// corrected by Reed–Solomon over GF(256) (prime polynomial 0x12D), and decoded by
/// `DataMatrixText`.
struct DataMatrixSymbol: Sendable {
    /// One symbol size of ISO/IEC 16022 Table 7: its rows and columns of modules (finder and
    /// alignment patterns included), the size of each data region, and its codewords.
    struct Size: Sendable, Equatable {
        let rows: Int, columns: Int
        let regionRows: Int, regionColumns: Int
        let dataWords: Int, checkWords: Int
        /// Interleaved Reed–Solomon blocks; every block has `checkWords / blocks` check words.
        let blocks: Int

        /// Data regions across and down.
        var regionsAcross: Int { columns / (regionColumns + 2) }
        var regionsDown: Int { rows / (regionRows + 2) }
        /// The mapping matrix: the data regions' modules joined, without the patterns.
        var mappingRows: Int { regionsDown * regionRows }
        var mappingColumns: Int { regionsAcross * regionColumns }

        /// Data words of block `b`: equal but for 144 × 144, whose last two blocks hold one fewer.
        func dataWords(inBlock b: Int) -> Int {
            let base = dataWords / blocks, extra = dataWords % blocks
            return base + (b < extra ? 1 : 0)
        }
    }

    /// Every ECC 200 size, squares first, then the rectangles.
    static let sizes: [Size] = [
        // rows, columns, region, data, check, blocks
        (10, 10, 8, 8, 3, 5, 1), (12, 12, 10, 10, 5, 7, 1), (14, 14, 12, 12, 8, 10, 1),
        (16, 16, 14, 14, 12, 12, 1), (18, 18, 16, 16, 18, 14, 1), (20, 20, 18, 18, 22, 18, 1),
        (22, 22, 20, 20, 30, 20, 1), (24, 24, 22, 22, 36, 24, 1), (26, 26, 24, 24, 44, 28, 1),
        (32, 32, 14, 14, 62, 36, 1), (36, 36, 16, 16, 86, 42, 1), (40, 40, 18, 18, 114, 48, 1),
        (44, 44, 20, 20, 144, 56, 1), (48, 48, 22, 22, 174, 68, 1), (52, 52, 24, 24, 204, 84, 2),
        (64, 64, 14, 14, 280, 112, 2), (72, 72, 16, 16, 368, 144, 4), (80, 80, 18, 18, 456, 192, 4),
        (88, 88, 20, 20, 576, 224, 4), (96, 96, 22, 22, 696, 272, 4), (104, 104, 24, 24, 816, 336, 6),
        (120, 120, 18, 18, 1050, 408, 6), (132, 132, 20, 20, 1304, 496, 8), (144, 144, 22, 22, 1558, 620, 10),
        (8, 18, 6, 16, 5, 7, 1), (8, 32, 6, 14, 10, 11, 1), (12, 26, 10, 24, 16, 14, 1),
        (12, 36, 10, 16, 22, 18, 1), (16, 36, 14, 16, 32, 24, 1), (16, 48, 14, 22, 49, 28, 1),
    ].map { Size(rows: $0.0, columns: $0.1, regionRows: $0.2, regionColumns: $0.3,
                 dataWords: $0.4, checkWords: $0.5, blocks: $0.6) }

    static func size(rows: Int, columns: Int) -> Size? {
        sizes.first { $0.rows == rows && $0.columns == columns }
    }

    let size: Size
    let text: DataMatrixText
    /// Codewords the Reed–Solomon code corrected, over all blocks, and the most any one
    /// block needed of its check words.
    let corrected: Int
    /// Whether every block's check words left a wide margin: at most a quarter of them went
    /// to corrections, so a misread that still checks is far less likely than a right read.
    let isSoundlyChecked: Bool

    /// The symbol `module` shows, given as (column, row) of the whole symbol with row 0 at
    /// the top (the timing pattern's) and column 0 the solid left side; nil when its finder
    /// pattern is not there, its codewords do not check, or they decode to nothing valid.
    init?(size: Size, module: (Int, Int) -> Bool) {
        var words = Self.codewords(size: size, module: module)
        var corrected = 0, sound = true
        let checkPerBlock = size.checkWords / size.blocks
        var data = [Int](repeating: 0, count: size.dataWords)
        for b in 0..<size.blocks {
            let dataCount = size.dataWords(inBlock: b)
            var block = (0..<dataCount).map { words[b + $0 * size.blocks] }
            // The check words go on round the blocks where the data left off: in 144 × 144,
            // whose data ends in block 7, the first check word is block 8's.
            let first = (b - size.dataWords % size.blocks + size.blocks) % size.blocks
            block += (0..<checkPerBlock).map { words[size.dataWords + first + $0 * size.blocks] }
            guard let errors = ReedSolomon.correct(&block, checkWords: checkPerBlock, field: .gf256) else { return nil }
            corrected += errors
            if 4 * errors > checkPerBlock { sound = false }
            for k in 0..<dataCount { data[b + k * size.blocks] = block[k] }
        }
        words = data
        guard let text = DataMatrixText(codewords: words), !text.bytes.isEmpty || text.sequence != nil else { return nil }
        self.size = size
        self.text = text
        self.corrected = corrected
        self.isSoundlyChecked = sound
    }

    /// The codewords in the placement order of ISO/IEC 16022 Annex F, read from the data
    /// regions: data words, then check words, each as 8 modules (the first the most significant bit).
    static func codewords(size: Size, module: (Int, Int) -> Bool) -> [Int] {
        let rows = size.mappingRows, columns = size.mappingColumns
        let total = size.dataWords + size.checkWords
        var words = [Int](repeating: 0, count: total)
        // The module of the whole symbol at mapping-matrix row `r`, column `c`.
        func bit(_ r: Int, _ c: Int) -> Bool {
            let sr = r / size.regionRows * (size.regionRows + 2) + r % size.regionRows + 1
            let sc = c / size.regionColumns * (size.regionColumns + 2) + c % size.regionColumns + 1
            return module(sc, sr)
        }
        for (index, places) in placement(rows: rows, columns: columns).prefix(total).enumerated() {
            words[index] = places.reduce(0) { $0 << 1 | (bit($1.row, $1.column) ? 1 : 0) }
        }
        return words
    }

    /// Where each codeword's eight modules lie in a mapping matrix of `rows` × `columns`,
    /// most significant bit first, codeword by codeword (Annex F: the "utah"-shaped
    /// placement along diagonals, with the four corner cases).
    static func placement(rows nrow: Int, columns ncol: Int) -> [[(row: Int, column: Int)]] {
        var used = [Bool](repeating: false, count: nrow * ncol)
        var out: [[(row: Int, column: Int)]] = []
        func at(_ row: Int, _ column: Int) -> (row: Int, column: Int) {
            var r = row, c = column
            if r < 0 {
                r += nrow
                c += 4 - ((nrow + 4) % 8)
            }
            if c < 0 {
                c += ncol
                r += 4 - ((ncol + 4) % 8)
            }
            return (r, c)
        }
        func add(_ places: [(Int, Int)]) {
            let mapped = places.map { at($0.0, $0.1) }
            for p in mapped where p.row >= 0 && p.row < nrow && p.column >= 0 && p.column < ncol {
                used[p.row * ncol + p.column] = true
            }
            out.append(mapped)
        }
        func utah(_ r: Int, _ c: Int) {
            add([(r - 2, c - 2), (r - 2, c - 1), (r - 1, c - 2), (r - 1, c - 1), (r - 1, c), (r, c - 2), (r, c - 1), (r, c)])
        }
        var row = 4, column = 0
        repeat {
            if row == nrow && column == 0 {
                add([(nrow - 1, 0), (nrow - 1, 1), (nrow - 1, 2), (0, ncol - 2), (0, ncol - 1), (1, ncol - 1), (2, ncol - 1), (3, ncol - 1)])
            }
            if row == nrow - 2 && column == 0 && ncol % 4 != 0 {
                add([(nrow - 3, 0), (nrow - 2, 0), (nrow - 1, 0), (0, ncol - 4), (0, ncol - 3), (0, ncol - 2), (0, ncol - 1), (1, ncol - 1)])
            }
            if row == nrow - 2 && column == 0 && ncol % 8 == 4 {
                add([(nrow - 3, 0), (nrow - 2, 0), (nrow - 1, 0), (0, ncol - 2), (0, ncol - 1), (1, ncol - 1), (2, ncol - 1), (3, ncol - 1)])
            }
            if row == nrow + 4 && column == 2 && ncol % 8 == 0 {
                add([(nrow - 1, 0), (nrow - 1, ncol - 1), (0, ncol - 3), (0, ncol - 2), (0, ncol - 1), (1, ncol - 3), (1, ncol - 2), (1, ncol - 1)])
            }
            // Up and to the right.
            repeat {
                if row < nrow && column >= 0 && !used[row * ncol + column] { utah(row, column) }
                row -= 2
                column += 2
            } while row >= 0 && column < ncol
            row += 1
            column += 3
            // Down and to the left.
            repeat {
                if row >= 0 && column < ncol && !used[row * ncol + column] { utah(row, column) }
                row += 2
                column -= 2
            } while row < nrow && column >= 0
            row += 3
            column += 1
        } while row < nrow || column < ncol
        return out
    }

    /// Whether `module` shows the finder and alignment patterns of `size`: each data region's
    /// left column and bottom row dark, its top row and right column alternating (dark at
    /// even places), allowing `misses` of them to be wrong.
    static func patternMisses(size: Size, module: (Int, Int) -> Bool) -> (misses: Int, checked: Int) {
        var misses = 0, checked = 0
        let h = size.regionRows + 2, w = size.regionColumns + 2
        for r in 0..<size.rows {
            for c in 0..<size.columns {
                let rr = r % h, cc = c % w
                let expected: Bool
                if rr == h - 1 || cc == 0 {
                    expected = true
                } else if rr == 0 {
                    expected = c % 2 == 0
                } else if cc == w - 1 {
                    expected = r % 2 == 1
                } else {
                    continue
                }
                checked += 1
                if module(c, r) != expected { misses += 1 }
            }
        }
        return (misses, checked)
    }
}
