/// One of MicroPDF417's 34 sizes (ISO/IEC 24728, Table 1) and where its rows start among
/// the 52 row address patterns and the three clusters (Tables 10 to 12). The numbers are
/// those of zint's backend/pdf417_tabs.h (`zint_pdf_MicroVariants`, `zint_pdf_RAPTable`,
/// BSD-3-Clause), which takes them from the standard.
struct MicroPDF417Variant: Equatable, Sendable {
    let columns: Int
    let rows: Int
    let checkWords: Int
    /// The row address pattern numbers (1 … 52) of the first row: left, centre (3- and
    /// 4-column variants only), right. Each next row takes the next number, 52 wrapping to 1.
    let left: Int, centre: Int, right: Int
    /// The first row's cluster, 0, 3 or 6; each next row takes the next, 6 wrapping to 0.
    let cluster: Int

    var codewords: Int { columns * rows }
    var dataWords: Int { codewords - checkWords }

    /// Row `row`'s row address pattern number counting from `first`.
    static func address(_ first: Int, row: Int) -> Int { (first - 1 + row) % 52 + 1 }

    /// Row `row`'s cluster.
    func cluster(row: Int) -> Int { (cluster / 3 + row) % 3 * 3 }

    static let all: [MicroPDF417Variant] = {
        let columns = [1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4]
        let rows = [11, 14, 17, 20, 24, 28, 8, 11, 14, 17, 20, 23, 26, 6, 8, 10, 12, 15, 20, 26, 32, 38, 44,
                    4, 6, 8, 10, 12, 15, 20, 26, 32, 38, 44]
        let check = [7, 7, 7, 8, 8, 8, 8, 9, 9, 10, 11, 13, 15, 12, 14, 16, 18, 21, 26, 32, 38, 44, 50,
                     8, 12, 14, 16, 18, 21, 26, 32, 38, 44, 50]
        let left = [1, 8, 36, 19, 9, 25, 1, 1, 8, 36, 19, 9, 27, 1, 7, 15, 25, 37, 1, 1, 21, 15, 1,
                    47, 1, 7, 15, 25, 37, 1, 1, 21, 15, 1]
        let centre = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 7, 15, 25, 37, 17, 9, 29, 31, 25,
                      19, 1, 7, 15, 25, 37, 17, 9, 29, 31, 25]
        let right = [9, 8, 36, 19, 17, 33, 1, 9, 8, 36, 19, 17, 35, 1, 7, 15, 25, 37, 33, 17, 37, 47, 49,
                     43, 1, 7, 15, 25, 37, 33, 17, 37, 47, 49]
        let cluster = [0, 3, 6, 0, 6, 0, 0, 0, 3, 6, 0, 6, 6, 0, 0, 6, 0, 0, 0, 0, 6, 6, 0,
                       3, 0, 0, 6, 0, 0, 0, 0, 6, 6, 0]
        return (0..<34).map {
            MicroPDF417Variant(columns: columns[$0], rows: rows[$0], checkWords: check[$0],
                               left: left[$0], centre: centre[$0], right: right[$0], cluster: cluster[$0])
        }
    }()
}

/// The row address patterns (ISO/IEC 24728, Table 2): 3 bars and 3 spaces over 10 modules,
/// 52 for the left and right sides and 52 for the centre. The values are those of zint's
/// backend/pdf417_tabs.h (`zint_pdf_rap_side`, `zint_pdf_rap_centre`, BSD-3-Clause): the 10
/// modules, most significant bit first, 1 dark.
enum MicroPDF417RowAddress {
    /// A row address pattern as read: which kind, and its number 1 … 52.
    struct Pattern: Hashable, Sendable {
        let isCentre: Bool
        let number: Int
    }

    static let side: [UInt16] = [
        0x322, 0x3A2, 0x3B2, 0x332, 0x372, 0x37A, 0x33A, 0x3BA, 0x39A, 0x3DA,
        0x3CA, 0x38A, 0x30A, 0x31A, 0x312, 0x392, 0x3D2, 0x3D6, 0x3D4, 0x394,
        0x3B4, 0x3A4, 0x3A6, 0x3AE, 0x3AC, 0x3A8, 0x328, 0x32C, 0x32E, 0x326,
        0x336, 0x3B6, 0x396, 0x316, 0x314, 0x334, 0x374, 0x364, 0x366, 0x36E,
        0x36C, 0x368, 0x348, 0x358, 0x35C, 0x35E, 0x34E, 0x34C, 0x344, 0x346,
        0x342, 0x362,
    ]

    static let centre: [UInt16] = [
        0x2CE, 0x24E, 0x26E, 0x22E, 0x226, 0x236, 0x216, 0x212, 0x21A, 0x23A,
        0x232, 0x222, 0x262, 0x272, 0x27A, 0x2FA, 0x2F2, 0x2F6, 0x276, 0x274,
        0x264, 0x266, 0x246, 0x242, 0x2C2, 0x2E2, 0x2E6, 0x2E4, 0x2EC, 0x26C,
        0x22C, 0x228, 0x268, 0x2E8, 0x2C8, 0x2CC, 0x2C4, 0x2C6, 0x286, 0x28E,
        0x28C, 0x29C, 0x298, 0x2B8, 0x2B0, 0x290, 0x2D0, 0x250, 0x258, 0x25C,
        0x2DC, 0x2DE,
    ]

    /// For each 10-bit pattern, its number (1 … 52), +100 for a centre one; 0 for none.
    private static let byPattern: [UInt8] = {
        var table = [UInt8](repeating: 0, count: 1 << 10)
        for (i, p) in side.enumerated() { table[Int(p)] = UInt8(i + 1) }
        for (i, p) in centre.enumerated() { table[Int(p)] = UInt8(i + 101) }
        return table
    }()

    /// The pattern whose six elements, bar first, are `widths` (in any unit, their sum 10
    /// modules); nil when they draw none.
    static func pattern(widths: UnsafeBufferPointer<Double>) -> Pattern? {
        guard widths.count == 6, let bits = PDF417Codewords.bits(widths, total: 10) else { return nil }
        let code = Int(byPattern[bits])
        guard code > 0 else { return nil }
        return code > 100 ? Pattern(isCentre: true, number: code - 100) : Pattern(isCentre: false, number: code)
    }
}
