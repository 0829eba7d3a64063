import QRSealKit

/// What a scan could not read or open, counted the same way for images and live frames:
/// the exit status and the closing hints come from it.
struct SealedTally {
    /// Sealed messages whose key was wrong or that were altered (exit 3).
    var unopened = 0
    /// Inputs, outputs or sealed messages that were damaged or unsupported (exit 2).
    var failed = 0
    /// Sealed messages left shut for want of a key, by key kind.
    var locked: [KeyKind: Int] = [:]
    /// Sealed messages skipped, unopened, for the key-derivation budget of the run (counted in `failed`).
    var skipped = 0

    /// Counts a symbol's content, reporting a message that failed to open.
    mutating func count(_ content: Reader.Content, source: String, console: Console) {
        switch content {
        case .failed(.kdfBudgetExceeded):
            // Reported once, with the count, by printHints.
            skipped += 1
            failed += 1
        case .failed(let error):
            // A wrong key is 3; damaged or unsupported input is 2, as for open.
            if OpenCommand.status(for: error) == .cannotOpen { unopened += 1 } else { failed += 1 }
            Diagnostics.report(CLIError(message: "\(source): \(error.description)"), console: console, source: source)
        case .locked(let kind, _):
            locked[kind, default: 0] += 1
        default:
            break
        }
    }

    /// One hint per key kind for the messages left shut.
    func printHints(console: Console) {
        if skipped > 0 {
            Diagnostics.report(CLIError(message: "not opened: too much key-derivation work in one call "
                                        + "(\(skipped) message\(skipped == 1 ? "" : "s") skipped)",
                                        hints: ["open fewer passphrase messages at a time: one run derives at most "
                                                + "\(OpeningBudget.defaultScryptWork / ScryptParameters.standard.work) "
                                                + "keys at the standard scrypt cost"]), console: console)
        }
        for (kind, count) in locked.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            Diagnostics.hint("\(count) sealed message\(count == 1 ? "" : "s") for a \(kind) not opened: "
                             + KeySources.hint(for: kind), console: console)
        }
    }

    /// 2 for any failure, else 3 for a message that did not open, else `otherwise`.
    func status(otherwise: ExitStatus) -> ExitStatus {
        if failed > 0 { return .failure }
        if unopened > 0 { return .cannotOpen }
        return otherwise
    }
}
