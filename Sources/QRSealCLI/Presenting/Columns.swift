/// Rows of cells as lines in columns: every cell but a row's last padded to its column's
/// widest, two spaces between, as `keys list` and `contacts list` print them.
enum Columns {
    static func lines(_ rows: [[String]]) -> [String] {
        var widths: [Int] = []
        for row in rows {
            for (i, cell) in row.dropLast().enumerated() {
                if i == widths.count { widths.append(0) }
                widths[i] = max(widths[i], cell.count)
            }
        }
        return rows.map { row in
            row.enumerated().map { i, cell in
                i == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[i] - cell.count)
            }.joined(separator: "  ")
        }
    }
}
