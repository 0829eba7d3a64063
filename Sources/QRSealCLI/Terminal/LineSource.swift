import Foundation
import QRSealKit

/// The lines of a file, or of standard input for `-`, read as they are needed.
final class LineSource {
    private let file: UnsafeMutablePointer<FILE>?
    private let console: Console

    init(path: String, console: Console) throws(CLIError) {
        self.console = console
        if path == "-" {
            file = nil
            return
        }
        guard let info = SystemFiles.status(path) else { throw CLIError(message: "\(path): \(SystemFiles.reason())") }
        if (info.st_mode & S_IFMT) == S_IFDIR { throw CLIError(message: "\(path): is a directory") }
        guard let opened = RawBytes.withCString(path, { fopen($0, "r") }) else { throw CLIError(message: "\(path): \(SystemFiles.reason())") }
        file = opened
    }

    deinit { if let file { fclose(file) } }

    func next() -> String? {
        guard let file else { return console.readInputLine() }
        return Terminal.readLine(from: file)
    }
}
