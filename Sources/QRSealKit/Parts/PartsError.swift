/// Why a message in parts could not be split, read or rebuilt.
public enum PartsError: Error, Equatable, Sendable {
    /// A part shorter than its header and one byte of data.
    case truncated
    /// A part whose header breaks the format's rules; the text says which.
    case malformed(String)
    /// A part of a format version or frame type this reader does not know.
    case unsupported(String)
    /// A part whose own check does not match its bytes: damaged or altered.
    case damagedPart
    /// Fewer distinct parts than the message needs.
    case incomplete(have: Int, need: Int)
    /// Parts that cannot belong together.
    case inconsistent(String)
    /// The rebuilt message does not match its message id (its hash): a part was damaged.
    case damagedMessage
    /// The joined symbols of a QR Structured Append sequence do not match its parity byte
    /// (`expected`, the XOR of every byte of the message): symbols of different sequences
    /// that share count and parity, a misread, or a writer that does not set the parity.
    case parityMismatch(expected: Int, found: Int)
    /// Nothing was written: the message cannot be split as asked; the text says why.
    case cannotSplit(String)
}

extension PartsError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .truncated: return "damaged or incomplete part: too short, cut off"
        case let .malformed(reason): return "damaged part: \(reason)"
        case let .unsupported(what): return "unsupported part: \(what)"
        case .damagedPart: return "damaged part: its check does not match (altered or misread)"
        case let .incomplete(have, need): return "\(have) of \(need) parts needed, \(need - have) more needed"
        case let .inconsistent(reason): return "parts do not belong together: \(reason)"
        case .damagedMessage: return "damaged message: the rebuilt message does not match its hash"
        case let .parityMismatch(expected, found):
            return "the joined codes do not match their parity byte (\(hex(expected)), they give \(hex(found)))"
        case let .cannotSplit(reason): return reason
        }
    }
}

private func hex(_ n: Int) -> String {
    let digits = String(n, radix: 16, uppercase: true)
    return digits.count < 2 ? "0" + digits : digits
}
