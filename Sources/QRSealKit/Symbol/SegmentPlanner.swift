/// Splits input into the sequence of numeric, alphanumeric and byte segments that
/// takes the fewest bits.
///
/// Dynamic programming over the input: for each position and each mode, the cheapest
/// way to have encoded the prefix ending in that mode. Costs are kept in sixths of a bit
/// so that numeric (10/3 bits a digit) and alphanumeric (11/2 bits a character) are exact
/// per character; a segment's partial group is rounded up when the mode changes.
public enum SegmentPlanner {
    /// The cheapest segmentation of `bytes` for a symbol of `version` (the count-field
    /// sizes depend on the version range 1–9, 10–26 or 27–40).
    public static func plan(_ bytes: [UInt8], version: Int) -> [Segment] {
        guard !bytes.isEmpty else { return [] }
        let modes = Segment.Mode.allCases
        let n = bytes.count
        let infinity = Int.max / 4
        // cost[i][m]: cheapest sixths-of-bits for bytes[0..<i] ending in mode m (segment still open).
        var cost = [[Int]](repeating: [Int](repeating: infinity, count: modes.count), count: n + 1)
        var from = [[Int]](repeating: [Int](repeating: -1, count: modes.count), count: n + 1)
        let header = modes.map { (4 + $0.countBits(version: version)) * 6 }
        let perChar = modes.map { mode -> Int in
            switch mode {
            case .numeric: return 20
            case .alphanumeric: return 33
            case .byte: return 48
            }
        }
        for m in modes.indices { cost[0][m] = 0 }
        for i in 0..<n {
            // Close any open segment (rounding its partial group up) before switching.
            let closed = modes.indices.map { roundUpToBit(cost[i][$0]) }
            for (m, mode) in modes.enumerated() where mode.accepts(bytes[i]) {
                for p in modes.indices {
                    let start = i == 0 || p != m ? closed[p] + header[m] : cost[i][p]
                    guard start < infinity else { continue }
                    let c = start + perChar[m]
                    if c < cost[i + 1][m] {
                        cost[i + 1][m] = c
                        from[i + 1][m] = i == 0 ? -1 : p
                    }
                }
            }
        }
        var best = 0
        for m in modes.indices where roundUpToBit(cost[n][m]) < roundUpToBit(cost[n][best]) { best = m }
        // Walk back, collecting the mode of each byte, then group runs into segments.
        var byteModes = [Int](repeating: 0, count: n)
        var m = best
        for i in stride(from: n, to: 0, by: -1) {
            byteModes[i - 1] = m
            let p = from[i][m]
            if p >= 0 { m = p }
        }
        var segments: [Segment] = []
        var start = 0
        for i in 1...n where i == n || byteModes[i] != byteModes[start] {
            segments.append(Segment(mode: modes[byteModes[start]], bytes: Array(bytes[start..<i])))
            start = i
        }
        return merged(segments, version: version)
    }

    /// Joins neighbouring segments of one mode, which the walk back can leave split.
    private static func merged(_ segments: [Segment], version: Int) -> [Segment] {
        var out: [Segment] = []
        for s in segments {
            if let last = out.last, last.mode == s.mode {
                out[out.count - 1] = Segment(mode: s.mode, bytes: last.bytes + s.bytes)
            } else {
                out.append(s)
            }
        }
        return out
    }

    private static func roundUpToBit(_ sixths: Int) -> Int {
        sixths >= Int.max / 4 ? sixths : (sixths + 5) / 6 * 6
    }
}
