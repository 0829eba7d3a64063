/// What one scan line shows of MicroPDF417 rows: each row address pattern (RAP) read with a
/// codeword beside it. A MicroPDF417 row is a left RAP, one or two codewords, a centre RAP
/// in 3- and 4-column symbols, one or two more, a right RAP and a one-module bar; every
/// codeword stands next to a RAP, so that a RAP, its number and the codeword beside it
/// place that codeword in the symbol once its variant is known, wherever along the row
/// the line crossed it and at whatever angle, without finding the row's ends.
struct MicroPDF417Fragment: Hashable, Sendable {
    /// The RAP, the codeword's cluster and whether the codeword follows the RAP along the
    /// line (after) or precedes it: what places the codeword.
    struct Key: Hashable, Sendable {
        let rap: MicroPDF417RowAddress.Pattern
        let after: Bool
        let cluster: Int
    }

    let key: Key
    let value: Int
    /// Where the RAP's first run starts and its last ends, along the line.
    let rapStart: Double, rapEnd: Double
}

enum MicroPDF417Lines {
    /// How far a codeword's width may stray from 1.7 times its RAP's (17 modules to 10).
    static let widthTolerance = 0.2
    /// The narrowest RAP read, in pixels: modules of 1.2 pixels. Noise makes many runs of a
    /// pixel or two, which are passed over without a look at their patterns.
    static let narrowestRAP = 12.0

    /// The fragments of one line given as its runs' widths, the first run dark when
    /// `firstDark`, starting at `origin` along the line (in the line's unit). Reading the
    /// line the other way is another call, with the widths reversed. `sums` is scratch space.
    static func fragments(widths: UnsafeBufferPointer<Double>, firstDark: Bool, origin: Double = 0,
                          sums: inout [Double], into out: inout [MicroPDF417Fragment]) {
        let n = widths.count
        guard n >= 14 else { return }
        // sums[k]: where run k starts, so that any stretch's width is one subtraction.
        sums.removeAll(keepingCapacity: true)
        var position = origin
        for w in widths {
            sums.append(position)
            position += w
        }
        sums.append(position)
        var i = firstDark ? 0 : 1
        while i + 6 <= n {
            let rapWidth = sums[i + 6] - sums[i]
            guard rapWidth >= narrowestRAP else {
                i += 2
                continue
            }
            let low = rapWidth * 1.7 * (1 - widthTolerance), high = rapWidth * 1.7 * (1 + widthTolerance)
            // Only a codeword of the right width beside it makes the RAP worth decoding.
            let afterFits = i + 14 <= n && (low...high).contains(sums[i + 14] - sums[i + 6])
            let beforeFits = i >= 8 && (low...high).contains(sums[i] - sums[i - 8])
            if afterFits || beforeFits,
               let rap = MicroPDF417RowAddress.pattern(widths: UnsafeBufferPointer(rebasing: widths[i..<(i + 6)])) {
                if afterFits, let symbol = PDF417Codewords.symbol(widths: UnsafeBufferPointer(rebasing: widths[(i + 6)..<(i + 14)])) {
                    out.append(MicroPDF417Fragment(key: .init(rap: rap, after: true, cluster: symbol.cluster),
                                                   value: symbol.value, rapStart: sums[i], rapEnd: sums[i + 6]))
                }
                if beforeFits, let symbol = PDF417Codewords.symbol(widths: UnsafeBufferPointer(rebasing: widths[(i - 8)..<i])) {
                    out.append(MicroPDF417Fragment(key: .init(rap: rap, after: false, cluster: symbol.cluster),
                                                   value: symbol.value, rapStart: sums[i], rapEnd: sums[i + 6]))
                }
            }
            i += 2
        }
    }
}
