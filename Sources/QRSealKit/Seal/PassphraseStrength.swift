import FoundationEssentials
import Glibc

/// A rough, offline estimate of how hard a passphrase is to guess, in bits: each character
/// counts as a pick from the classes the passphrase draws on (lower case, upper case, digits,
/// other), except one that repeats the character before it or goes one step on from it
/// ("aaa", "abc", "321"), which counts 1 bit. No word list is consulted, so a dictionary word
/// counts for more than it is worth; the estimate is a floor for warning, not a score.
public enum PassphraseStrength {
    /// Below this many bits `qrseal` warns. A sealed code travels in plain sight, so anyone
    /// may guess offline; at the standard scrypt cost (N = 2^17, r = 8, 128 MiB a guess) a
    /// well-equipped attacker makes perhaps 10^4 guesses a second, and 2^40 of them take about
    /// three and a half years, 2^30 a day and a half.
    public static let warnBelow = 40.0

    public static func bits(_ passphrase: String) -> Double {
        let scalars = Array(passphrase.unicodeScalars)
        guard !scalars.isEmpty else { return 0 }
        var pool = 0
        if scalars.contains(where: { ("a"..."z").contains($0) }) { pool += 26 }
        if scalars.contains(where: { ("A"..."Z").contains($0) }) { pool += 26 }
        if scalars.contains(where: { ("0"..."9").contains($0) }) { pool += 10 }
        if scalars.contains(where: { !("a"..."z").contains($0) && !("A"..."Z").contains($0) && !("0"..."9").contains($0) }) {
            pool += 33
        }
        let each = log2(Double(max(pool, 2)))
        var bits = each
        for i in 1..<scalars.count {
            let step = Int(scalars[i].value) - Int(scalars[i - 1].value)
            bits += abs(step) <= 1 ? 1 : each
        }
        return bits
    }

    /// Whether `passphrase` is estimated below `warnBelow`.
    public static func isWeak(_ passphrase: String) -> Bool { bits(passphrase) < warnBelow }
}
