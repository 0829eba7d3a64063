import FoundationEssentials
import Glibc
import QRSealKit

/// `qrseal open FILE.age` for a binary age file of any size: the header is read and the key
/// found first, then the payload is decrypted chunk by chunk into a temporary file that takes
/// the output's name (or is copied to standard output) only once the last chunk authenticates.
struct AgeFileOpening {
    let source: String
    let reader: Reader
    let output: String?
    let writer: PayloadWriter

    /// Whether the file at `path` starts like a binary age file (`age-encryption.org/`).
    static func isBinaryAgeFile(_ path: String) -> Bool {
        guard let info = SystemFiles.status(path), (info.st_mode & S_IFMT) == S_IFREG else { return false }
        let fd = RawBytes.withCString(path) { open($0, O_RDONLY | O_CLOEXEC) }
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var start = [UInt8](repeating: 0, count: 19)
        let n = start.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        return n == start.count && Array(start) == Array("age-encryption.org/".utf8)
    }

    func run(console: Console) throws(CLIError) -> ExitStatus {
        let fd = RawBytes.withCString(source) { open($0, O_RDONLY | O_CLOEXEC) }
        guard fd >= 0 else { throw CLIError(message: "\(source): \(SystemFiles.reason())") }
        defer { close(fd) }
        // The header fits in the first read: longer headers are refused anyway.
        let first = try readUpTo(fd, AgeFile.maxHeaderLength + AgeStreamLimits.chunk)
        var keys = reader.keys
        let kind: KeyKind
        do { kind = try reader.opener.keyKind(first) } catch { throw failure(error) }
        if kind == .passphrase, !keys.contains(where: \.isPassphrase),
           let key = try KeySources.prompt(console: console, confirm: false) {
            keys.append(key)
        }
        var decryptor: AgeFile.Decryptor, plaintext: [UInt8]
        do { (decryptor, plaintext) = try AgeFile.Decryptor.start(first, keys: keys, opener: reader.opener) } catch {
            if case .noKey(let kind) = error {
                throw CLIError(message: "\(source): the message is sealed with a \(kind) and none was given",
                               hints: [KeySources.hint(for: kind)], status: .cannotOpen)
            }
            throw failure(error)
        }
        var total = 0
        let target = output ?? "-"
        let out = Output(path: target, force: writer.force, inputs: writer.inputs, isPrivate: true)
        try out.write(streaming: { emit throws(CLIError) in
            try emit(plaintext)
            total += plaintext.count
            while true {
                let piece = try readUpTo(fd, AgeStreamLimits.chunk)
                if piece.isEmpty { break }
                let opened: [UInt8]
                do throws(SealError) { opened = try decryptor.feed(piece) } catch { throw failure(error) }
                try emit(opened)
                total += opened.count
            }
            let last: [UInt8]
            do throws(SealError) { last = try decryptor.finish() } catch { throw failure(error) }
            try emit(last)
            total += last.count
        }, console: console)
        if target != "-" { console.printError("qrseal: wrote \(DisplayText.escape(target)) (\(total) bytes)") }
        return .success
    }

    private func failure(_ error: SealError) -> CLIError {
        CLIError(message: "\(source): \(error.description)", status: OpenCommand.status(for: error))
    }

    /// Up to `count` bytes, fewer only at the end of the file.
    private func readUpTo(_ fd: Int32, _ count: Int) throws(CLIError) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress! + filled, count - filled) }
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else { throw CLIError(message: "\(source): \(SystemFiles.reason())") }
            if n == 0 { break }
            filled += n
        }
        return Array(buffer[..<filled])
    }
}

/// Read sizes for streaming: one STREAM chunk at a time.
enum AgeStreamLimits {
    static let chunk = 64 << 10
}
