/// The runs of one colour along each row of a binarized image, found once and shared by our
/// readers that scan rows (`DataMatrixReader`'s labelling of dark and of light pixels,
/// `AztecReader`'s bull's-eye search), so that no reader walks the image pixel by pixel.
struct RowRuns: Sendable {
    let width: Int, height: Int
    /// Row y's runs start at `bounds[first[y]]` (always 0), `bounds[first[y] + 1]` …, and its
    /// last run ends at `bounds[first[y + 1] - 1]` (always `width`): a row of k runs holds
    /// k + 1 bounds.
    let bounds: [Int32]
    /// Where each row's bounds begin in `bounds`, and one more for the end.
    let first: [Int]
    /// Whether each row's first run is dark; the colours alternate from there.
    let firstDark: [Bool]

    /// The runs of `dark` (true is dark, row by row, `width` × `height`). Eight pixels are
    /// compared with their right-hand neighbours at a time: most of a row is long runs.
    init(dark: [Bool], width: Int, height: Int) {
        self.width = width
        self.height = height
        var bounds: [Int32] = [], first = [Int](repeating: 0, count: height + 1)
        var firstDark = [Bool](repeating: false, count: height)
        guard width > 0, height > 0, dark.count == width * height else {
            self.bounds = []; self.first = first; self.firstDark = firstDark
            return
        }
        bounds.reserveCapacity(2 * height + dark.count / 16)
        dark.withUnsafeBytes { raw in
            for y in 0..<height {
                let row = y * width
                first[y] = bounds.count
                firstDark[y] = raw[row] != 0
                bounds.append(0)
                // A change between x - 1 and x starts a run at x.
                var x = 1
                while x + 8 <= width {
                    let a = raw.loadUnaligned(fromByteOffset: row + x - 1, as: UInt64.self)
                    let b = raw.loadUnaligned(fromByteOffset: row + x, as: UInt64.self)
                    var changes = a ^ b
                    if changes == 0 {
                        x += 8
                        continue
                    }
                    while changes != 0 {
                        // Bools are bytes of 0 or 1, loaded least significant first.
                        bounds.append(Int32(x + changes.trailingZeroBitCount / 8))
                        changes &= changes - 1
                    }
                    x += 8
                }
                while x < width {
                    if raw[row + x] != raw[row + x - 1] { bounds.append(Int32(x)) }
                    x += 1
                }
                bounds.append(Int32(width))
            }
        }
        first[height] = bounds.count
        self.bounds = bounds
        self.first = first
        self.firstDark = firstDark
    }
}
