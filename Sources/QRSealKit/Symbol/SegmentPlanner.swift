/// Splits input into the sequence of numeric, alphanumeric and byte segments that
/// takes the fewest bits.
///
/// Dynamic programming over the input: for each position and each mode, the cheapest
/// way to have encoded the prefix ending in that mode. Costs are kept in sixths of a bit
/// so that numeric (10/3 bits a digit) and alphanumeric (11/2 bits a character) are exact
/// per character; a segment's partial group is rounded up when the mode changes. Time and
/// memory are linear in the input: one row of costs, and one byte per position and mode
/// for the walk back.
public enum SegmentPlanner {
    /// The cheapest segmentation of `bytes` for a symbol of `version` (the count-field
    /// sizes depend on the version range 1–9, 10–26 or 27–40).
    public static func plan(_ bytes: [UInt8], version: Int) -> [Segment] {
        guard !bytes.isEmpty else { return [] }
        let modes = Segment.Mode.allCases
        let n = bytes.count, k = modes.count
        let infinity = Int.max / 4
        let none = UInt8.max
        // cost[m]: cheapest sixths-of-bits for the bytes so far, ending in mode m (segment
        // still open); from[i * k + m]: the mode before byte i when byte i is in mode m.
        var cost = [Int](repeating: 0, count: k)
        var from = [UInt8](repeating: none, count: n * k)
        let header = modes.map { (4 + $0.countBits(version: version)) * 6 }
        let perChar = modes.map { mode -> Int in
            switch mode {
            case .numeric: return 20
            case .alphanumeric: return 33
            case .byte: return 48
            }
        }
        for i in 0..<n {
            // Close any open segment (rounding its partial group up) before switching.
            let closed = cost.map(roundUpToBit)
            var next = [Int](repeating: infinity, count: k)
            for (m, mode) in modes.enumerated() where mode.accepts(bytes[i]) {
                for p in 0..<k {
                    let start = i == 0 || p != m ? closed[p] + header[m] : cost[p]
                    guard start < infinity else { continue }
                    let c = start + perChar[m]
                    if c < next[m] {
                        next[m] = c
                        from[i * k + m] = i == 0 ? none : UInt8(p)
                    }
                }
            }
            cost = next
        }
        var best = 0
        for m in modes.indices where roundUpToBit(cost[m]) < roundUpToBit(cost[best]) { best = m }
        // Walk back, collecting the mode of each byte, then group runs into segments.
        var byteModes = [Int](repeating: 0, count: n)
        var m = best
        for i in stride(from: n, to: 0, by: -1) {
            byteModes[i - 1] = m
            let p = from[(i - 1) * k + m]
            if p != none { m = Int(p) }
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
