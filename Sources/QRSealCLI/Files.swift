import Foundation

/// Reading inputs and writing outputs for the commands, with errors that name the path.
enum Files {
    /// Inputs larger than this are refused before they are read whole.
    static let maxInputBytes = 1 << 30

    /// The bytes of `path`, or of standard input for `-`.
    static func read(_ path: String, console: Console) throws(CLIError) -> [UInt8] {
        if path == "-" { return try StandardInput.read(console, limit: maxInputBytes, what: "the most this tool reads") }
        var info = stat()
        guard stat(path, &info) == 0 else { throw CLIError(message: "\(path): \(errnoText())") }
        if (info.st_mode & S_IFMT) == S_IFDIR { throw CLIError(message: "\(path): is a directory") }
        guard Int(info.st_size) <= maxInputBytes else {
            throw CLIError(message: "\(path): file is \(info.st_size) bytes, larger than the 1 GiB this tool reads")
        }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw CLIError(message: "\(path): \(errnoText())")
        }
        defer { try? handle.close() }
        do {
            return [UInt8](try handle.readToEnd() ?? Data())
        } catch {
            throw CLIError(message: "\(path): cannot read: \(error.localizedDescription)")
        }
    }

    /// Writes `bytes` to `path` (standard output for `-`) atomically: a temporary file in
    /// the same directory, renamed over the target only once it is complete.
    static func write(_ bytes: [UInt8], to path: String, mode: mode_t? = nil, console: Console) throws(CLIError) {
        if path == "-" {
            console.write(Data(bytes))
            return
        }
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent().path
        var isDir: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDir), isDir.boolValue {
            throw CLIError(message: "\(path): is a directory")
        }
        var template = Array((directory + "/.\(url.lastPathComponent).XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw CLIError(message: "\(path): cannot write: \(errnoText())") }
        let temp = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var ok = false
        defer { if !ok { unlink(temp) } }
        let written = bytes.withUnsafeBytes { buffer -> Bool in
            var offset = 0
            while offset < buffer.count {
                let n = Foundation.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if n < 0 { if errno == EINTR { continue }; return false }
                offset += n
            }
            return true
        }
        // mkstemp makes the file 0600; give it the usual mode for new files under the umask.
        let mask = umask(0); umask(mask)
        fchmod(fd, mode ?? (0o666 & ~mask))
        guard written, fsync(fd) == 0, close(fd) == 0 else {
            let reason = errnoText()
            throw CLIError(message: "\(path): cannot write: \(reason)")
        }
        guard rename(temp, path) == 0 else {
            throw CLIError(message: "\(path): cannot write: \(errnoText())")
        }
        ok = true
    }

    static func errnoText() -> String {
        String(cString: strerror(errno)).lowercased()
    }
}
