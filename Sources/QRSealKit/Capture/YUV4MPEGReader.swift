/// Reads the frames of a YUV4MPEG2 stream one at a time, as they arrive, keeping the luma.
///
/// Every byte is accounted for: each frame must start with a `FRAME` line and hold exactly
/// the header's plane sizes, so a stream cut short or out of step is refused with the number
/// of the frame where it broke, rather than read as shifted pictures.
public final class YUV4MPEGReader: FrameSource {
    public let header: YUV4MPEGHeader
    private let input: BufferedInput
    private var framesRead = 0
    /// Where the chroma planes are read to and dropped; kept between frames.
    private var scratch: [UInt8]

    /// Whether frames carry their colour (`Frame.chroma`) for display; detection needs the
    /// luma alone, so by default the chroma planes are read and dropped.
    public var keepsColor = false

    public var width: Int { header.width }
    public var height: Int { header.height }

    /// Reads and checks the stream header. `maxPixels` bounds a frame's size before any
    /// frame buffer is allocated.
    public init(input: ByteInput, maxPixels: Int = ImageDecoder.defaultMaxPixels) throws(CaptureError) {
        let buffered = BufferedInput(input)
        let start = try buffered.peek(YUV4MPEGHeader.magic.count + 1)
        guard !start.isEmpty else { throw .emptyStream }
        guard start.starts(with: YUV4MPEGHeader.magic) || YUV4MPEGHeader.magic.starts(with: start) else {
            throw .notAStream
        }
        switch try buffered.readLine(maxLength: YUV4MPEGHeader.maxLineLength) {
        case .line(let line): header = try YUV4MPEGHeader.parse(line, maxPixels: maxPixels)
        case .end, .cut: throw .badHeader(reason: "the stream ends inside it")
        case .tooLong: throw .badHeader(reason: "no line break in its first \(YUV4MPEGHeader.maxLineLength) bytes")
        }
        self.input = buffered
        scratch = [UInt8](repeating: 0, count: min(header.colorSpace.chromaBytes(width: header.width,
                                                                                 height: header.height), 1 << 20))
    }

    /// The next frame's luma; nil when the stream ends cleanly between frames.
    public func nextFrame() throws(CaptureError) -> Frame? {
        let number = framesRead + 1
        switch try input.readLine(maxLength: YUV4MPEGHeader.maxLineLength) {
        case .end: return nil
        case .cut: throw .badFrameHeader(frame: number, reason: "the stream ends inside it")
        case .tooLong:
            throw .badFrameHeader(frame: number, reason: "no line break in its first \(YUV4MPEGHeader.maxLineLength) bytes")
        case .line(let line):
            let tag = Array("FRAME".utf8)
            guard line.starts(with: tag), line.count == tag.count || line[tag.count] == 0x20 else {
                let shown = String(decoding: line.prefix(16).map { (0x20..<0x7F).contains($0) ? $0 : 0x3F }, as: UTF8.self)
                throw .badFrameHeader(frame: number, reason: "expected 'FRAME', found '\(shown)'")
            }
        }
        let lumaBytes = header.width * header.height
        let expected = header.frameBytes
        var received = 0
        var failure: CaptureError?
        let pixels = [UInt8](unsafeUninitializedCapacity: lumaBytes) { buffer, count in
            switch Result(catching: { () throws(CaptureError) -> Int in
                try input.read(into: UnsafeMutableRawBufferPointer(buffer))
            }) {
            case .success(let n): received = n
            case .failure(let error): failure = error
            }
            // Bytes the stream did not supply are zeroed; the frame is refused below anyway.
            if received < lumaBytes { (buffer.baseAddress! + received).initialize(repeating: 0, count: lumaBytes - received) }
            count = lumaBytes
        }
        if let failure { throw failure }
        var kept: Frame.Chroma?
        if received == lumaBytes, keepsColor, let planes = Frame.Chroma.planeSize(header) {
            var failure: CaptureError?
            let bytes = [UInt8](unsafeUninitializedCapacity: expected - lumaBytes) { buffer, count in
                var got = 0
                reading: while got < buffer.count {
                    switch Result(catching: { () throws(CaptureError) -> Int in
                        try input.read(into: UnsafeMutableRawBufferPointer(rebasing: UnsafeMutableRawBufferPointer(buffer)[got...]))
                    }) {
                    case .success(0): break reading
                    case .success(let n): got += n
                    case .failure(let error): failure = error; break reading
                    }
                }
                if got < buffer.count { (buffer.baseAddress! + got).initialize(repeating: 128, count: buffer.count - got) }
                received += got
                count = buffer.count
            }
            if let failure { throw failure }
            let half = planes.width * planes.height
            kept = Frame.Chroma(width: planes.width, height: planes.height, cb: Array(bytes[..<half]), cr: Array(bytes[half...]))
        } else if received == lumaBytes {
            var chroma = expected - lumaBytes
            while chroma > 0 {
                let part = min(chroma, scratch.count)
                let got = try scratch.withUnsafeMutableBytes { raw in
                    Result { () throws(CaptureError) -> Int in
                        try input.read(into: UnsafeMutableRawBufferPointer(rebasing: raw[..<part]))
                    }
                }.get()
                received += got
                chroma -= got
                if got < part { break }
            }
        }
        guard received == expected else { throw .truncatedFrame(frame: number, received: received, expected: expected) }
        framesRead = number
        return Frame(number: number, time: header.time(ofFrame: number),
                     image: GrayImage(width: header.width, height: header.height, pixels: pixels), chroma: kept)
    }
}
