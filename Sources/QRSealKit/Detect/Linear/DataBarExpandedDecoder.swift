/// Reads a GS1 DataBar Expanded or Expanded Stacked (ISO/IEC 24724) from the widths of its
/// elements along scan lines (`WidthReader`).
///
/// The symbol is a left guard (a light and a dark module), pairs of characters and a right
/// guard. Each pair is a character read left to right (17 modules, 8 elements), a finder
/// (15 modules, 5 elements: A to F, mirrored in a pair of odd index) and a character read
/// right to left; the first pair's left character is the check character, the last pair
/// may have no right one. A stacked symbol puts some pairs on each row, a row read right to
/// left where the standard turns it; an element is light or dark as it would be in one row,
/// so a finder's colour tells which way a scan line crosses it. Every pair a scan line
/// crosses is a `Piece`, whatever the row, since each finder in a sequence (table 16) is
/// there once with its parity: the pieces of all scan lines vote for each character, and a
/// reading counts only when the check character (the number of characters and the weighted
/// sum of the others' widths, modulo 211) holds over the characters the votes chose, each
/// beside the finder its place in the sequence requires.
enum DataBarExpandedDecoder {
    /// The groups of character values (ISO/IEC 24724, table 13): each character's odd
    /// elements rank first, among those with a narrow element.
    static let groups: [DataBarDecoder.Group] = [
        .init(start: 0, oddModules: 12, widestOdd: 7, widestEven: 2, subsets: 4),
        .init(start: 348, oddModules: 10, widestOdd: 5, widestEven: 4, subsets: 20),
        .init(start: 1388, oddModules: 8, widestOdd: 4, widestEven: 5, subsets: 52),
        .init(start: 2948, oddModules: 6, widestOdd: 3, widestEven: 6, subsets: 104),
        .init(start: 3988, oddModules: 4, widestOdd: 1, widestEven: 8, subsets: 204),
    ]
    /// Finders A to F (table 15) as a pair of even index shows them, left to right, from a
    /// light element.
    static let finders: [[Int]] = [[1, 8, 4, 1, 1], [3, 6, 4, 1, 1], [3, 4, 6, 1, 1], [3, 2, 8, 1, 1], [2, 6, 5, 1, 1], [2, 2, 9, 1, 1]]
    /// The finders of a symbol of 2 to 11 pairs, in order (table 16, A = 0); pair k's finder
    /// is mirrored when k is odd.
    static let sequences: [[Int]] = [
        [0, 0], [0, 1, 1], [0, 2, 1, 3], [0, 4, 1, 3, 2], [0, 4, 1, 3, 3, 5], [0, 4, 1, 3, 4, 5, 5],
        [0, 0, 1, 1, 2, 2, 3, 3], [0, 0, 1, 1, 2, 2, 3, 4, 4], [0, 0, 1, 1, 2, 2, 3, 4, 5, 5], [0, 0, 1, 1, 2, 3, 3, 4, 4, 5, 5],
    ]
    /// The checksum weights of the elements of a data character (table 14), by the row its
    /// finder, the parity of its pair and its side give (`Slot.weightRow`): powers of 3
    /// modulo 211, eight a row.
    static let weights: [[Int]] = (0..<23).map { row in
        (0..<8).map { element in (0..<(8 * row + element)).reduce(1) { power, _ in power * 3 % 211 } }
    }
    /// The most characters a symbol has, the check character included.
    static let maxCharacters = 22

    /// Where a character stands: beside which finder, in a pair of odd index or not, on its
    /// right or its left.
    struct Slot: Hashable {
        let finder: Int, odd: Bool, right: Bool

        /// The row of `weights` of the character in this slot (not the check character).
        var weightRow: Int { 4 * finder + (odd ? 2 : 0) + (right ? 1 : 0) - 1 }
    }

    /// A pair as one scan line shows it: its finder, and the module widths of the
    /// characters either side of it that the tables allow, each in its own reading order.
    struct Piece {
        let finder: Int, odd: Bool
        let left: [Int]?, right: [Int]?
        /// Where the pair lies along the run (its edges' samples), the first and last of
        /// its elements that were read.
        let from: Double, to: Double
    }

    /// The value of a character's 8 module widths in its reading order, nil when no group
    /// holds them or it is above the 12 bits a data character carries.
    static func value(_ modules: [Int]) -> Int? {
        guard let value = DataBarDecoder.value(modules, in: groups, oddMajor: true, oddNoNarrow: true), value < 4096 else { return nil }
        return value
    }

    /// The pairs `run` crosses in its own direction: five elements that round to a finder
    /// whose colour says it is read the way the symbol runs, with a character the tables
    /// allow beside it, about 17 modules wide where the finder is 15.
    static func pieces(_ run: ElementRun) -> [Piece] {
        let w = run.widths, edges = run.edges
        // The first and the last element are cut by the profile's ends.
        guard w.count >= 15 else { return [] }
        var found: [Piece] = []
        for i in 1...(w.count - 6) {
            // A pair of odd index starts dark and shows its finder mirrored.
            let odd = run.isDark(i)
            // Cheap first: the finder's two narrow elements at its end.
            let size = w[i] + w[i + 1] + w[i + 2] + w[i + 3] + w[i + 4]
            let (n1, n2) = odd ? (w[i], w[i + 1]) : (w[i + 3], w[i + 4])
            guard size > 0, max(n1, n2) < size * 1.75 / 15 else { continue }
            let window = Array(w[i..<(i + 5)])
            guard let modules = DataBarDecoder.modules(window, total: 15) else { continue }
            guard let finder = finders.firstIndex(of: odd ? modules.reversed() : modules) else { continue }
            func character(_ range: Range<Int>, reversed: Bool) -> [Int]? {
                guard range.lowerBound >= 1, range.upperBound <= w.count - 1 else { return nil }
                let widths = reversed ? Array(w[range].reversed()) : Array(w[range])
                let sum = widths.reduce(0, +)
                guard abs(sum / size * 15 / 17 - 1) < 0.15, let modules = DataBarDecoder.modules(widths, total: 17),
                      value(modules) != nil else { return nil }
                return modules
            }
            let left = character((i - 8)..<i, reversed: false), right = character((i + 5)..<(i + 13), reversed: true)
            guard left != nil || right != nil else { continue }
            found.append(Piece(finder: finder, odd: odd, left: left, right: right,
                               from: edges[left == nil ? i : i - 8], to: edges[right == nil ? i + 5 : i + 13]))
        }
        return found
    }

    /// The pairs `run` crosses either way, with where they lie along it as it is.
    static func piecesBothWays(_ run: ElementRun) -> [Piece] {
        pieces(run) + pieces(run.reversed).map { piece in
            Piece(finder: piece.finder, odd: piece.odd, left: piece.left, right: piece.right,
                  from: run.unreversed(piece.to), to: run.unreversed(piece.from))
        }
    }

    /// How many scan lines showed each character in each slot.
    typealias Votes = [Slot: [[Int]: Int]]

    /// Adds the characters of `pieces`, all of one scan line, to `votes`: one vote a line.
    static func vote(_ pieces: [Piece], into votes: inout Votes) {
        var seen: Set<[Int]> = []
        for piece in pieces {
            for (modules, right) in [(piece.left, false), (piece.right, true)] {
                guard let modules else { continue }
                let slot = Slot(finder: piece.finder, odd: piece.odd, right: right)
                guard seen.insert([slot.finder, slot.odd ? 1 : 0, right ? 1 : 0] + modules).inserted else { continue }
                votes[slot, default: [:]][modules, default: 0] += 1
            }
        }
    }

    /// The element string of the symbol `votes` show, or nil when some slot its check
    /// character calls for has no character that at least `minimum` lines and more than any
    /// other showed, or the check character does not hold.
    static func decode(_ votes: Votes, minimum: Int) -> [UInt8]? {
        func chosen(_ slot: Slot) -> [Int]? {
            guard let tally = votes[slot] else { return nil }
            let ranked = tally.sorted { $0.value > $1.value }
            guard ranked[0].value >= minimum, ranked.count == 1 || ranked[0].value > ranked[1].value else { return nil }
            return ranked[0].key
        }
        // The check character: the first pair's left, beside finder A.
        guard let check = chosen(Slot(finder: 0, odd: false, right: false)), let checkValue = value(check) else { return nil }
        let count = checkValue / 211 + 4
        guard count <= maxCharacters else { return nil }
        let sequence = sequences[(count + 1) / 2 - 2]
        var checksum = 0, values: [Int] = []
        for index in 1..<count {
            let pair = index / 2
            let slot = Slot(finder: sequence[pair], odd: pair % 2 == 1, right: index % 2 == 1)
            guard let modules = chosen(slot), let value = value(modules) else { return nil }
            checksum += zip(modules, weights[slot.weightRow]).reduce(0) { $0 + $1.0 * $1.1 }
            values.append(value)
        }
        guard 211 * (count - 4) + checksum % 211 == checkValue else { return nil }
        let bits = values.flatMap { value in (0..<12).reversed().map { value >> $0 & 1 == 1 } }
        // An element string starts with an AI's digits and holds printable characters and
        // separators only.
        guard let text = DataBarExpandedData.elementString(bits), text.count >= 2,
              text.prefix(2).allSatisfy({ (48...57).contains($0) }),
              text.allSatisfy({ $0 == GS1.groupSeparator || (32...126).contains($0) }) else { return nil }
        return text
    }
}
