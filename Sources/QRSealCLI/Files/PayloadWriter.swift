import FoundationEssentials
import Glibc
import QRSealKit

/// Writes files carried by sealed messages (`open`, `inbox open`, `scan -o DIR`) under the
/// rule of `Output`, private (mode 0600), and never under a name that could surprise
/// (`fileName`): no hidden file, no name that passes for an option, none that hides
/// characters, and `-` is not standard output.
struct PayloadWriter {
    let force: Bool
    /// The command's inputs, which a received file may never replace.
    var inputs: [String] = []

    /// Refuses a target named on the command line at once, before any message is opened.
    func check(_ path: String?) throws(CLIError) {
        if let path { try Output(path: path, force: force, inputs: inputs).check() }
    }

    /// Writes `bytes` to `path`, or else under the file's own name (made safe, and said so on
    /// standard error) in `directory`, by default the current one. Returns the path written.
    @discardableResult
    func write(_ bytes: [UInt8], named name: String, to path: String? = nil, in directory: String? = nil,
               console: Console) throws(CLIError) -> String {
        let target: String
        if let path {
            target = path
        } else {
            let saved = Self.fileName(name)
            if !name.isEmpty && saved != name {
                console.printError("qrseal: the message names its file '\(DisplayText.escape(name))'; saved as '\(DisplayText.escape(saved))'")
            }
            target = directory.map { SystemFiles.join($0, saved) } ?? saved
        }
        try Output(path: target, force: force, inputs: inputs, isPrivate: true).write(bytes, console: console)
        return target
    }

    /// Writes an opened text or file as `write` does, and says on standard error where it went
    /// (nothing for standard output): `open` and `inbox open`.
    func writeReporting(_ bytes: [UInt8], named name: String, to path: String?, console: Console) throws(CLIError) {
        let written = try write(bytes, named: name, to: path, console: console)
        if written != "-" { console.printError("qrseal: wrote \(DisplayText.escape(written)) (\(bytes.count) bytes)") }
    }

    /// What `scan` says of a received file on the item's line, having saved it into
    /// `directory` when one is given; a failure to save is returned, to report after the line.
    func save(_ bytes: [UInt8], named name: String, in directory: String?, console: Console) -> (note: String, error: CLIError?) {
        let stored = "file \(DisplayText.escape(Self.fileName(name))) (\(bytes.count) bytes)"
        guard let directory else { return ("\(stored); pass -o DIR to save it", nil) }
        do {
            let path = try write(bytes, named: name, in: directory, console: console)
            return ("\(stored) written to \(DisplayText.escape(path))", nil)
        } catch {
            return ("\(stored) not written", error)
        }
    }

    /// What `scan` says of a file received before, written again into `directory`: when the
    /// file there holds these very bytes already, it is left as it is.
    func saveAgain(_ bytes: [UInt8], named name: String, in directory: String, console: Console) -> (note: String, error: CLIError?) {
        let path = SystemFiles.join(directory, Self.fileName(name))
        if let there = FileManager.default.contents(atPath: path), there.count == bytes.count, Array(there) == bytes {
            return ("file \(DisplayText.escape(Self.fileName(name))) (\(bytes.count) bytes) already in \(DisplayText.escape(path))", nil)
        }
        return save(bytes, named: name, in: directory, console: console)
    }

    /// The name a received file is saved under: its own without the characters a terminal
    /// shows as nothing (`DisplayText.isSafe`: a soft hyphen, U+3164, a variation selector…),
    /// then without leading dots (no hidden `.bashrc` appears), leading dashes (no `--force`
    /// or `-x` that a later `rm *` would take for an option) and spaces at either end (no
    /// name that looks like another, or like none); `message.bin` when nothing is left.
    static func fileName(_ name: String) -> String {
        var scalars = name.unicodeScalars.filter { DisplayText.isSafe(String($0)) }[...]
        while let first = scalars.first, first == "." || first == "-" || first.properties.isWhitespace { scalars.removeFirst() }
        while let last = scalars.last, last.properties.isWhitespace { scalars.removeLast() }
        return scalars.isEmpty ? "message.bin" : String(String.UnicodeScalarView(scalars))
    }
}
