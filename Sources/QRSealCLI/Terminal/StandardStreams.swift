import FoundationEssentials
import Glibc
import QRSealKit

/// The process's file descriptors 0, 1 and 2 read and written with read(2) and write(2),
/// so that a full disk, a closed pipe or an I/O error is an error to report, never a trap.
enum StandardStreams {
    /// Writes all of `data` to `fd`, again after EINTR. A reader that went away (EPIPE, with
    /// SIGPIPE ignored; with its default action the kernel ends the process first) ends the
    /// process quietly with status 2, as other tools do: nothing more can be said to it.
    static func write(_ data: Data, to fd: Int32) throws(Console.WriteFailure) {
        let code = data.withUnsafeBytes { SystemFiles.writeAll($0, to: fd) }
        if code == EPIPE { exit(ExitStatus.failure.rawValue) }
        if code != 0 { throw Console.WriteFailure(code: code) }
    }

    /// All of standard input. A read error ends the process with status 2 and a message on
    /// standard error: what was read so far is not the input, and must not pass for it.
    static func readAll() -> Data { read(upTo: Int.max) }

    /// Up to `count` further bytes of standard input, fewer only at its end; a read error
    /// ends the process as `readAll` does.
    static func read(upTo count: Int) -> Data {
        var data = Data()
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while data.count < count {
            let want = min(chunk.count, count - data.count)
            let n = chunk.withUnsafeMutableBytes { Glibc.read(0, $0.baseAddress!, want) }
            if n > 0 { data.append(contentsOf: chunk[0..<n]); continue }
            if n == 0 { return data }
            if errno == EINTR { continue }
            failReading(errno)
        }
        return data
    }

    /// One line of standard input through a FILE of descriptor 0; a read error ends the
    /// process as `readAll` does.
    static func readLine() -> String? {
        if let line = LineFile.readLine(from: input.file) { return line }
        if let file = input.file, ferror(file) != 0 { failReading(errno) }
        return nil
    }

    /// The process environment from `environ` itself: values that are not UTF-8 (a path in
    /// another encoding) keep their bytes as ``RawBytes`` scalars, where Foundation's
    /// environment would turn them into U+FFFD.
    static func environment() -> [String: String] {
        var result: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let bytes = Array(UnsafeBufferPointer(start: UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self),
                                                  count: strlen(pointer)))
            if let eq = bytes.firstIndex(of: UInt8(ascii: "=")) {
                let name = RawBytes.string(bytes[..<eq])
                if result[name] == nil { result[name] = RawBytes.string(bytes[(eq + 1)...]) }
            }
            entry += 1
        }
        return result
    }

    private final class Input: @unchecked Sendable {
        let file = fdopen(0, "r")
    }
    private static let input = Input()

    private static func failReading(_ code: Int32) -> Never {
        let message = "qrseal: error: cannot read standard input: \(Console.WriteFailure(code: code).reason)\n"
        try? write(Data(message.utf8), to: 2)
        exit(ExitStatus.failure.rawValue)
    }
}
