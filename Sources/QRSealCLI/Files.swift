import Foundation
import QRSealKit

/// Reading inputs for the commands, and the POSIX calls behind every file operation, with
/// errors that name the path.
///
/// Paths are strings as `RawBytes` makes them from the command line: bytes that are not
/// UTF-8 are carried along and handed back to the system unchanged, which is why these
/// helpers call POSIX directly rather than FileManager.
enum Files {
    /// Inputs larger than this are refused before they are read whole.
    static let maxInputBytes = 1 << 30

    /// The bytes of `path`, or of standard input for `-`.
    static func read(_ path: String, console: Console) throws(CLIError) -> [UInt8] {
        if path == "-" { return [UInt8](console.readInput()) }
        let fd = RawBytes.withCString(path) { open($0, O_RDONLY | O_CLOEXEC) }
        guard fd >= 0 else { throw CLIError(message: "\(path): \(errnoText())") }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw CLIError(message: "\(path): \(errnoText())") }
        if (info.st_mode & S_IFMT) == S_IFDIR { throw CLIError(message: "\(path): is a directory") }
        guard Int(info.st_size) <= maxInputBytes else {
            throw CLIError(message: "\(path): file is \(info.st_size) bytes, larger than the 1 GiB this tool reads")
        }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw CLIError(message: "\(path): cannot read: \(errnoText())")
            }
            if n == 0 { return bytes }
            bytes += chunk[..<n]
            // A file that grows while it is read (a device, /proc) is held to the same cap.
            guard bytes.count <= maxInputBytes else {
                throw CLIError(message: "\(path): larger than the 1 GiB this tool reads")
            }
        }
    }

    /// `stat(2)` of `path` (`lstat(2)` when `followLinks` is false); nil when that fails,
    /// with `errno` set.
    static func status(_ path: String, followLinks: Bool = true) -> stat? {
        var info = stat()
        let result = RawBytes.withCString(path) { followLinks ? stat($0, &info) : lstat($0, &info) }
        return result == 0 ? info : nil
    }

    /// Whether anything (a file, a directory, a symbolic link, even one that dangles) is at `path`.
    static func exists(_ path: String) -> Bool { status(path, followLinks: false) != nil }

    /// Whether `path` is a directory, following symbolic links.
    static func isDirectory(_ path: String) -> Bool {
        status(path).map { ($0.st_mode & S_IFMT) == S_IFDIR } ?? false
    }

    /// Makes `path` and any missing parents with `mode`, like `mkdir -p`.
    static func makeDirectories(_ path: String, mode: mode_t) throws(CLIError) {
        if path.isEmpty || isDirectory(path) { return }
        let parent = directory(of: path)
        if parent != path { try makeDirectories(parent, mode: mode) }
        guard RawBytes.withCString(path, { mkdir($0, mode) }) == 0 else {
            if errno == EEXIST && isDirectory(path) { return }
            throw CLIError(message: "\(path): cannot create the folder: \(errno == EEXIST ? "not a directory" : errnoText())")
        }
    }

    /// The folder part of `path`: "." for a bare name, "/" for a name in the root.
    static func directory(of path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed.removeLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return "." }
        let head = trimmed[..<slash]
        return head.isEmpty ? "/" : String(head)
    }

    /// The last component of `path`.
    static func lastComponent(of path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    /// `name` inside `directory`.
    static func join(_ directory: String, _ name: String) -> String {
        directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }

    static func errnoText() -> String {
        String(cString: strerror(errno)).lowercased()
    }
}
