/// Finds, among the pieces held for a message in parts, one set that rebuilds it: one piece
/// per chosen index, as many indexes of each group (stripe) as the group needs.
///
/// The part check needs no key, so anyone can make a part that passes it, and a misread or
/// forged part may arrive before the sender's own at its index. Every distinct piece is kept
/// (docs/FORMAT.md, section 8.5), and when a set fails the message's own check the search
/// tries others: first the preferred set, then sets that differ from it in one choice, then
/// in two, and so on, each choice being another piece at an index, leaving out an index, or
/// taking in an index the preferred set left out. The work is bounded by `maxAttempts` sets
/// tried and `maxSteps` sets looked at.
struct CandidateSearch {
    /// At most this many sets are rebuilt and checked for one piece received.
    static let maxAttempts = 64
    /// At most this many sets are looked at (most break the counts and are not rebuilt).
    static let maxSteps = 20_000

    /// The pieces held at each index, the preferred (newest) first.
    let candidates: [Int: [[UInt8]]]
    /// The piece just received: every set holds it, since each set without it was tried
    /// when the pieces before it arrived.
    let fixed: (index: Int, bytes: [UInt8])
    /// How many indexes of each group a set takes.
    let need: [Int]
    /// The group of an index.
    let group: (Int) -> Int

    /// One choice at an index: a piece (its position among the candidates), or none.
    private struct Choice { let index: Int; let piece: Int? }

    /// The first result `attempt` gives for a set (indexes ascending, one piece each), or nil
    /// when none of the sets tried gives one.
    func first<T>(_ attempt: ([(index: Int, bytes: [UInt8])]) -> T?) -> T? {
        // The preferred set: the new piece, then the lowest indexes, newest piece each.
        var order = candidates.keys.filter { $0 != fixed.index }.sorted()
        order.insert(fixed.index, at: 0)
        var taken = [Int](repeating: 0, count: need.count)
        var preferred: [Int: Int?] = [:]
        for index in order {
            let g = group(index)
            guard g >= 0 && g < need.count else { continue }
            if index == fixed.index || taken[g] < need[g] {
                taken[g] += 1
                preferred[index] = 0
            } else {
                preferred[index] = .some(nil)
            }
        }
        guard taken == need else { return nil }
        // Every other choice at an index other than the new piece's.
        var alternatives: [Choice] = []
        for index in order where index != fixed.index {
            guard let chosen = preferred[index] else { continue }
            let count = candidates[index]?.count ?? 0
            for piece in 0..<count where piece != chosen { alternatives.append(Choice(index: index, piece: piece)) }
            if chosen != nil { alternatives.append(Choice(index: index, piece: nil)) }
        }
        var attempts = 0, steps = 0
        for changes in 0...alternatives.count {
            var picked = Array(0..<changes)
            while true {
                steps += 1
                if steps > Self.maxSteps { return nil }
                if let set = self.set(preferred, changing: picked.map { alternatives[$0] }) {
                    attempts += 1
                    if let result = attempt(set) { return result }
                    if attempts >= Self.maxAttempts { return nil }
                }
                guard Self.advance(&picked, below: alternatives.count) else { break }
            }
        }
        return nil
    }

    /// The set `preferred` becomes with `changes`; nil when two changes touch one index or the
    /// counts per group no longer match what each needs.
    private func set(_ preferred: [Int: Int?], changing changes: [Choice]) -> [(index: Int, bytes: [UInt8])]? {
        var balance = [Int](repeating: 0, count: need.count)
        var touched = Set<Int>()
        for change in changes {
            guard touched.insert(change.index).inserted, let before = preferred[change.index] else { return nil }
            let g = group(change.index)
            if before == nil { balance[g] += 1 }
            if change.piece == nil { balance[g] -= 1 }
        }
        guard balance.allSatisfy({ $0 == 0 }) else { return nil }
        // Copied only for the few sets that are rebuilt.
        var choice = preferred
        for change in changes { choice[change.index] = change.piece }
        return choice.compactMap { index, piece -> (index: Int, bytes: [UInt8])? in
            guard let piece else { return nil }
            return (index, index == fixed.index ? fixed.bytes : candidates[index]![piece])
        }.sorted { $0.index < $1.index }
    }

    /// The next `picked.count`-element combination of `0..<n` in lexicographic order; false
    /// after the last.
    private static func advance(_ picked: inout [Int], below n: Int) -> Bool {
        var i = picked.count - 1
        while i >= 0 && picked[i] == n - picked.count + i { i -= 1 }
        guard i >= 0 else { return false }
        picked[i] += 1
        for j in i + 1 ..< picked.count { picked[j] = picked[j - 1] + 1 }
        return true
    }
}
