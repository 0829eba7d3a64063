import FoundationEssentials
import Glibc

/// What opening may spend in one call (a command run: every message of every image it reads),
/// shared by all the messages opened: scrypt work and decompressed content. The per-message
/// limits (`Opener.maxScryptLog2N`) stop one costly message; this stops many cheap-looking
/// ones in a small image from adding up. A key derived once is kept, so a message seen again
/// (same salt, parameters and passphrase) costs nothing more.
public final class OpeningBudget: @unchecked Sendable {
    /// Eight derivations at the cost writers use (N = 2^17, r = 8, p = 1).
    public static let defaultScryptWork = 8 * ScryptParameters.standard.work
    public static let defaultContentBytes = 16 << 20

    /// The scrypt work allowed in one call for a reader whose per-message limit is N = 2^limit
    /// at r = 8, p = 1: `defaultScryptWork`, or two messages at the limit when that is more, so
    /// that raising the limit never shuts out the one message it was raised for.
    public static func defaultScryptWork(limit: Int) -> Int {
        guard (0..<58).contains(limit) else { return limit < 0 ? defaultScryptWork : .max }
        return max(defaultScryptWork, 2 * (1 << limit) * 8)
    }

    /// The scrypt work, N·r·p summed over the derivations run, allowed in one call.
    public let maxScryptWork: Int
    /// The content, all messages together, that opening may produce in one call.
    public let maxContentBytes: Int

    private let lock = Lock()
    private var scryptWork = 0
    private var contentBytes = 0
    private var derived: [DerivationInput: [UInt8]] = [:]
    private var derivationCount = 0

    public init(maxScryptWork: Int = defaultScryptWork, maxContentBytes: Int = defaultContentBytes) {
        self.maxScryptWork = maxScryptWork
        self.maxContentBytes = maxContentBytes
    }

    /// How many scrypt derivations have run; a key taken from those kept is not counted.
    public var derivations: Int { lock.withLock { derivationCount } }

    private struct DerivationInput: Hashable {
        let password: [UInt8], salt: [UInt8], log2N: Int, r: Int, p: Int
    }

    /// The scrypt key for `password`: one derived before, or a new derivation when the work
    /// left allows it; throws `.kdfBudgetExceeded` without deriving when it does not.
    func scryptKey(password: [UInt8], salt: [UInt8], parameters s: ScryptParameters) throws(SealError) -> [UInt8] {
        let input = DerivationInput(password: password, salt: salt, log2N: s.log2N, r: s.r, p: s.p)
        enum Plan { case kept([UInt8]), derive, refuse }
        let plan: Plan = lock.withLock {
            if let key = derived[input] { return .kept(key) }
            guard s.work <= maxScryptWork - scryptWork else { return .refuse }
            scryptWork += s.work
            return .derive
        }
        switch plan {
        case .kept(let key): return key
        case .refuse: throw .kdfBudgetExceeded
        case .derive: break
        }
        let key = try Crypto.scrypt(password: password, salt: salt, log2N: s.log2N, r: s.r, p: s.p)
        lock.withLock {
            derived[input] = key
            derivationCount += 1
        }
        return key
    }

    /// The content bytes opening may still produce in this call.
    var contentBytesLeft: Int { lock.withLock { max(0, maxContentBytes - contentBytes) } }

    /// Counts content that opening produced.
    func spendContent(_ count: Int) {
        lock.withLock { contentBytes += count }
    }
}
