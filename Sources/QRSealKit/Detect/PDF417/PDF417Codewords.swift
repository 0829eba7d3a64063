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
    /// (pixels along a scan line), their sum 17 modules. Nil when they draw no codeword.
    static func symbol(widths: UnsafeBufferPointer<Double>) -> Symbol? {
        guard widths.count == 8, let bits = bits(widths, total: 17) else { return nil }
        // The 17 modules, bar first; the last (a space) is left out.
        let code = Int(byPattern[bits >> 1])
        guard code >= 0 else { return nil }
        return Symbol(value: code % 1000, cluster: code / 1000)
    }

    /// `widths` (bar first) as whole modules summing to `total`, each edge placed at the
    /// nearest module boundary so that a bar grown by blur by as much as its neighbouring
    /// space shrinks still reads; given as bits, the first module the most significant, 1
    /// dark. Nil when an element would vanish or grow past 6 modules, or the widths are not
    /// positive and finite. No allocation: it runs for nearly every run of every scan line.
    @inline(__always)
    static func bits(_ widths: UnsafeBufferPointer<Double>, total: Int) -> Int? {
        var sum = 0.0
        for w in widths {
            guard w > 0 else { return nil }
            sum += w
        }
        guard sum.isFinite else { return nil }
        let scale = Double(total) / sum
        var bits = 0, edge = 0.0, previous = 0, dark = true
        for w in widths {
            edge += w
            // Rounded by adding a half and truncating (edges are positive): `rounded()` calls
            // the C library's `round`, which cost more than the rest of the loop.
            let boundary = Int(edge * scale + 0.5)
            let m = boundary - previous
            guard m >= 1, m <= 6 else { return nil }
            bits = bits << m | (dark ? (1 << m) - 1 : 0)
            previous = boundary
            dark.toggle()
        }
        return previous == total ? bits : nil
    }
}
