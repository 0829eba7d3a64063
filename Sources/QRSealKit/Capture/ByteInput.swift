import Glibc

/// Asked while a source waits for data; true means give up waiting and throw `.stopped`.
/// It must be cheap and safe to call from any thread (an atomic flag, a deadline).
public typealias StopCheck = @Sendable () -> Bool

/// Bytes in order from a file, a pipe or memory: what a stream reader reads.
public protocol ByteInput: AnyObject {
    /// Reads up to `buffer.count` bytes into `buffer`; 0 means the input has ended.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(CaptureError) -> Int
}

/// Reads a file descriptor: a file, a pipe, standard input.
///
/// It waits with `poll(2)` in short slices rather than blocking in `read(2)`, so that a
/// stop request (a signal's flag, a deadline) is noticed even while a pipe stays silent.
public final class FileInput: ByteInput {
    private let descriptor: Int32
    private let owned: Bool
    private let shouldStop: StopCheck
    /// How long one wait lasts before `shouldStop` is asked again.
    private static let sliceMilliseconds: Int32 = 100

    /// Reads `descriptor`, which stays the caller's to close (standard input, say).
    public init(descriptor: Int32, shouldStop: @escaping StopCheck = { false }) {
        self.descriptor = descriptor
        self.owned = false
        self.shouldStop = shouldStop
    }

    /// Opens `path` for reading with `open(2)`; the file is closed when the value goes away.
    public init(path: String, shouldStop: @escaping StopCheck = { false }) throws(CaptureError) {
        let fd = RawBytes.withCString(path) { open($0, O_RDONLY | O_CLOEXEC) }
        guard fd >= 0 else { throw .readFailed(reason: systemMessage(errno)) }
        var info = stat()
        if fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
            close(fd)
            throw .readFailed(reason: "is a directory")
        }
        self.descriptor = fd
        self.owned = true
        self.shouldStop = shouldStop
    }

    deinit { if owned { close(descriptor) } }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(CaptureError) -> Int {
        guard buffer.count > 0 else { return 0 }
        while true {
            if shouldStop() { throw .stopped }
            var waiting = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&waiting, 1, Self.sliceMilliseconds)
            if ready < 0 {
                // A signal's handler ran: ask shouldStop again.
                if errno == EINTR { continue }
                throw .readFailed(reason: systemMessage(errno))
            }
            if ready == 0 { continue }
            let count = Glibc.read(descriptor, buffer.baseAddress, buffer.count)
            if count >= 0 { return count }
            if errno == EINTR || errno == EAGAIN { continue }
            throw .readFailed(reason: systemMessage(errno))
        }
    }
}

/// Bytes already in memory.
public final class MemoryInput: ByteInput {
    private let bytes: [UInt8]
    private var offset = 0

    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(CaptureError) -> Int {
        let count = min(buffer.count, bytes.count - offset)
        guard count > 0 else { return 0 }
        bytes.withUnsafeBytes { source in
            buffer.baseAddress!.copyMemory(from: source.baseAddress! + offset, byteCount: count)
        }
        offset += count
        return count
    }
}

/// A `ByteInput` read through a buffer, with the line and block reads a stream reader needs.
final class BufferedInput {
    private let input: ByteInput
    private var buffer: [UInt8]
    private var start = 0, end = 0

    init(_ input: ByteInput, capacity: Int = 1 << 16) {
        self.input = input
        self.buffer = [UInt8](repeating: 0, count: capacity)
    }

    /// Refills the buffer when it is empty; false at the end of the input.
    private func fill() throws(CaptureError) -> Bool {
        guard start == end else { return true }
        start = 0
        end = 0
        let count = try readIntoBuffer(at: 0)
        end = count
        return count > 0
    }

    /// Reads from the input into the buffer from `offset` to its end.
    private func readIntoBuffer(at offset: Int) throws(CaptureError) -> Int {
        let result = buffer.withUnsafeMutableBytes { raw in
            Result { () throws(CaptureError) -> Int in
                try input.read(into: UnsafeMutableRawBufferPointer(rebasing: raw[offset...]))
            }
        }
        return try result.get()
    }

    /// The first `count` bytes, or fewer when the input is shorter; consumes nothing.
    func peek(_ count: Int) throws(CaptureError) -> [UInt8] {
        precondition(count <= buffer.count)
        while end - start < count {
            if start > 0 {
                buffer.withUnsafeMutableBytes { raw in
                    raw.baseAddress!.copyMemory(from: raw.baseAddress! + start, byteCount: end - start)
                }
                end -= start
                start = 0
            }
            let count = try readIntoBuffer(at: end)
            if count == 0 { break }
            end += count
        }
        return Array(buffer[start..<min(end, start + count)])
    }

    enum Line: Equatable {
        /// A whole line, without its line break.
        case line([UInt8])
        /// The input ended before any byte of the line.
        case end
        /// The input ended inside the line.
        case cut
        /// No line break within the allowed length.
        case tooLong
    }

    /// The next line ending in "\n", of at most `maxLength` bytes before the break.
    func readLine(maxLength: Int) throws(CaptureError) -> Line {
        var line: [UInt8] = []
        while true {
            guard try fill() else { return line.isEmpty ? .end : .cut }
            let available = buffer[start..<end]
            if let newline = available.firstIndex(of: 0x0A) {
                line += buffer[start..<newline]
                start = newline + 1
                return line.count > maxLength ? .tooLong : .line(line)
            }
            line += available
            start = end
            if line.count > maxLength { return .tooLong }
        }
    }

    /// Fills `destination` from the input; returns how many bytes it got, fewer only at the end.
    func read(into destination: UnsafeMutableRawBufferPointer) throws(CaptureError) -> Int {
        var filled = 0
        while filled < destination.count {
            if start < end {
                let count = min(end - start, destination.count - filled)
                buffer.withUnsafeBytes { raw in
                    (destination.baseAddress! + filled).copyMemory(from: raw.baseAddress! + start, byteCount: count)
                }
                start += count
                filled += count
                continue
            }
            // Large reads bypass the buffer.
            let count = try input.read(into: UnsafeMutableRawBufferPointer(rebasing: destination[filled...]))
            if count == 0 { break }
            filled += count
        }
        return filled
    }
}
