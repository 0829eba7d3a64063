/// Why a message could not be sealed or opened. Each case is a different thing for the user:
/// a wrong key is not a damaged message, and neither is an unsupported version.
public enum SealError: Error, Equatable, Sendable {
    /// The tag did not verify with any key given: a wrong key or passphrase, or an altered message.
    case authenticationFailed
    /// The message is sealed with a kind of key none was given for (`passphrase` or `key file`).
    case noKey(kind: KeyKind)
    /// The envelope is shorter than its fixed part and tag: cut off, most often.
    case truncated
    /// The bytes do not follow the format; the text says where.
    case malformed(String)
    /// A format version this reader does not know.
    case unsupportedVersion(Int)
    /// A frame type (multi-symbol messages) or key type this reader does not know.
    case unsupported(String)
    /// The armor is not valid: wrong prefix, characters that are not digits.
    case badArmor(String)
    /// The digit string is not the one canonical form of any envelope.
    case nonCanonicalDigits
    /// The scrypt parameters ask for more work than the reader allows.
    case kdfTooCostly(log2N: Int, r: Int, p: Int, limit: Int)
    /// The content would decompress to more than the reader allows in one call (all its
    /// messages together).
    case contentTooLarge(limit: Int)
    /// Opening it would take more key derivation (scrypt work N·r·p) than is left of the
    /// reader's allowance for one call; it was skipped without deriving.
    case kdfBudgetExceeded
    /// Trying every identity given against every X25519 stanza of an age header would take
    /// more key agreements than a reader allows (`AgeFile.maxX25519Trials`).
    case tooManyTrials(identities: Int, stanzas: Int, limit: Int)
    /// A key file's text is not a valid key.
    case badKey(String)
    /// The cryptographic library failed; the text is its reason.
    case crypto(String)
    /// No identity or passphrase given unwraps any recipient stanza of an age file (or any
    /// slot of a recipients envelope): the message is for someone else.
    case noIdentityMatches
    /// The age header's MAC does not verify: the header was altered.
    case headerMACFailed
    /// The age header breaks a rule of the format; the text says which.
    case ageHeader(String)
    /// The age armor (`-----BEGIN AGE ENCRYPTED FILE-----`) breaks a rule; the text says which.
    case ageArmor(String)
    /// The age payload (nonce and STREAM chunks) is cut off, altered or has bytes after its end.
    case agePayload(String)
    /// A recipient, identity or stanza type this reader does not implement (post-quantum
    /// ML-KEM, plugins); the text names it.
    case unsupportedRecipient(String)
}

extension SealError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .authenticationFailed:
            return "wrong key or passphrase, or the message was altered"
        case let .noKey(kind):
            return "the message is sealed with a \(kind) and none was given"
        case .truncated:
            return "damaged or incomplete sealed message: too short, cut off"
        case let .malformed(reason):
            return "damaged sealed message: \(reason)"
        case let .unsupportedVersion(v):
            return "unsupported format version \(v) (this reader knows version 1)"
        case let .unsupported(what):
            return "unsupported sealed message: \(what)"
        case let .badArmor(reason):
            return "damaged or incomplete sealed message: \(reason)"
        case .nonCanonicalDigits:
            return "damaged or incomplete sealed message: the digits are not the form of any message (cut off or mistyped)"
        case let .kdfTooCostly(log2N, r, p, limit):
            return "the message asks for scrypt work N=2^\(log2N), r=\(r), p=\(p), "
                + "above this reader's limit of N=2^\(limit) at r=8, p=1"
        case let .contentTooLarge(limit):
            return "the content decompresses to more than \(limit) bytes, the limit for one read (all its messages together)"
        case .kdfBudgetExceeded:
            // Said after "not opened:" by the lines and messages that report it.
            return "too much key-derivation work in one call"
        case let .tooManyTrials(identities, stanzas, limit):
            return "\(identities) identities against \(stanzas) X25519 recipients would take "
                + "\(identities * stanzas) key agreements, more than the limit of \(limit)"
        case let .badKey(reason):
            return "not a valid key: \(reason)"
        case let .crypto(reason):
            return "cryptography failed: \(reason)"
        case .noIdentityMatches:
            return "no identity matches: the message is not sealed to any identity or passphrase given"
        case .headerMACFailed:
            return "damaged age file: the header MAC does not verify (the header was altered)"
        case let .ageHeader(reason):
            return "damaged age file: header: \(reason)"
        case let .ageArmor(reason):
            return "damaged age file: armor: \(reason)"
        case let .agePayload(reason):
            return "damaged age file: payload: \(reason)"
        case let .unsupportedRecipient(what):
            return "unsupported recipient type \(what): qrseal implements X25519 and scrypt only"
        }
    }
}
