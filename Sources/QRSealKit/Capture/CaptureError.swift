import Glibc

/// Why frames could not be had from a camera or a stream. The caller names the device or
/// stream; the descriptions say what went wrong with it.
public enum CaptureError: Error, Equatable, Sendable {
    // MARK: Cameras

    /// Nothing exists at the path (ENOENT), or the device went away before it was opened (ENODEV, ENXIO).
    case noDevice
    /// The path is not a character device: a regular file, a directory, a pipe.
    case notADevice(kind: String)
    /// A character device that does not answer V4L2's VIDIOC_QUERYCAP (ENOTTY), such as /dev/null.
    case notVideoDevice
    /// A V4L2 device without streaming video capture: a metadata, output or radio node.
    case cannotCapture(card: String)
    /// This user may not open the device (EACCES, EPERM).
    case permissionDenied
    /// Another program holds the device (EBUSY).
    case busy
    /// The device offers none of the pixel formats we read; `offered` lists its four-character codes.
    case noSupportedFormat(offered: [String])
    /// The device disappeared while frames were being read (ENODEV, EIO): unplugged.
    case disconnected
    /// The device sent no frame for `seconds`.
    case noFrames(seconds: Int)
    /// A V4L2 call failed in a way not listed above; `operation` is the C name, e.g. `VIDIOC_S_FMT`.
    case deviceFailed(operation: String, reason: String)
    /// A frame the driver delivered could not be decoded (a damaged MJPEG frame, a short buffer).
    case badFrame(reason: String)

    // MARK: Streams

    /// The stream holds no bytes at all.
    case emptyStream
    /// The first bytes are not `YUV4MPEG2 `.
    case notAStream
    /// The stream header is malformed; the text says how.
    case badHeader(reason: String)
    /// The header names a colour space we do not read.
    case unsupportedColorSpace(String)
    /// The header declares more pixels per frame than the caller allows.
    case tooLarge(width: Int, height: Int, limit: Int)
    /// Frame `frame` (counted from 1) does not start with a valid `FRAME` line.
    case badFrameHeader(frame: Int, reason: String)
    /// The stream ends inside frame `frame` (counted from 1), after `received` of `expected` bytes.
    case truncatedFrame(frame: Int, received: Int, expected: Int)
    /// The file or pipe could not be opened or read; `reason` is the system's message.
    case readFailed(reason: String)

    // MARK: Either

    /// The caller asked the source to stop (a signal, a timeout) while it waited for data.
    case stopped
}

extension CaptureError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .noDevice: return "no such device"
        case .notADevice(let kind): return "not a camera: it is \(kind)"
        case .notVideoDevice: return "not a camera: the device is not a video (V4L2) device"
        case .cannotCapture(let card):
            return "'\(card)' cannot capture video (it is a metadata or output node, not a camera's capture node)"
        case .permissionDenied: return "permission denied"
        case .busy: return "the camera is in use by another program"
        case .noSupportedFormat(let offered):
            let list = offered.isEmpty ? "nothing" : offered.joined(separator: ", ")
            return "the camera offers no pixel format qrseal reads (it offers \(list); qrseal reads "
                + PixelFormat.allCases.map(\.rawValue).joined(separator: ", ") + ")"
        case .disconnected: return "the camera was disconnected"
        case .noFrames(let seconds): return "the camera sent no frame for \(seconds) seconds"
        case let .deviceFailed(operation, reason): return "\(operation) failed: \(reason)"
        case .badFrame(let reason): return "the camera sent a damaged frame: \(reason)"
        case .emptyStream: return "empty stream: no YUV4MPEG2 header"
        case .notAStream: return "not a YUV4MPEG2 stream (it does not start with 'YUV4MPEG2 ')"
        case .badHeader(let reason): return "broken YUV4MPEG2 header: \(reason)"
        case .unsupportedColorSpace(let name):
            return "unsupported YUV4MPEG2 colour space C\(name) (qrseal reads "
                + YUV4MPEGHeader.ColorSpace.allCases.map { "C" + $0.rawValue }.joined(separator: ", ") + ")"
        case let .tooLarge(width, height, limit):
            return "frames are \(width)x\(height), more than the \(limit) pixels allowed"
        case let .badFrameHeader(frame, reason): return "frame \(frame) has a broken header: \(reason)"
        case let .truncatedFrame(frame, received, expected):
            return received == 0 && expected == 0
                ? "the stream ends inside frame \(frame)'s header"
                : "frame \(frame) is truncated: the stream ends after \(received) of its \(expected) bytes"
        case .readFailed(let reason): return "cannot read: \(reason)"
        case .stopped: return "stopped"
        }
    }
}

/// The system's message for `code`, lowercased to read like ours ("no such file or directory").
func systemMessage(_ code: Int32) -> String {
    guard let text = strerror(code) else { return "error \(code)" }
    return String(cString: text).lowercased()
}
