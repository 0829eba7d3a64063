import FoundationEssentials
import Glibc

/// The lines of a text file, read as they are needed (an inbox export to import).
public final class LineFile {
    /// Why the file cannot be read: `path: reason`.
    public struct Failure: Error, Equatable, Sendable, CustomStringConvertible {
        public let path: String
        public let reason: String
        public var description: String { "\(path): \(reason)" }
    }

    private let file: UnsafeMutablePointer<FILE>

    /// Opens `path` for reading; a folder or a file that cannot be opened is refused.
    public init(path: String) throws(Failure) {
        guard let info = SystemFiles.status(path) else { throw Failure(path: path, reason: SystemFiles.reason()) }
        if (info.st_mode & S_IFMT) == S_IFDIR { throw Failure(path: path, reason: "is a directory") }
        guard let opened = RawBytes.withCString(path, { fopen($0, "r") }) else {
            throw Failure(path: path, reason: SystemFiles.reason())
        }
        file = opened
    }

    deinit { fclose(file) }

    /// The next line, as `readLine(from:)` reads it; nil at the end.
    public func next() -> String? { Self.readLine(from: file) }

    /// One line from `file`, without its line break; nil at the end. Bytes that are not
    /// UTF-8 are kept as ``RawBytes`` scalars, and a line stops after `limit` bytes (the rest
    /// comes as the next line), so that a reader can refuse an endless one without holding it.
    public static func readLine(from file: UnsafeMutablePointer<FILE>?,
                                limit: Int = InboxImportReader.maxLineBytes + 1) -> String? {
        guard let file else { return nil }
        var bytes: [UInt8] = []
        while bytes.count < limit {
            let c = getc_unlocked(file)
            if c == EOF { if bytes.isEmpty { return nil }; break }
            if c == 0x0A { break }
            bytes.append(UInt8(c))
        }
        return RawBytes.string(bytes)
    }
}
