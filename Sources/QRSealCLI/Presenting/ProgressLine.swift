import FoundationEssentials
import Glibc

/// A line on standard error that long work rewrites as it goes ("qrseal: drawing 57 of 197
/// codes"), on a terminal only: where standard error is a file or a pipe nothing extra is
/// written. At most ten updates a second, and the line is cleared when the work is done.
final class ProgressLine: @unchecked Sendable {
    private let console: Console
    private let what: String
    private var last = Date.distantPast
    private var shown = false

    /// Progress of `what` ("drawing", "drawing the sheet:"), shown when standard error is a terminal.
    init(_ what: String, console: Console) {
        self.console = console
        self.what = what
    }

    /// `done` of `total` codes.
    func update(_ done: Int, of total: Int) {
        guard console.errorIsTerminal, total > 1 else { return }
        let now = Date()
        guard done == total || now.timeIntervalSince(last) >= 0.1 else { return }
        last = now
        shown = true
        console.writeError(Data("\rqrseal: \(what) \(done) of \(total) codes\u{1B}[K".utf8))
    }

    /// Clears the line, when one was shown.
    func finish() {
        guard shown else { return }
        shown = false
        console.writeError(Data("\r\u{1B}[K".utf8))
    }
}
