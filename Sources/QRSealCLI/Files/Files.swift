import FoundationEssentials
import Glibc
import QRSealKit

/// Reading inputs for the commands and taking paths apart, with errors that name the path.
///
/// Paths are strings as `RawBytes` makes them from the command line: bytes that are not
/// UTF-8 are carried along and handed back to the system unchanged (`SystemFiles`), which
/// is why nothing here uses FileManager or URL.
enum Files {
    /// Inputs larger than this are refused before they are read whole.
    static let maxInputBytes = 1 << 30

    /// The bytes of `path`, or of standard input for `-`.
    static func read(_ path: String, console: Console) throws(CLIError) -> [UInt8] {
        if path == "-" { return try StandardInput.read(console, limit: maxInputBytes, what: "the most this tool reads") }
        do {
            return try SystemFiles.read(path, limit: maxInputBytes)
        } catch {
            if case .tooLarge(let size) = error {
                throw CLIError(message: "\(path): file is \(size) bytes, larger than the 1 GiB this tool reads")
            }
            throw CLIError(message: "\(path): \(error.description)")
        }
    }

    /// Whether anything (a file, a directory, a symbolic link, even one that dangles) is at `path`.
    static func exists(_ path: String) -> Bool { SystemFiles.status(path, followLinks: false) != nil }

    /// Makes `path` and any missing parents with `mode`, like `mkdir -p`.
    static func makeDirectories(_ path: String, mode: mode_t) throws(CLIError) {
        do { try SystemFiles.makeDirectories(path, mode: mode) } catch {
            throw CLIError(message: "\(path): cannot create the folder: \(error.description)")
        }
    }

}
