/// "did you mean" for a mistyped command or option: the nearest known name by edit distance.
enum Suggestion {
    /// The candidate nearest to `typed`, if it is near enough to be a slip (at most one edit
    /// in four letters, and at most two); ties go to the earlier candidate.
    static func nearest(_ typed: String, among candidates: [String]) -> String? {
        let limit = min(2, max(1, typed.count / 4))
        var best: (name: String, distance: Int)?
        for name in candidates {
            let d = distance(typed.lowercased(), name.lowercased())
            // Nothing is "near" a word it shares no letter with ("x" and "L").
            if d <= limit, d < typed.count, d < name.count, d < (best?.distance ?? .max) { best = (name, d) }
        }
        return best?.name
    }

    /// The Damerau–Levenshtein distance (optimal string alignment): insertions, deletions,
    /// substitutions and swaps of neighbours each count one.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
                }
            }
        }
        return d[a.count][b.count]
    }
}
