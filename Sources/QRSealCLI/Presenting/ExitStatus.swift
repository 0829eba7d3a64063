/// The exit statuses every command shares; the man page's EXIT STATUS lists them.
public enum ExitStatus: Int32, Sendable {
    /// Done; for `scan`, at least one symbol was read.
    case success = 0
    /// `scan` read every input but found no symbol in any.
    case nothingFound = 1
    /// An input was unreadable, damaged, refused or too large, or an output could not be written.
    case failure = 2
    /// A sealed message could not be opened: wrong key or passphrase, or altered.
    case cannotOpen = 3
    /// The command line is wrong (EX_USAGE).
    case usage = 64
}

/// An error that ends a command with a message, optional hints and a status.
struct CLIError: Error {
    let message: String
    var hints: [String] = []
    var status: ExitStatus = .failure

    static func usage(_ message: String, hint: String? = nil) -> CLIError {
        CLIError(message: message, hints: hint.map { [$0] } ?? [], status: .usage)
    }
}
