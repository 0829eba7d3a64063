/// A frame reduced to the mean of each 8×8 cell: cheap to compare with another, and blind to
/// sensor noise, which the mean of 64 pixels evens out. What a live text session looks at to
/// tell a picture that moves from one that is steady, and where it changed.
struct CellImage: Sendable, Equatable {
    static let cell = 8
    let columns: Int
    let rows: Int
    var cells: [UInt8]

    /// The means of `image`'s cells, over every other pixel of every other row (16 of a
    /// cell's 64: a quarter of the work, and still blind to noise); a partial cell at the
    /// right or bottom edge over the pixels it has.
    init(_ image: GrayImage) {
        let n = Self.cell
        columns = (image.width + n - 1) / n
        rows = (image.height + n - 1) / n
        let width = image.width, height = image.height, columns = columns
        var sums = [Int](repeating: 0, count: columns * rows)
        sums.withUnsafeMutableBufferPointer { sums in
            image.pixels.withUnsafeBufferPointer { pixels in
                for y in stride(from: 0, to: height, by: 2) {
                    let cellRow = (y >> 3) * columns, base = y * width
                    for x in stride(from: 0, to: width, by: 2) { sums[cellRow + (x >> 3)] += Int(pixels[base + x]) }
                }
            }
        }
        cells = (0..<sums.count).map { i in
            let cw = min(n, width - (i % columns) * n), ch = min(n, height - (i / columns) * n)
            return UInt8(sums[i] / max(1, ((cw + 1) / 2) * ((ch + 1) / 2)))
        }
    }

    /// The cells (by index) that differ from `other`'s by `threshold` grey levels or more,
    /// leaving out those `ignored` holds; every cell when the sizes differ.
    func changed(from other: CellImage?, threshold: Int, ignoring ignored: Set<Int> = []) -> [Int] {
        guard let other, other.columns == columns, other.rows == rows else { return Array(cells.indices) }
        return cells.indices.filter { abs(Int(cells[$0]) - Int(other.cells[$0])) >= threshold && !ignored.contains($0) }
    }

    /// The cells a rectangle of frame pixels touches.
    func cells(in region: Region) -> [Int] {
        let n = Self.cell
        let left = max(0, region.x / n), right = min(columns, (region.x + region.width + n - 1) / n)
        let top = max(0, region.y / n), bottom = min(rows, (region.y + region.height + n - 1) / n)
        guard right > left, bottom > top else { return [] }
        return (top..<bottom).flatMap { row in (left..<right).map { row * columns + $0 } }
    }

    /// The frame pixels of the smallest rectangle holding `indices`; nil for none.
    func region(of indices: [Int]) -> Region? {
        guard !indices.isEmpty else { return nil }
        let xs = indices.map { $0 % columns }, ys = indices.map { $0 / columns }
        let n = Self.cell
        return Region(x: xs.min()! * n, y: ys.min()! * n,
                      width: (xs.max()! - xs.min()! + 1) * n, height: (ys.max()! - ys.min()! + 1) * n)
    }
}
