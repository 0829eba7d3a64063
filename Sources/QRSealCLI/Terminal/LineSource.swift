import FoundationEssentials
import Glibc
import QRSealKit

/// The lines of a file, or of standard input for `-`, read as they are needed.
final class LineSource {
    private let file: LineFile?
    private let console: Console

    init(path: String, console: Console) throws(CLIError) {
        self.console = console
        if path == "-" {
            file = nil
            return
        }
        do { file = try LineFile(path: path) } catch { throw CLIError(message: error.description) }
    }

    func next() -> String? {
        guard let file else { return console.readInputLine() }
        return file.next()
    }
}
