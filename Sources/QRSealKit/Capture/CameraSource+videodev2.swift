import CV4L2
import Glibc

/// Frames from a V4L2 camera, read through V4L2's ioctls with memory-mapped buffers.
///
/// We talk to V4L2 directly rather than through zbar's video API: zbar's default I/O
/// method crashes `zbarcam` on Debian 12 (zbar issue 239, avoided by asking for mmap), and
/// its errors arrive as printed text, where we need to tell "unplugged" from "busy" from
/// "not a camera". Opening negotiates a format (`VIDIOC_S_FMT`, the first of
/// `PixelFormat.allCases` the device offers), maps the driver's buffers (`VIDIOC_REQBUFS`,
/// `VIDIOC_QUERYBUF`, `mmap`), queues them (`VIDIOC_QBUF`) and starts streaming
/// (`VIDIOC_STREAMON`); each frame is dequeued (`VIDIOC_DQBUF`), its luma copied out, and
/// the buffer queued again. `deinit` stops streaming, unmaps and closes.
public final class CameraSource: FrameSource {
    public let path: String
    public let width: Int
    public let height: Int
    public let pixelFormat: PixelFormat
    /// The driver's name for the camera.
    public var card: String { device.card }

    private let device: VideoDeviceHandle
    private let buffers: [MappedBuffer]
    private let bytesPerLine: Int
    private let shouldStop: StopCheck
    private let frameTimeout: Int
    private var streaming = false
    private var framesRead = 0
    private var firstTimestamp: Double?

    /// The capture size asked for when the caller names none; the driver picks the nearest it has.
    public static let defaultSize = (width: 1280, height: 720)
    /// Whether frames carry their colour (`Frame.chroma`) for a preview; detection needs the
    /// luma alone.
    public var keepsColor = false

    /// Opens `path` and starts capturing at (about) `size`. `frameTimeout` is how many
    /// seconds without a frame count as a failure; `shouldStop` is asked while waiting.
    public init(path: String, size: (width: Int, height: Int)? = nil, frameTimeout: Int = 5,
                shouldStop: @escaping StopCheck = { false }) throws(CaptureError) {
        self.path = path
        self.shouldStop = shouldStop
        self.frameTimeout = frameTimeout
        let device = try VideoDeviceHandle(path: path)
        guard device.canCapture else { throw .cannotCapture(card: device.card) }
        let offered = device.formats()
        guard let chosen = PixelFormat.allCases.first(where: { offered.contains($0.fourcc) }) else {
            throw .noSupportedFormat(offered: offered.map(PixelFormat.name(of:)))
        }
        var format = v4l2_format()
        format.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        let wanted = size ?? Self.defaultSize
        format.fmt.pix.width = UInt32(wanted.width)
        format.fmt.pix.height = UInt32(wanted.height)
        format.fmt.pix.pixelformat = chosen.fourcc
        format.fmt.pix.field = V4L2_FIELD_ANY.rawValue
        try device.control(V4L2Request.setFormat, "VIDIOC_S_FMT", &format)
        // The driver may substitute another format; read it if we can.
        guard let granted = PixelFormat(fourcc: format.fmt.pix.pixelformat) else {
            throw .noSupportedFormat(offered: [PixelFormat.name(of: format.fmt.pix.pixelformat)])
        }
        width = Int(format.fmt.pix.width)
        height = Int(format.fmt.pix.height)
        pixelFormat = granted
        bytesPerLine = Int(format.fmt.pix.bytesperline)
        guard width > 0, height > 0 else {
            throw .deviceFailed(operation: "VIDIOC_S_FMT", reason: "the driver granted a \(width)x\(height) frame")
        }

        var request = v4l2_requestbuffers()
        request.count = 4
        request.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        request.memory = V4L2_MEMORY_MMAP.rawValue
        try device.control(V4L2Request.requestBuffers, "VIDIOC_REQBUFS", &request)
        guard request.count >= 1 else {
            throw .deviceFailed(operation: "VIDIOC_REQBUFS", reason: "the driver granted no buffers")
        }
        var mapped: [MappedBuffer] = []
        for index in 0..<request.count { mapped.append(try MappedBuffer(device: device, index: index)) }
        self.device = device
        self.buffers = mapped
        for index in 0..<request.count { try queue(index) }
        var type = Int32(V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue)
        try device.control(V4L2Request.streamOn, "VIDIOC_STREAMON", &type)
        streaming = true
    }

    deinit {
        if streaming {
            var type = Int32(V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue)
            _ = VideoDeviceHandle.control(device.descriptor, V4L2Request.streamOff, &type)
        }
        // The buffers unmap, then the device closes, as the properties are released.
    }

    private func queue(_ index: UInt32) throws(CaptureError) {
        var buffer = v4l2_buffer()
        buffer.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        buffer.memory = V4L2_MEMORY_MMAP.rawValue
        buffer.index = index
        try device.control(V4L2Request.queueBuffer, "VIDIOC_QBUF", &buffer)
    }

    /// Waits for the next frame (`poll`, then `VIDIOC_DQBUF`) and copies its luma out.
    public func nextFrame() throws(CaptureError) -> Frame? {
        let slice: Int32 = 100
        var waited = 0
        while true {
            if shouldStop() { throw .stopped }
            var waiting = pollfd(fd: device.descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&waiting, 1, slice)
            if ready < 0 {
                if errno == EINTR { continue }
                throw VideoDeviceHandle.failure("poll", errno)
            }
            if ready == 0 {
                waited += Int(slice)
                if waited >= frameTimeout * 1000 { throw .noFrames(seconds: frameTimeout) }
                continue
            }
            var buffer = v4l2_buffer()
            buffer.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
            buffer.memory = V4L2_MEMORY_MMAP.rawValue
            if VideoDeviceHandle.control(device.descriptor, V4L2Request.dequeueBuffer, &buffer) != 0 {
                let code = errno
                if code == EAGAIN { continue }
                // After an unplug the driver answers ENODEV; some answer EIO once streaming breaks.
                throw code == EIO ? .disconnected : VideoDeviceHandle.failure("VIDIOC_DQBUF", code)
            }
            guard Int(buffer.index) < buffers.count else {
                throw .deviceFailed(operation: "VIDIOC_DQBUF", reason: "the driver returned unknown buffer \(buffer.index)")
            }
            let frame: Frame?
            do {
                frame = try copyFrame(buffer)
            } catch {
                try queue(buffer.index)
                throw error
            }
            try queue(buffer.index)
            if let frame { return frame }
        }
    }

    /// The frame in a dequeued buffer; nil for one the driver marks as damaged, which is skipped.
    private func copyFrame(_ buffer: v4l2_buffer) throws(CaptureError) -> Frame? {
        if buffer.flags & UInt32(V4L2_BUF_FLAG_ERROR) != 0 { return nil }
        let mapped = buffers[Int(buffer.index)]
        let used = buffer.bytesused > 0 ? min(Int(buffer.bytesused), mapped.length) : mapped.length
        let data = UnsafeRawBufferPointer(start: mapped.start, count: used)
        var chroma: Frame.Chroma?
        let image: GrayImage
        if keepsColor {
            (image, chroma) = try pixelFormat.lumaAndChroma(data, width: width, height: height, bytesPerLine: bytesPerLine)
        } else {
            image = try pixelFormat.luma(data, width: width, height: height, bytesPerLine: bytesPerLine)
        }
        framesRead += 1
        return Frame(number: framesRead, time: frameTime(buffer.timestamp), image: image, chroma: chroma)
    }

    /// Seconds since the first frame, from the driver's timestamps, else from our clock.
    private func frameTime(_ stamp: timeval) -> Double {
        var now = Double(stamp.tv_sec) + Double(stamp.tv_usec) / 1_000_000
        if now == 0 {
            var clock = timespec()
            clock_gettime(CLOCK_MONOTONIC, &clock)
            now = Double(clock.tv_sec) + Double(clock.tv_nsec) / 1_000_000_000
        }
        let first = firstTimestamp ?? now
        firstTimestamp = first
        return max(0, now - first)
    }
}
