import CISAL

/// The systematic Cauchy Reed–Solomon code over GF(2^8) of docs/FORMAT.md, section 8.4,
/// computed by ISA-L.
///
/// Row `r` of the generator is the unit row `r` for `r < k` (the data chunks themselves) and
/// `1 / (r ⊕ j)` for column `j` when `k ≤ r ≤ 255` (ISA-L's `gf_gen_cauchy1_matrix`, field
/// polynomial x⁸+x⁴+x³+x²+1). Every k×k choice of rows is invertible, so any `k` distinct
/// chunks give back the data.
enum ErasureCode {
    /// The highest row a code has: GF(2^8) has 256 elements.
    static let maxRow = 255

    /// The chunks of `rows` (each in `k...255`) for `data`, `k` chunks of one length.
    /// Calls `gf_gen_cauchy1_matrix`, `ec_init_tables` and `ec_encode_data`.
    static func parity(data: [[UInt8]], rows: [Int]) -> [[UInt8]] {
        let k = data.count
        precondition(k >= 1 && rows.allSatisfy { $0 >= k && $0 <= maxRow }, "parity rows outside the code")
        guard !rows.isEmpty else { return [] }
        let generator = cauchy(k: k, through: rows.max()!)
        let coefficients = rows.flatMap { generator[$0 * k ..< ($0 + 1) * k] }
        return combine(data, coefficients: coefficients, outputs: rows.count)
    }

    /// The `k` data chunks from `k` or more chunks with distinct rows; throws when fewer
    /// than `k` distinct rows are given or their lengths differ. Calls `gf_invert_matrix` and
    /// `ec_encode_data` for the data rows that are missing.
    static func recover(k: Int, chunks: [(row: Int, bytes: [UInt8])]) throws(PartsError) -> [[UInt8]] {
        var byRow: [Int: [UInt8]] = [:]
        for chunk in chunks where (0...maxRow).contains(chunk.row) && byRow[chunk.row] == nil {
            byRow[chunk.row] = chunk.bytes
        }
        guard k >= 1, byRow.count >= k else { throw .incomplete(have: byRow.count, need: k) }
        // Data rows first: each one present is one fewer to compute.
        let chosen = Array(byRow.keys.sorted().prefix(k))
        let length = byRow[chosen[0]]!.count
        guard chosen.allSatisfy({ byRow[$0]!.count == length }) else { throw .inconsistent("parts of unequal length") }
        let missing = (0..<k).filter { byRow[$0] == nil }
        guard !missing.isEmpty else { return (0..<k).map { byRow[$0]! } }

        let generator = cauchy(k: k, through: chosen.max()!)
        var matrix = chosen.flatMap { generator[$0 * k ..< ($0 + 1) * k] }
        var inverse = [UInt8](repeating: 0, count: k * k)
        let singular = matrix.withUnsafeMutableBufferPointer { m in
            inverse.withUnsafeMutableBufferPointer { gf_invert_matrix(m.baseAddress, $0.baseAddress, Int32(k)) }
        }
        // Cannot happen for a Cauchy code; kept as an error rather than a crash.
        guard singular == 0 else { throw .inconsistent("the parts' rows do not determine the message") }
        let coefficients = missing.flatMap { inverse[$0 * k ..< ($0 + 1) * k] }
        let rebuilt = combine(chosen.map { byRow[$0]! }, coefficients: coefficients, outputs: missing.count)
        var data: [[UInt8]] = []
        var next = rebuilt.makeIterator()
        for row in 0..<k { data.append(byRow[row] ?? next.next()!) }
        return data
    }

    /// Rows `0...last` of the generator, `k` bytes each.
    private static func cauchy(k: Int, through last: Int) -> [UInt8] {
        let rows = max(last + 1, k)
        var matrix = [UInt8](repeating: 0, count: rows * k)
        matrix.withUnsafeMutableBufferPointer { gf_gen_cauchy1_matrix($0.baseAddress, Int32(rows), Int32(k)) }
        return matrix
    }

    /// `outputs` chunks, each the GF(2^8) combination of `sources` by one row of `coefficients`.
    private static func combine(_ sources: [[UInt8]], coefficients: [UInt8], outputs: Int) -> [[UInt8]] {
        let k = sources.count, length = sources[0].count
        guard length > 0 else { return Array(repeating: [], count: outputs) }
        var tables = [UInt8](repeating: 0, count: 32 * k * outputs)
        var coefficients = coefficients
        coefficients.withUnsafeMutableBufferPointer { c in
            tables.withUnsafeMutableBufferPointer { ec_init_tables(Int32(k), Int32(outputs), c.baseAddress, $0.baseAddress) }
        }
        var input = sources.flatMap { $0 }
        var output = [UInt8](repeating: 0, count: outputs * length)
        input.withUnsafeMutableBufferPointer { inBuffer in
            output.withUnsafeMutableBufferPointer { outBuffer in
                var inPointers: [UnsafeMutablePointer<UInt8>?] = (0..<k).map { inBuffer.baseAddress! + $0 * length }
                var outPointers: [UnsafeMutablePointer<UInt8>?] = (0..<outputs).map { outBuffer.baseAddress! + $0 * length }
                tables.withUnsafeMutableBufferPointer { t in
                    ec_encode_data(Int32(length), Int32(k), Int32(outputs), t.baseAddress, &inPointers, &outPointers)
                }
            }
        }
        return (0..<outputs).map { Array(output[$0 * length ..< ($0 + 1) * length]) }
    }
}
