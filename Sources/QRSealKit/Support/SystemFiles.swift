import Glibc

/// The POSIX file calls made with paths that may carry bytes that are not UTF-8
/// (`RawBytes`): FileManager would turn those into other names.
public enum SystemFiles {
    /// Why a call failed.
    public enum Failure: Error, Equatable, Sendable, CustomStringConvertible {
        /// The system's reason, as `strerror(3)` gives it, in lower case.
        case system(String)
        case isDirectory
        /// A device, a FIFO or a socket where only a regular file will do.
        case notRegular
        /// The file holds more than the limit allows.
        case tooLarge(size: Int)
        /// A pipe or FIFO that gave nothing more, and no end, for this many seconds.
        case timedOut(seconds: Int)

        public var description: String {
            switch self {
            case .system(let reason): return reason
            case .isDirectory: return "is a directory"
            case .notRegular: return "not a regular file"
            case .tooLarge(let size): return "file is \(size) bytes, too large"
            case .timedOut(let seconds): return "nothing came through this pipe for \(seconds) s"
            }
        }
    }

    /// `strerror(errno)` in lower case.
    public static func reason(_ code: Int32 = errno) -> String {
        String(cString: strerror(code)).lowercased()
    }

    /// `stat(2)` of `path` (`lstat(2)` when `followLinks` is false); nil when that fails,
    /// with `errno` set.
    public static func status(_ path: String, followLinks: Bool = true) -> stat? {
        var info = stat()
        let result = RawBytes.withCString(path) { followLinks ? stat($0, &info) : lstat($0, &info) }
        return result == 0 ? info : nil
    }

    /// What the symbolic link at `path` points to (`readlink(2)`); nil when `path` is no link.
    public static func linkTarget(_ path: String) -> String? {
        var buffer = [UInt8](repeating: 0, count: Int(PATH_MAX))
        let n = RawBytes.withCString(path) { name in
            buffer.withUnsafeMutableBytes { readlink(name, $0.baseAddress!.assumingMemoryBound(to: CChar.self), $0.count) }
        }
        return n >= 0 ? RawBytes.string(buffer[..<n]) : nil
    }

    /// Whether `path` is a directory, following symbolic links.
    public static func isDirectory(_ path: String) -> Bool {
        status(path).map { ($0.st_mode & S_IFMT) == S_IFDIR } ?? false
    }

    /// The bytes of the file at `path` (`open(2)`, `read(2)`), refused when more than `limit`.
    public static func read(_ path: String, limit: Int) throws(Failure) -> [UInt8] {
        try read(path, limit: limit, regularOnly: false).bytes
    }

    /// The bytes and mode of the regular file at `path`, for small private files such as
    /// keys: a device or socket there is refused before any byte is read or waited for
    /// (`open(2)` with `O_NONBLOCK`, then `fstat(2)`), and so is more than `limit`. A pipe or
    /// FIFO (a shell's `<(pass show key)`) is read to its end, as long as each piece comes
    /// within `pipeSeconds` of the one before: a FIFO nobody writes to is refused then.
    public static func readRegular(_ path: String, limit: Int, pipeSeconds: Int = 10) throws(Failure)
        -> (bytes: [UInt8], mode: mode_t) {
        try read(path, limit: limit, regularOnly: true, pipeSeconds: pipeSeconds)
    }

    private static func read(_ path: String, limit: Int, regularOnly: Bool,
                             pipeSeconds: Int = 0) throws(Failure) -> (bytes: [UInt8], mode: mode_t) {
        let flags = O_RDONLY | O_CLOEXEC | (regularOnly ? O_NONBLOCK | O_NOCTTY : 0)
        let fd = RawBytes.withCString(path) { open($0, flags) }
        guard fd >= 0 else { throw .system(reason()) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .system(reason()) }
        if (info.st_mode & S_IFMT) == S_IFDIR { throw .isDirectory }
        if regularOnly && (info.st_mode & S_IFMT) == S_IFIFO {
            return (try readPipe(fd, limit: limit, seconds: pipeSeconds), info.st_mode & 0o7777)
        }
        if regularOnly && (info.st_mode & S_IFMT) != S_IFREG { throw .notRegular }
        guard Int(info.st_size) <= limit else { throw .tooLarge(size: Int(info.st_size)) }
        return (try readAll(fd, limit: limit), info.st_mode & 0o7777)
    }

    /// Everything the pipe or FIFO `fd` (opened with `O_NONBLOCK`) gives until its end, refused
    /// once more than `limit` or when `seconds` pass without a byte or the end. A FIFO that no
    /// writer has opened yet reads as empty rather than ended, so it is waited for too.
    private static func readPipe(_ fd: Int32, limit: Int, seconds: Int) throws(Failure) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 12)
        var ended = false
        while !ended {
            var wait = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&wait, 1, Int32(seconds * 1000))
            if ready < 0 {
                if errno == EINTR { continue }
                throw .system(reason())
            }
            guard ready > 0 else { throw .timedOut(seconds: seconds) }
            while true {
                let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
                if n < 0 {
                    if errno == EINTR { continue }
                    if errno == EAGAIN { break }
                    throw .system(reason())
                }
                // An end only once the writer was there: POLLHUP with nothing left to read.
                if n == 0 { ended = wait.revents & Int16(POLLHUP) != 0 || !bytes.isEmpty; break }
                bytes += chunk[..<n]
                guard bytes.count <= limit else { throw .tooLarge(size: bytes.count) }
            }
        }
        return bytes
    }

    /// Everything `fd` gives until its end, refused once more than `limit`.
    private static func readAll(_ fd: Int32, limit: Int) throws(Failure) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw .system(reason())
            }
            if n == 0 { return bytes }
            bytes += chunk[..<n]
            // A file that grows while it is read (a device, a pipe) is held to the same limit.
            guard bytes.count <= limit else { throw .tooLarge(size: bytes.count) }
        }
    }

    /// The names in `directory` (`opendir(3)`, `readdir(3)`), without `.` and `..`; nil
    /// when it cannot be read.
    public static func names(in directory: String) -> [String]? {
        guard let stream = RawBytes.withCString(directory, { opendir($0) }) else { return nil }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { RawBytes.string($0.prefix { $0 != 0 }) }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// The names in `directory` that end with `suffix`, without it, sorted: `NAME` for each
    /// `NAME.key`. None when the directory cannot be read.
    public static func stems(in directory: String, suffix: String) -> [String] {
        (names(in: directory) ?? []).filter { $0.hasSuffix(suffix) }.map { String($0.dropLast(suffix.count)) }.sorted()
    }

    /// Makes `path` and any missing parents with `mode`, like `mkdir -p`.
    public static func makeDirectories(_ path: String, mode: mode_t) throws(Failure) {
        if path.isEmpty || isDirectory(path) { return }
        if let slash = path.dropLast().lastIndex(of: "/"), slash != path.startIndex {
            try makeDirectories(String(path[..<slash]), mode: mode)
        }
        guard RawBytes.withCString(path, { mkdir($0, mode) }) == 0 else {
            if errno == EEXIST && isDirectory(path) { return }
            throw .system(errno == EEXIST ? "not a directory" : reason())
        }
    }

    /// The folder part of `path`: "." for a bare name, "/" for a name in the root.
    public static func directory(of path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed.removeLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return "." }
        let head = trimmed[..<slash]
        return head.isEmpty ? "/" : String(head)
    }

    /// The last component of `path`.
    public static func lastComponent(of path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    /// `name` inside `directory`.
    public static func join(_ directory: String, _ name: String) -> String {
        directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }

    /// A new file from `template`, whose last six characters are `XXXXXX` (`mkstemp(3)`):
    /// its descriptor and its path.
    public static func makeTemporary(_ template: String) throws(Failure) -> (fd: Int32, path: String) {
        var bytes = RawBytes.bytes(template).map { CChar(bitPattern: $0) } + [0]
        let fd = bytes.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw .system(reason()) }
        return (fd, RawBytes.string(bytes.dropLast().map { UInt8(bitPattern: $0) }))
    }

    /// A new file in `directory` that has no name (`open(2)` with `O_TMPFILE`, read and write,
    /// mode 0600): nothing is left of it when the process ends, however it ends, unless
    /// `link(descriptor:to:)` names it. -1 with `errno` set when that fails; `EOPNOTSUPP`
    /// or `EISDIR` say that the file system or the kernel cannot make one.
    public static func openUnnamed(in directory: String) -> Int32 {
        // O_TMPFILE is __O_TMPFILE | O_DIRECTORY; Swift does not import the compound macro.
        let unnamed: Int32 = 0o20000000 | O_DIRECTORY
        return RawBytes.withCString(directory) { open($0, unnamed | O_RDWR | O_CLOEXEC, mode_t(0o600)) }
    }

    /// Gives the file open as `fd` the name `path` (`linkat(2)` of `/proc/self/fd/N` with
    /// `AT_SYMLINK_FOLLOW`, which needs no privilege): false with `errno` set when that fails,
    /// `EEXIST` when something has that name already (it is never replaced).
    public static func link(descriptor fd: Int32, to path: String) -> Bool {
        RawBytes.withCString(path) { linkat(AT_FDCWD, "/proc/self/fd/\(fd)", AT_FDCWD, $0, AT_SYMLINK_FOLLOW) } == 0
    }

    /// `link(2)`: whether `path` now names the file `existing` names; `errno` says why not.
    public static func link(_ existing: String, to path: String) -> Bool {
        RawBytes.withCString(existing) { from in RawBytes.withCString(path) { Glibc.link(from, $0) } } == 0
    }

    /// `rename(2)`: whether `path` now names the file `old` named; `errno` says why not.
    public static func rename(_ old: String, to path: String) -> Bool {
        RawBytes.withCString(old) { from in RawBytes.withCString(path) { Glibc.rename(from, $0) } } == 0
    }

    /// `unlink(2)`, for a file that may be gone already.
    public static func remove(_ path: String) {
        _ = RawBytes.withCString(path) { unlink($0) }
    }

    /// Writes all of `bytes` to `fd` (`write(2)`, again after EINTR); 0, or the errno of the
    /// write that failed.
    public static func writeAll(_ bytes: UnsafeRawBufferPointer, to fd: Int32) -> Int32 {
        var offset = 0
        while offset < bytes.count {
            let n = Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if n >= 0 { offset += n } else if errno != EINTR { return errno }
        }
        return 0
    }
}
