import Foundation
@testable import QRSealKit

/// QR Code Model 1 symbols drawn here, since no tool on this machine makes them (zint and
/// qrencode draw Model 2 and Micro QR only): the bit stream, Reed–Solomon blocks one after
/// another, codewords in `QRModel1.codewordPositions`, the format information under
/// Model 1's mask, and the function patterns as the two symbols of Tests/Images/model1 show
/// them (finders, timing, the dark module, extension patterns on the right and bottom edges,
/// the fixed bottom-right corner). Deterministic.
enum Model1Symbol {
    enum Segment {
        case numeric(String), alphanumeric(String), bytes([UInt8])
        /// Shift_JIS double-byte characters, two bytes each.
        case kanji([UInt8])
    }

    /// The symbol of `version` and `level` holding `segments`, with data mask `mask`; nil
    /// when they do not fit.
    static func matrix(_ segments: [Segment], version: Int, level: ErrorCorrection, mask: Int = 0,
                       structuredAppend: StructuredAppend? = nil) -> QRMatrix? {
        let n = 17 + 4 * version
        let table = QRModel1.blocks[version - 1][QRModel1.levels.firstIndex(of: level)!]
        var bits: [Bool] = []
        func put(_ value: Int, _ count: Int) {
            for i in stride(from: count - 1, through: 0, by: -1) { bits.append(value >> i & 1 == 1) }
        }
        let small = version <= 9
        put(0, 4)
        if let sa = structuredAppend { put(3, 4); put(sa.index, 4); put(sa.count - 1, 4); put(sa.parity, 8) }
        let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:")
        for segment in segments {
            switch segment {
            case .numeric(let digits):
                put(1, 4); put(digits.count, small ? 10 : 12)
                let d = Array(digits.utf8).map { Int($0) - 48 }
                for start in stride(from: 0, to: d.count, by: 3) {
                    let group = d[start..<min(d.count, start + 3)]
                    put(group.reduce(0) { $0 * 10 + $1 }, 3 * group.count + 1)
                }
            case .alphanumeric(let text):
                put(2, 4); put(text.count, small ? 9 : 11)
                let v = text.map { alphabet.firstIndex(of: $0)! }
                for start in stride(from: 0, to: v.count, by: 2) {
                    if start + 1 < v.count { put(v[start] * 45 + v[start + 1], 11) } else { put(v[start], 6) }
                }
            case .bytes(let bytes):
                put(4, 4); put(bytes.count, small ? 8 : 16)
                for b in bytes { put(Int(b), 8) }
            case .kanji(let sjis):
                put(8, 4); put(sjis.count / 2, small ? 8 : 10)
                for i in stride(from: 0, to: sjis.count, by: 2) {
                    let code = Int(sjis[i]) << 8 | Int(sjis[i + 1])
                    let base = code - (code < 0xE040 ? 0x8140 : 0xC140)
                    put((base >> 8) * 0xC0 + (base & 0xFF), 13)
                }
            }
        }
        let capacity = table.count * table.data * 8
        guard bits.count <= capacity else { return nil }
        put(0, min(4, capacity - bits.count))
        while bits.count % 8 != 0 { bits.append(false) }
        var data = stride(from: 0, to: bits.count, by: 8).map { i in bits[i..<(i + 8)].reduce(0) { $0 << 1 | ($1 ? 1 : 0) } }
        var pad = 0xEC
        while data.count < table.count * table.data { data.append(pad); pad ^= 0xEC ^ 0x11 }
        var words = data
        for b in 0..<table.count {
            words += ReedSolomon.checkWords(for: Array(data[(b * table.data)..<((b + 1) * table.data)]), count: table.check,
                                            field: .qr256, firstRoot: 0)
        }
        let positions = QRModel1.codewordPositions(dimension: n)
        words += [Int](repeating: 0, count: positions.count - words.count)
        var modules = functionPatterns(dimension: n, format: formatBits(level: level, mask: mask))
        for (word, places) in zip(words, positions) {
            for (i, place) in places.enumerated() {
                modules[place] = (word >> (7 - i) & 1 == 1) != QRModel1.masked(mask, place % n, place / n)
            }
        }
        // The corner's fixed pattern: the bit stream's four leading zeros are not drawn.
        for (x, y) in [(n - 1, n - 1), (n - 2, n - 1), (n - 1, n - 2), (n - 2, n - 2)] {
            modules[y * n + x] = x == n - 1 && y == n - 1
        }
        return QRMatrix(size: n, version: version, level: level, modules: modules)
    }

    /// The 15 format bits: level and mask, BCH(15,5), under Model 1's mask.
    static func formatBits(level: ErrorCorrection, mask: Int) -> Int {
        let levelBits = QRModel1.levelByBits.firstIndex(of: level)!
        return QRGeometry.formatCodes[levelBits << 3 | mask]! ^ 0x5412 ^ QRModel1.formatMask
    }

    /// Every module that is not a codeword's: finders and separators, timing patterns,
    /// both copies of the format information, the dark module, the extension patterns.
    static func functionPatterns(dimension n: Int, format: Int) -> [Bool] {
        var m = [Bool](repeating: false, count: n * n)
        func set(_ x: Int, _ y: Int, _ dark: Bool) { if x >= 0, y >= 0, x < n, y < n { m[y * n + x] = dark } }
        for (fx, fy) in [(0, 0), (n - 7, 0), (0, n - 7)] {
            for y in 0..<7 {
                for x in 0..<7 {
                    let ring = max(abs(x - 3), abs(y - 3))
                    set(fx + x, fy + y, ring != 2)
                }
            }
        }
        for i in 8..<(n - 8) { set(i, 6, i % 2 == 0); set(6, i, i % 2 == 0) }
        var first: [(Int, Int)] = (0..<6).map { ($0, 8) } + [(7, 8), (8, 8), (8, 7)]
        first += stride(from: 5, through: 0, by: -1).map { (8, $0) }
        let second: [(Int, Int)] = stride(from: n - 1, through: n - 7, by: -1).map { (8, $0) } + ((n - 8)..<n).map { ($0, 8) }
        for (i, (x, y)) in first.enumerated() { set(x, y, format >> (14 - i) & 1 == 1) }
        for (i, (x, y)) in second.enumerated() { set(x, y, format >> (14 - i) & 1 == 1) }
        set(8, n - 8, true)
        let version = (n - 17) / 4, rightRows = version + 2
        // On the right edge: a light column inside a dark one, four modules tall.
        for i in stride(from: 2, to: rightRows - 1, by: 2) {
            for dy in 0..<4 { set(n - 2, n - 1 - 4 * i - dy, false); set(n - 1, n - 1 - 4 * i - dy, true) }
        }
        // On the bottom edge: a light row above a dark one, four modules wide.
        for group in stride(from: 1, to: version, by: 2) {
            for dx in 0..<4 { set(n - 5 - 4 * group - dx, n - 2, false); set(n - 5 - 4 * group - dx, n - 1, true) }
        }
        return m
    }

    /// `matrix` drawn dark on light, `pixelsPerModule` a module, with a quiet zone of
    /// `quiet` modules, turned by `degrees` about its centre, each pixel the mean of 3 × 3
    /// points within it, then blurred by a box of `blur` pixels either side.
    static func image(_ matrix: QRMatrix, pixelsPerModule: Double = 4, quiet: Int = 4, degrees: Double = 0,
                      blur: Int = 0, mirrored: Bool = false) -> GrayImage {
        let n = Double(matrix.size + 2 * quiet)
        let angle = degrees * Double.pi / 180
        let span = n * pixelsPerModule * (abs(cos(angle)) + abs(sin(angle)))
        let side = Int(span.rounded(.up)) + 2
        let c = Double(side) / 2
        var pixels = [UInt8](repeating: 255, count: side * side)
        for y in 0..<side {
            for x in 0..<side {
                var dark = 0
                for sy in 0..<3 {
                    for sx in 0..<3 {
                        let px = Double(x) + (Double(sx) + 0.5) / 3 - c, py = Double(y) + (Double(sy) + 0.5) / 3 - c
                        let u = (px * cos(angle) + py * sin(angle)) / pixelsPerModule + n / 2
                        let v = (-px * sin(angle) + py * cos(angle)) / pixelsPerModule + n / 2
                        let (column, row) = (Int(u.rounded(.down)) - quiet, Int(v.rounded(.down)) - quiet)
                        if mirrored ? matrix[row, column] : matrix[column, row] { dark += 1 }
                    }
                }
                pixels[y * side + x] = UInt8(245 - 220 * dark / 9)
            }
        }
        let image = GrayImage(width: side, height: side, pixels: pixels)
        return blur > 0 ? image.boxBlurred(radius: blur) : image
    }
}
