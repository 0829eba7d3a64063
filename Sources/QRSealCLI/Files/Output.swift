import FoundationEssentials
import Glibc
import QRSealKit

/// A file a command writes (or standard output for `-`), under the one rule every command
/// follows (man page, FILES):
///
/// - a device, pipe or socket there (`/dev/null`, `/dev/stdout`, a FIFO) is written into, as a
///   shell redirection would: nothing is replaced;
/// - a directory at the target is refused;
/// - anything else there, a symbolic link too (even one that points nowhere), is replaced only
///   with `--force`; a link is then replaced by the new file, never followed;
/// - the target may never be one of the command's own inputs (the same device and inode),
///   not even with `--force`;
/// - a replaced file keeps its mode; a private output (keys, exports, received files) is
///   created 0600 and never gives the group or others more than the file it replaces had;
/// - the bytes go to a new file beside the target that has no name while it is written
///   (`StagedFile`) and takes the target's name only once it is complete, so that no
///   half-written file is ever seen and no interruption leaves one behind.
struct Output {
    let path: String
    let force: Bool
    /// The files the command reads; `-` and missing files are ignored.
    var inputs: [String] = []
    var isPrivate = false

    static let forceHint = "pass --force to replace it"

    /// Refuses the target before any work is done; `write` checks again.
    func check() throws(CLIError) {
        guard path != "-" else { return }
        guard let link = SystemFiles.status(path, followLinks: false) else { return }
        let target = SystemFiles.status(path)
        if let target, Self.isSpecial(target) { return }
        if let target, (target.st_mode & S_IFMT) == S_IFDIR {
            throw CLIError(message: "\(path): is a directory", hints: ["name a file, such as \(SystemFiles.join(path, "NAME"))"])
        }
        for input in inputs where input != "-" {
            guard let other = SystemFiles.status(input) else { continue }
            if [link, target].contains(where: { $0.map { Self.same($0, other) } ?? false }) {
                throw CLIError(message: "\(path): is also an input of this command",
                               hints: ["write to another file; --force never replaces an input"])
            }
        }
        if !force { throw CLIError(message: "\(path): file exists", hints: [Self.forceHint]) }
    }

    /// Writes `bytes` to the target under the rule above.
    func write(_ bytes: [UInt8], console: Console) throws(CLIError) {
        if path == "-" {
            console.write(Data(bytes))
            return
        }
        try check()
        if let target = SystemFiles.status(path), Self.isSpecial(target) { return try writeInto(bytes) }
        let file = try stage(in: SystemFiles.directory(of: path))
        defer { file.discard() }
        let failure = Self.writeAll(bytes, to: file.fd)
        fchmod(file.fd, mode())
        guard failure == 0 else { throw CLIError(message: "\(path): cannot write: \(SystemFiles.reason(failure))") }
        guard fsync(file.fd) == 0 else {
            throw CLIError(message: "\(path): cannot write: \(SystemFiles.reason())")
        }
        try place(file)
    }

    /// Writes `contents[i]` to `outputs[i]` (files, not standard output), every one or none:
    /// each under the rule above, and those written so far removed when one fails, or when
    /// SIGINT, SIGTERM or SIGHUP comes before the last is written (`TemporaryNames`' handler,
    /// which then ends the process by the signal), so that an interrupted command never leaves
    /// some of a message's parts (issue: a Ctrl-C had left 105 of 201).
    static func writeAllOrNone(_ outputs: [Output], _ contents: [[UInt8]], console: Console) throws(CLIError) {
        for output in outputs { try output.check() }
        let group = TemporaryNames.beginGroup(outputs.map(\.path))
        defer { if let group { TemporaryNames.endGroup(group) } }
        var written: [String] = []
        for (n, (output, bytes)) in zip(outputs, contents).enumerated() {
            // Counted before its name is given: a signal between the two leaves no part.
            // A file that --force replaces is counted once replaced.
            let free = SystemFiles.status(output.path, followLinks: false) == nil
            if let group, free { TemporaryNames.placed(group, count: n + 1) }
            do {
                try output.write(bytes, console: console)
                written.append(output.path)
                if let group { TemporaryNames.placed(group, count: n + 1) }
            } catch {
                if let group { TemporaryNames.placed(group, count: 0) }
                for path in written { SystemFiles.remove(path) }
                throw error
            }
        }
    }

    /// Writes what `produce` emits, piece by piece, under the same rule: the pieces go to a
    /// staged file (beside the target, or in the console's TMPDIR for standard output and devices),
    /// and only when `produce` returns does anything reach the target. When it throws,
    /// nothing is written at all.
    func write(streaming produce: (_ emit: ([UInt8]) throws(CLIError) -> Void) throws(CLIError) -> Void,
               console: Console) throws(CLIError) {
        try check()
        let regular = path != "-" && !(SystemFiles.status(path).map(Self.isSpecial) ?? false)
        let file = try stage(in: regular ? SystemFiles.directory(of: path)
            : console.environment["TMPDIR"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "/tmp")
        defer { file.discard() }
        let fd = file.fd
        fchmod(fd, regular ? mode() : 0o600)
        if !regular { file.removeName() }
        try produce { bytes throws(CLIError) in
            let failure = Self.writeAll(bytes, to: fd)
            guard failure == 0 else { throw CLIError(message: "\(path): cannot write: \(SystemFiles.reason(failure))") }
        }
        if regular {
            guard fsync(fd) == 0 else { throw CLIError(message: "\(path): cannot write: \(SystemFiles.reason())") }
            return try place(file)
        }
        // Complete and authenticated: copy it out.
        guard lseek(fd, 0, SEEK_SET) == 0 else { throw CLIError(message: "cannot read back: \(SystemFiles.reason())") }
        let target: Int32 = path == "-" ? -1 : RawBytes.withCString(path) { open($0, O_WRONLY | O_NOCTTY | O_CLOEXEC) }
        if path != "-" && target < 0 { throw CLIError(message: "\(path): cannot write: \(SystemFiles.reason())") }
        defer { if target >= 0 { close(target) } }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else { throw CLIError(message: "cannot read back: \(SystemFiles.reason())") }
            if n == 0 { return }
            if target >= 0 {
                let failure = Self.writeAll(Array(chunk[..<n]), to: target)
                guard failure == 0 else { throw CLIError(message: "\(path): cannot write: \(SystemFiles.reason(failure))") }
            } else {
                console.write(Data(chunk[..<n]))
            }
        }
    }

    /// A new file in `directory` for the bytes (`StagedFile`): unnamed while it is written.
    private func stage(in directory: String) throws(CLIError) -> StagedFile {
        do { return try StagedFile(in: directory) } catch {
            throw CLIError(message: "\(path == "-" ? "standard output" : path): cannot write: \(error.description)")
        }
    }

    /// Gives the complete file the target's name: without --force only when the name is free
    /// (`linkat(2)`/`link(2)`, which fail rather than replace a file made since `check`); with
    /// it, `rename(2)` over what is there.
    private func place(_ file: StagedFile) throws(CLIError) {
        if file.link(to: path) { return }
        if errno == EEXIST && !force { throw CLIError(message: "\(path): file exists", hints: [Self.forceHint]) }
        // Replacing, or a file system without hard links (the check above just found the name free).
        guard errno == EEXIST || errno == EPERM || errno == EOPNOTSUPP, file.rename(to: path) else {
            throw CLIError(message: "\(path): cannot write: \(SystemFiles.reason())")
        }
    }

    /// Writes into the device or pipe at the target (`open(2)` without `O_CREAT`).
    private func writeInto(_ bytes: [UInt8]) throws(CLIError) {
        let fd = RawBytes.withCString(path) { open($0, O_WRONLY | O_NOCTTY | O_CLOEXEC) }
        guard fd >= 0 else { throw CLIError(message: "\(path): cannot write: \(SystemFiles.reason())") }
        defer { close(fd) }
        let failure = Self.writeAll(bytes, to: fd)
        guard failure == 0 else { throw CLIError(message: "\(path): cannot write: \(SystemFiles.reason(failure))") }
    }

    /// The new file's mode: the replaced file's, else the usual one for new files.
    private func mode() -> mode_t {
        let privateBits: mode_t = 0o600
        if let old = SystemFiles.status(path, followLinks: false), (old.st_mode & S_IFMT) == S_IFREG {
            let kept = old.st_mode & 0o7777 & ~(S_ISUID | S_ISGID)
            return isPrivate ? kept & ~0o077 : kept
        }
        if isPrivate { return privateBits }
        let mask = umask(0)
        umask(mask)
        return 0o666 & ~mask
    }

    /// 0, or the errno of the write that failed, kept before any other call (the `stat` in
    /// `mode()`, say) can set errno to something else, such as "no such file or directory".
    private static func writeAll(_ bytes: [UInt8], to fd: Int32) -> Int32 {
        bytes.withUnsafeBytes { SystemFiles.writeAll($0, to: fd) }
    }

    /// Neither a regular file nor a directory: a device, a pipe or a socket.
    private static func isSpecial(_ info: stat) -> Bool {
        let type = info.st_mode & S_IFMT
        return type != S_IFREG && type != S_IFDIR
    }

    private static func same(_ a: stat, _ b: stat) -> Bool { a.st_dev == b.st_dev && a.st_ino == b.st_ino }
}

extension ParsedArguments {
    /// The value of an option naming a file to write, nil when absent; an empty name is a
    /// usage error.
    func outputPath(_ option: String = "output") throws(CLIError) -> String? {
        guard let path = value(option) else { return nil }
        guard !path.isEmpty else {
            throw .usage("--\(option) needs a file name, not an empty one", hint: "use - for standard output")
        }
        return path
    }

    /// `scan -o DIR`: the folder received files go into, which must exist.
    func outputDirectory() throws(CLIError) -> String? {
        guard let path = try outputPath() else { return nil }
        guard SystemFiles.isDirectory(path) else {
            throw CLIError(message: "\(path): " + (Files.exists(path) ? "not a directory" : "no such directory"),
                           hints: ["-o names the folder that files carried by sealed messages are written into"])
        }
        return path
    }

    /// The key and passphrase files named on the command line: inputs no output may replace.
    var keyFiles: [String] { (values["key-file"] ?? []) + (values["identity"] ?? []) + (values["passphrase-file"] ?? []) }
}
