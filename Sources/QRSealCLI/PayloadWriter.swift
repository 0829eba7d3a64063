import Foundation
import QRSealKit

/// Writes files carried by sealed messages, never over an existing file unless forced.
struct PayloadWriter {
    let force: Bool

    /// Writes `bytes` to `path` atomically; refuses to replace a file without `force`.
    func write(_ bytes: [UInt8], to path: String, console: Console) throws(CLIError) {
        if !force && FileManager.default.fileExists(atPath: path) {
            throw CLIError(message: "\(path): file exists", hints: ["pass --force to overwrite it"])
        }
        try Files.write(bytes, to: path, console: console)
    }

    /// The name to store a file payload under: its own (already free of directories), or a
    /// fallback for nameless payloads.
    static func fileName(_ name: String) -> String {
        name.isEmpty ? "message.bin" : name
    }
}
