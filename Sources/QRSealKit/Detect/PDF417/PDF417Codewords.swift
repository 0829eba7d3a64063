/// The symbol characters PDF417 and MicroPDF417 share (ISO/IEC 15438, 5.3; ISO/IEC 24728):
/// each codeword 0 … 928 is drawn as 4 bars and 4 spaces over 17 modules, each element 1 to
/// 6 modules wide, in one of three clusters (0, 3, 6) that rows take in turn; the cluster
/// shows in the widths themselves, (b1 − b2 + b3 − b4 + 9) mod 9 of the bars.
enum PDF417Codewords {
    /// One codeword as read: its value and its cluster (0, 3 or 6).
    struct Symbol: Equatable, Hashable, Sendable {
        let value: Int
        let cluster: Int
    }

    /// For each 16-bit pattern (`patterns`' form), the codeword it draws as cluster · 1000 +
    /// value, or −1 for none.
    private static let byPattern: [Int16] = {
        var table = [Int16](repeating: -1, count: 1 << 16)
        for (index, pattern) in patterns.enumerated() {
            table[Int(pattern)] = Int16(index / 929 * 3 * 1000 + index % 929)
        }
        return table
    }()

    /// The codeword whose elements are `widths`: eight widths, bar first, in any unit
    /// (pixels along a scan line), their sum 17 modules. Each edge is placed at the nearest
    /// module boundary, so that a bar grown by blur by as much as its neighbouring space
    /// shrinks still reads. Nil when the widths draw no codeword.
    static func symbol<C: Collection>(widths: C) -> Symbol? where C.Element == Double {
        guard widths.count == 8, let modules = modules(widths, total: 17) else { return nil }
        // The 17 modules, bar first, as bits; the last (a space) is left out.
        var bits = 0, dark = true
        for m in modules {
            for _ in 0..<m { bits = bits << 1 | (dark ? 1 : 0) }
            dark.toggle()
        }
        let code = Int(byPattern[bits >> 1])
        guard code >= 0 else { return nil }
        return Symbol(value: code % 1000, cluster: code / 1000)
    }

    /// `widths` as whole modules summing to `total`, each edge rounded to the nearest module
    /// boundary; nil when an element would vanish, grow past 6 modules, or the widths are not
    /// positive and finite.
    static func modules<C: Collection>(_ widths: C, total: Int) -> [Int]? where C.Element == Double {
        let sum = widths.reduce(0, +)
        guard sum.isFinite, sum > 0 else { return nil }
        let scale = Double(total) / sum
        var out: [Int] = []
        out.reserveCapacity(widths.count)
        var edge = 0.0, previous = 0
        for w in widths {
            guard w > 0 else { return nil }
            edge += w
            let boundary = Int((edge * scale).rounded())
            let m = boundary - previous
            guard m >= 1, m <= 6 else { return nil }
            out.append(m)
            previous = boundary
        }
        return out
    }
}
