import Glibc

extension SystemFiles {
    /// Writes `bytes` to a new temporary file beside `path` (`.qrseal-XXXXXX`), flushes it,
    /// then renames it to `path`, replacing what is there: no half-written file is ever seen
    /// under that name, and a failure leaves nothing behind. For a front end that has
    /// already asked whether to replace the file (a desktop save dialog); the CLI's own rule
    /// for outputs is stricter. A new file gets `mode` less the umask; a replaced one keeps its
    /// mode unless `keepingMode` is false (a private file stays private whatever it replaces).
    public static func replace(_ path: String, with bytes: [UInt8], mode: mode_t = 0o666,
                               keepingMode: Bool = true) throws(Failure) {
        if isDirectory(path) { throw .isDirectory }
        let (fd, temporary) = try makeTemporary(join(directory(of: path), ".qrseal-XXXXXX"))
        var placed = false
        defer {
            close(fd)
            if !placed { remove(temporary) }
        }
        let failure = bytes.withUnsafeBytes { writeAll($0, to: fd) }
        guard failure == 0 else { throw .system(reason(failure)) }
        if keepingMode, let old = status(path), (old.st_mode & S_IFMT) == S_IFREG {
            fchmod(fd, old.st_mode & 0o777)
        } else {
            let mask = umask(0)
            umask(mask)
            fchmod(fd, mode & ~mask)
        }
        guard fsync(fd) == 0 else { throw .system(reason()) }
        guard rename(temporary, to: path) else { throw .system(reason()) }
        placed = true
    }
}
