import Foundation
import Testing
import TestSupport
@testable import QRSealKit

/// YUV4MPEG2 streams written by the tests' own writer (`Scenes`), read back frame by frame;
/// and every way a stream can be broken.
@Suite("Capture: YUV4MPEG2 reader")
struct CaptureStreamTests {
    /// A frame whose every pixel is distinct enough to catch an offset or stride slip.
    static func pattern(_ width: Int, _ height: Int, seed: Int) -> [UInt8] {
        (0..<(width * height)).map { UInt8(truncatingIfNeeded: $0 * 7 + seed * 31) }
    }

    static func reader(_ data: Data, maxPixels: Int = ImageDecoder.defaultMaxPixels) throws(CaptureError) -> YUV4MPEGReader {
        try YUV4MPEGReader(input: MemoryInput([UInt8](data)), maxPixels: maxPixels)
    }

    static func error(_ data: Data, maxPixels: Int = ImageDecoder.defaultMaxPixels) -> CaptureError? {
        do {
            let reader = try reader(data, maxPixels: maxPixels)
            while try reader.nextFrame() != nil {}
            return nil
        } catch {
            return error
        }
    }

    @Test("every colour space, odd sizes: each frame's luma exactly, the chroma read past",
          arguments: ["420jpeg", "420paldv", "420mpeg2", "420", "422", "444", "mono"])
    func colorSpaces(space: String) throws {
        let (w, h) = (33, 17)
        let frames = (0..<3).map { Self.pattern(w, h, seed: $0) }
        let reader = try Self.reader(Scenes.y4m(width: w, height: h, frames: frames, colorSpace: space))
        #expect(reader.header.colorSpace.rawValue == space)
        #expect(reader.header.frameBytes == w * h + Scenes.chromaBytes(width: w, height: h, colorSpace: space))
        for (i, expected) in frames.enumerated() {
            let frame = try #require(try reader.nextFrame())
            #expect(frame.number == i + 1)
            #expect(frame.image == GrayImage(width: w, height: h, pixels: expected))
        }
        #expect(try reader.nextFrame() == nil)
    }

    @Test("frame times come from F; 25 fps without it, as ffmpeg assumes; C defaults to 420jpeg")
    func frameTimes() throws {
        let ntsc = try Self.reader(Scenes.y4m(width: 4, height: 2, frames: [[UInt8](repeating: 0, count: 8)],
                                              rate: "30000:1001"))
        #expect(ntsc.header.time(ofFrame: 31) == 30 * 1001 / 30000.0)
        var bare = Data("YUV4MPEG2 W4 H2\n".utf8)
        bare += Scenes.y4mFrame([UInt8](repeating: 9, count: 8), width: 4, height: 2)
        bare += Scenes.y4mFrame([UInt8](repeating: 9, count: 8), width: 4, height: 2)
        let reader = try Self.reader(bare)
        #expect(reader.header.colorSpace == .c420jpeg && reader.header.frameRate == nil)
        #expect(try reader.nextFrame()?.time == 0)
        #expect(try reader.nextFrame()?.time == 0.04)
    }

    @Test("what ffmpeg writes is read: XYSCSS, interlacing, aspect, frame parameters, unknown letters")
    func ffmpegHeader() throws {
        var data = Data("YUV4MPEG2 W8 H4 F25:1 It A0:0 C420jpeg XYSCSS=420JPEG Zfuture\n".utf8)
        data += Data("FRAME Ixyz\n".utf8) + Data(Self.pattern(8, 4, seed: 1)) + Data(repeating: 128, count: 16)
        let frame = try #require(try Self.reader(data).nextFrame())
        #expect(frame.image.pixels == Self.pattern(8, 4, seed: 1))
    }

    @Test("broken headers each get their own error", arguments: [
        ("", CaptureError.emptyStream),
        ("GIF89a\u{1}\u{0}\u{1}\u{0}", .notAStream),
        ("YUV4MPEG W4 H4\n", .notAStream),
        ("YUV4MPEG2W4 H4\n", .notAStream),
        ("YUV4MPEG2 H4\n", .badHeader(reason: "no width (W)")),
        ("YUV4MPEG2 W4\n", .badHeader(reason: "no height (H)")),
        ("YUV4MPEG2 W0 H4\n", .badHeader(reason: "width (W) '0' is not a whole number above 0")),
        ("YUV4MPEG2 W-4 H4\n", .badHeader(reason: "width (W) '-4' is not a whole number above 0")),
        ("YUV4MPEG2 W4 Hx\n", .badHeader(reason: "height (H) 'x' is not a whole number above 0")),
        ("YUV4MPEG2 W4 H4 F30\n", .badHeader(reason: "frame rate F30 is not two whole numbers N:D")),
        ("YUV4MPEG2 W4 H4 F30:0\n", .badHeader(reason: "frame rate F30:0 is not two whole numbers N:D")),
        ("YUV4MPEG2 W4 H4 Ax\n", .badHeader(reason: "pixel aspect Ax is not two whole numbers N:D")),
        ("YUV4MPEG2 W4 H4 Iq\n", .badHeader(reason: "interlacing Iq is not one of p, t, b, m")),
        ("YUV4MPEG2 W4 H4 C420p10\n", .unsupportedColorSpace("420p10")),
        ("YUV4MPEG2 W4 H4 Cmono16\n", .unsupportedColorSpace("mono16")),
        ("YUV4MPEG2 W4 H4 C411\n", .unsupportedColorSpace("411")),
        ("YUV4MPEG2 W100000 H100000\n", .tooLarge(width: 100_000, height: 100_000, limit: 100_000_000)),
        ("YUV4MPEG2 W4 H4", .badHeader(reason: "the stream ends inside it")),
    ])
    func brokenHeader(text: String, expected: CaptureError) {
        #expect(Self.error(Data(text.utf8)) == expected)
    }

    @Test("a header with no line break is refused after 4096 bytes, not read on forever")
    func endlessHeader() {
        let data = Data("YUV4MPEG2 W4 H4 X".utf8) + Data(repeating: 0x41, count: 100_000)
        #expect(Self.error(data) == .badHeader(reason: "no line break in its first 4096 bytes"))
    }

    @Test("--max-pixels style limit: frames larger than allowed are refused before any is read")
    func limit() {
        let data = Scenes.y4m(width: 64, height: 64, frames: [])
        #expect(Self.error(data, maxPixels: 4000) == .tooLarge(width: 64, height: 64, limit: 4000))
    }

    @Test("broken and truncated frames name the frame, after the good ones were read")
    func brokenFrames() throws {
        let (w, h) = (8, 4)  // 420: 32 luma + 16 chroma bytes
        let good = Scenes.y4m(width: w, height: h, frames: [Self.pattern(w, h, seed: 1), Self.pattern(w, h, seed: 2)])
        let header = Scenes.y4mHeader(width: w, height: h)
        let cases: [(Data, CaptureError)] = [
            (good.dropLast(1), .truncatedFrame(frame: 2, received: 47, expected: 48)),
            (good.dropLast(20), .truncatedFrame(frame: 2, received: 28, expected: 48)),
            (good.dropLast(48), .truncatedFrame(frame: 2, received: 0, expected: 48)),
            (good + Data("FRA".utf8), .badFrameHeader(frame: 3, reason: "the stream ends inside it")),
            (good + Data("FRAMES\n".utf8), .badFrameHeader(frame: 3, reason: "expected 'FRAME', found 'FRAMES'")),
            (good + Data([0]), .badFrameHeader(frame: 3, reason: "the stream ends inside it")),
            (good + Data("\n".utf8), .badFrameHeader(frame: 3, reason: "expected 'FRAME', found ''")),
            (Data(header.utf8) + Data("frame\n".utf8), .badFrameHeader(frame: 1, reason: "expected 'FRAME', found 'frame'")),
            (good + Data("FRAME".utf8) + Data(repeating: 0x20, count: 5000),
             .badFrameHeader(frame: 3, reason: "no line break in its first 4096 bytes")),
        ]
        for (data, expected) in cases {
            let reader = try Self.reader(data)
            var read = 0
            do {
                while try reader.nextFrame() != nil { read += 1 }
                Issue.record("no error for \(expected)")
            } catch {
                #expect(error == expected)
            }
            #expect(read == expected.frameNumber - 1)
        }
    }

    @Test("one extra byte after a frame puts the next header out of step, and that is caught")
    func outOfStep() throws {
        let (w, h) = (8, 4)
        var data = Data(Scenes.y4mHeader(width: w, height: h, colorSpace: "mono").utf8)
        data += Scenes.y4mFrame(Self.pattern(w, h, seed: 1), width: w, height: h, colorSpace: "mono") + Data([0x7F])
        data += Scenes.y4mFrame(Self.pattern(w, h, seed: 2), width: w, height: h, colorSpace: "mono")
        #expect(Self.error(data) == .badFrameHeader(frame: 2, reason: "expected 'FRAME', found '?FRAME'"))
    }

    @Test("frames are handed out as they arrive through a pipe, before the writer has finished")
    func streamsFromPipe() throws {
        let fds = try closingPipe()
        defer { close(fds[0]) }
        let (w, h) = (16, 8)
        func send(_ data: Data) { data.withUnsafeBytes { _ = write(fds[1], $0.baseAddress, $0.count) } }
        send(Data(Scenes.y4mHeader(width: w, height: h).utf8) + Scenes.y4mFrame(Self.pattern(w, h, seed: 1), width: w, height: h))
        let reader = try YUV4MPEGReader(input: FileInput(descriptor: fds[0]))
        #expect(try reader.nextFrame()?.image.pixels == Self.pattern(w, h, seed: 1))
        send(Scenes.y4mFrame(Self.pattern(w, h, seed: 2), width: w, height: h))
        close(fds[1])
        #expect(try reader.nextFrame()?.image.pixels == Self.pattern(w, h, seed: 2))
        #expect(try reader.nextFrame() == nil)
    }

    @Test("a silent pipe does not hold a stop request up: the wait ends with .stopped")
    func stopWhileWaiting() throws {
        let fds = try closingPipe()
        defer { close(fds[0]); close(fds[1]) }
        let asked = Counter()
        let input = FileInput(descriptor: fds[0], shouldStop: { asked.next() >= 3 })
        #expect(throws: CaptureError.stopped) { try YUV4MPEGReader(input: input) }
        #expect(asked.value >= 3)
    }

    @Test("a stream file that cannot be opened says why")
    func unopenable() throws {
        let dir = try TempDir()
        #expect(throws: CaptureError.readFailed(reason: "no such file or directory")) {
            try FileInput(path: dir.path("missing.y4m"))
        }
        #expect(throws: CaptureError.readFailed(reason: "is a directory")) { try FileInput(path: dir.url.path) }
    }
}

/// Counts calls from any thread.
final class Counter: @unchecked Sendable {
    private var count = 0
    private let lock = NSLock()
    var value: Int { lock.lock(); defer { lock.unlock() }; return count }
    func next() -> Int { lock.lock(); defer { lock.unlock() }; count += 1; return count }
}

extension CaptureError {
    /// The frame a stream error names.
    var frameNumber: Int {
        switch self {
        case .truncatedFrame(let frame, _, _), .badFrameHeader(let frame, _): return frame
        default: return 0
        }
    }
}

/// A pipe whose ends close when a program starts, so that no program another test starts
/// keeps a copy of the write end (the reader would then never see the end).
private func closingPipe() throws -> [Int32] {
    var fds: [Int32] = [0, 0]
    try #require(pipe(&fds) == 0)
    for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
    return fds
}
