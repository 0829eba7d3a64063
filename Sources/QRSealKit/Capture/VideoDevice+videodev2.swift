import CV4L2
import Glibc

/// V4L2's ioctl request codes, computed as the kernel's `_IOC` macro computes them (the
/// asm-generic layout of x86, ARM and RISC-V): Swift cannot import function-like macros
/// such as `VIDIOC_QUERYCAP`, so the shim header stays one line.
enum V4L2Request {
    private static func code(_ direction: UInt, _ number: UInt, _ size: Int) -> UInt {
        (direction << 30) | (UInt(size) << 16) | (UInt(UInt8(ascii: "V")) << 8) | number
    }
    private static let write: UInt = 1, read: UInt = 2, readWrite: UInt = 3

    /// `VIDIOC_QUERYCAP`
    static let queryCapability = code(read, 0, MemoryLayout<v4l2_capability>.size)
    /// `VIDIOC_ENUM_FMT`
    static let enumerateFormats = code(readWrite, 2, MemoryLayout<v4l2_fmtdesc>.size)
    /// `VIDIOC_S_FMT`
    static let setFormat = code(readWrite, 5, MemoryLayout<v4l2_format>.size)
    /// `VIDIOC_REQBUFS`
    static let requestBuffers = code(readWrite, 8, MemoryLayout<v4l2_requestbuffers>.size)
    /// `VIDIOC_QUERYBUF`
    static let queryBuffer = code(readWrite, 9, MemoryLayout<v4l2_buffer>.size)
    /// `VIDIOC_QBUF`
    static let queueBuffer = code(readWrite, 15, MemoryLayout<v4l2_buffer>.size)
    /// `VIDIOC_DQBUF`
    static let dequeueBuffer = code(readWrite, 17, MemoryLayout<v4l2_buffer>.size)
    /// `VIDIOC_STREAMON`
    static let streamOn = code(write, 18, MemoryLayout<Int32>.size)
    /// `VIDIOC_STREAMOFF`
    static let streamOff = code(write, 19, MemoryLayout<Int32>.size)
}

/// An open V4L2 device node: owns the descriptor from `open(2)` and closes it in `deinit`.
/// Opening checks, in order, that the path exists, is a character device, may be opened by
/// this user, and answers `VIDIOC_QUERYCAP`; each failure is its own `CaptureError`.
final class VideoDeviceHandle {
    let path: String
    let descriptor: Int32
    /// The driver's name for the device (`card`), its driver and bus.
    let card: String, driver: String, bus: String
    /// The device's own capabilities (`device_caps` when the driver reports them).
    private let capabilities: UInt32

    init(path: String) throws(CaptureError) {
        self.path = path
        var info = stat()
        guard RawBytes.withCString(path, { stat($0, &info) }) == 0 else {
            throw errno == EACCES ? .permissionDenied : errno == ENOENT || errno == ENOTDIR ? .noDevice
                : .deviceFailed(operation: "stat", reason: systemMessage(errno))
        }
        switch info.st_mode & S_IFMT {
        case S_IFCHR: break
        case S_IFREG: throw .notADevice(kind: "a regular file")
        case S_IFDIR: throw .notADevice(kind: "a directory")
        case S_IFIFO: throw .notADevice(kind: "a pipe")
        case S_IFSOCK: throw .notADevice(kind: "a socket")
        case S_IFBLK: throw .notADevice(kind: "a block device")
        default: throw .notADevice(kind: "not a device file")
        }
        // Non-blocking: frames are waited for with poll(2), so that a stop request is noticed.
        let fd = RawBytes.withCString(path) { open($0, O_RDWR | O_NONBLOCK | O_CLOEXEC) }
        guard fd >= 0 else {
            switch errno {
            case EACCES, EPERM: throw .permissionDenied
            case ENOENT, ENODEV, ENXIO: throw .noDevice
            case EBUSY: throw .busy
            default: throw .deviceFailed(operation: "open", reason: systemMessage(errno))
            }
        }
        descriptor = fd
        var cap = v4l2_capability()
        if Self.control(fd, V4L2Request.queryCapability, &cap) != 0 {
            let code = errno
            close(fd)
            switch code {
            case ENOTTY, EINVAL: throw .notVideoDevice
            case ENODEV, ENXIO: throw .noDevice
            default: throw .deviceFailed(operation: "VIDIOC_QUERYCAP", reason: systemMessage(code))
            }
        }
        card = Self.text(cap.card)
        driver = Self.text(cap.driver)
        bus = Self.text(cap.bus_info)
        capabilities = cap.capabilities & UInt32(V4L2_CAP_DEVICE_CAPS) != 0 ? cap.device_caps : cap.capabilities
    }

    deinit { close(descriptor) }

    /// Whether the node captures single-planar video with streaming (mmap) I/O, which is
    /// what we use; a camera's second node (metadata) does not.
    var canCapture: Bool {
        capabilities & UInt32(V4L2_CAP_VIDEO_CAPTURE) != 0 && capabilities & UInt32(V4L2_CAP_STREAMING) != 0
    }

    /// The pixel formats the device offers for capture, in its order (`VIDIOC_ENUM_FMT`).
    func formats() -> [UInt32] {
        var codes: [UInt32] = []
        for index in 0..<64 {
            var description = v4l2_fmtdesc()
            description.index = UInt32(index)
            description.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
            guard Self.control(descriptor, V4L2Request.enumerateFormats, &description) == 0 else { break }
            codes.append(description.pixelformat)
        }
        return codes
    }

    /// `ioctl(2)` on this device, retried when a signal interrupts it; a failure becomes
    /// `.disconnected` when the device has gone, else `.deviceFailed` naming `operation`.
    func control<T>(_ request: UInt, _ operation: String, _ argument: inout T) throws(CaptureError) {
        guard Self.control(descriptor, request, &argument) != 0 else { return }
        throw Self.failure(operation, errno)
    }

    /// The error for `code` from a V4L2 call on an open device.
    static func failure(_ operation: String, _ code: Int32) -> CaptureError {
        switch code {
        case ENODEV, ENXIO: return .disconnected
        case EBUSY: return .busy
        default: return .deviceFailed(operation: operation, reason: systemMessage(code))
        }
    }

    /// `ioctl(2)` retried on EINTR; returns its result with errno set.
    static func control<T>(_ fd: Int32, _ request: UInt, _ argument: inout T) -> Int32 {
        var result: Int32
        repeat {
            result = withUnsafeMutablePointer(to: &argument) { ioctl(fd, request, UnsafeMutableRawPointer($0)) }
        } while result != 0 && errno == EINTR
        return result
    }

    /// A fixed-size C string field of a V4L2 struct as Swift text.
    private static func text<T>(_ field: T) -> String {
        withUnsafeBytes(of: field) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
    }
}

/// A driver's buffer mapped into our memory with `mmap(2)`; unmapped in `deinit`.
final class MappedBuffer {
    let start: UnsafeMutableRawPointer
    let length: Int

    /// Maps buffer `index` of `device` after asking its offset and length with `VIDIOC_QUERYBUF`.
    init(device: VideoDeviceHandle, index: UInt32) throws(CaptureError) {
        var buffer = v4l2_buffer()
        buffer.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        buffer.memory = V4L2_MEMORY_MMAP.rawValue
        buffer.index = index
        try device.control(V4L2Request.queryBuffer, "VIDIOC_QUERYBUF", &buffer)
        let mapped = mmap(nil, Int(buffer.length), PROT_READ | PROT_WRITE, MAP_SHARED, device.descriptor,
                          off_t(buffer.m.offset))
        guard let mapped, mapped != MAP_FAILED else {
            throw .deviceFailed(operation: "mmap", reason: systemMessage(errno))
        }
        start = mapped
        length = Int(buffer.length)
    }

    deinit { munmap(start, length) }
}
