import Foundation
import Testing
import TestSupport
@testable import QRSealKit

/// Frames drawn from our own QR renders, run through a `ScanSession`: the exact events for
/// codes that appear, move, grow, sit in noise, leave and come back, side by side.
@Suite("Capture: scan session events")
struct ScanSessionTests {
    static let width = 320, height = 240

    /// The QR code of `text`, `scale` pixels per module, with a 4-module quiet zone.
    static func code(_ text: String, scale: Int = 3) -> Sprite {
        let image = try! QREncoder().encode(.text(text)).image(scale: scale, margin: 4)
        return Sprite(width: image.width, height: image.height, pixels: image.pixels)
    }

    /// Frame `number` at `rate` frames per second.
    static func frame(_ number: Int, _ placements: [Placement], noise: Int = 0, rate: Double = 30,
                      width: Int = width, height: Int = height) -> Frame {
        Frame(number: number, time: Double(number - 1) / rate,
              image: GrayImage(width: width, height: height,
                               pixels: Scenes.frame(width: width, height: height, placements, noise: noise, seed: UInt64(number))))
    }

    /// The events of `frames` and of the session's end, as "add 1 A @4".
    static func events(_ frames: [Frame], _ options: ScanSession.Options = .init(), finish: Bool = true) -> [String] {
        var session = ScanSession(detector: Detector(effort: .fast), options: options)
        var all = frames.flatMap { session.process($0) }
        if finish { all += session.finish() }
        return all.map(describe)
    }

    static func describe(_ e: ScanEvent) -> String {
        "\(e.kind.rawValue) \(e.id) \(e.detection.text ?? "?") @\(e.frame)"
    }

    let a = Self.code("A"), b = Self.code("B")

    @Test("a code that appears is added on its first frame and removed forgetAfter frames after its last")
    func appearAndDisappear() {
        let frames = (1...20).map { n in Self.frame(n, (4...8).contains(n) ? [Placement(a, x: 40, y: 40)] : []) }
        #expect(Self.events(frames, .init(forgetAfter: .frames(5))) == ["add 1 A @4", "remove 1 A @13"])
    }

    @Test("a moving code is updated on every frame it moves by more than the tolerance")
    func moving() throws {
        let frames = (1...6).map { n in Self.frame(n, [Placement(a, x: 20 + 12 * n, y: 50)]) }
        #expect(Self.events(frames) == ["add 1 A @1"] + (2...6).map { "update 1 A @\($0)" } + ["remove 1 A @6"])
        var session = ScanSession(detector: Detector(effort: .fast))
        let last = try #require(frames.flatMap { session.process($0) }.last)
        // The code's quiet zone is 12 pixels; its top-left dark module starts at 20 + 72 + 12.
        #expect(abs(last.detection.corners[0].x - 104) <= 3 && abs(last.detection.corners[0].y - 62) <= 3,
                "\(last.detection.corners)")
    }

    @Test("a still code in heavy noise is added once, with no spurious updates or removes")
    func noisyStill() {
        let frames = (1...12).map { n in Self.frame(n, [Placement(a, x: 100, y: 60)], noise: 24) }
        #expect(Self.events(frames, finish: false) == ["add 1 A @1"])
    }

    @Test("a code coming closer (growing) is updated as it grows")
    func scaled() {
        let frames = [1.0, 1.5, 2.0].enumerated().map { i, s in
            Self.frame(i + 1, [Placement(a, x: 160 - Int(43.5 * s), y: 120 - Int(43.5 * s), scale: s)])
        }
        #expect(Self.events(frames, finish: false) == ["add 1 A @1", "update 1 A @2", "update 1 A @3"])
    }

    @Test("two codes at once are two items, added in reading order; the one that leaves is removed alone")
    func twoCodes() {
        let frames = (1...6).map { n in
            Self.frame(n, [Placement(a, x: 20, y: 70)] + (n == 1 ? [Placement(b, x: 200, y: 70)] : []))
        }
        #expect(Self.events(frames, .init(forgetAfter: .frames(3))) == [
            "add 1 A @1", "add 2 B @1", "remove 2 B @4", "remove 1 A @6",
        ])
    }

    @Test("two identical codes side by side stay two items; each keeps its id as it moves")
    func twoIdenticalCodes() {
        let frames = (1...4).map { n in
            Self.frame(n, [Placement(a, x: 10 + 8 * n, y: 70)] + (n <= 2 ? [Placement(a, x: 210 - 8 * n, y: 70)] : []))
        }
        #expect(Self.events(frames, .init(forgetAfter: .frames(2)), finish: false) == [
            "add 1 A @1", "add 2 A @1", "update 1 A @2", "update 2 A @2", "update 1 A @3", "update 1 A @4", "remove 2 A @4",
        ])
    }

    @Test("a code that leaves and comes back after being forgotten is a new item")
    func comesBack() {
        let frames = (1...12).map { n in Self.frame(n, (n <= 3 || n >= 11) ? [Placement(a, x: 60, y: 60)] : []) }
        #expect(Self.events(frames, .init(forgetAfter: .frames(3))) == [
            "add 1 A @1", "remove 1 A @6", "add 2 A @11", "remove 2 A @12",
        ])
    }

    @Test("forgetting by seconds follows the frames' times, not the clock")
    func forgetBySeconds() {
        // 8 frames per second: frame 2 is at 0.125 s, frame 6 half a second later.
        let frames = (1...8).map { n in Self.frame(n, n <= 2 ? [Placement(a, x: 60, y: 60)] : [], rate: 8) }
        #expect(Self.events(frames, .init(forgetAfter: .seconds(0.5))) == ["add 1 A @1", "remove 1 A @6"])
    }

    @Test("a region of interest: codes outside it are not read; corners stay in the frame's pixels")
    func regionOfInterest() throws {
        let frames = [Self.frame(1, [Placement(a, x: 10, y: 60), Placement(b, x: 200, y: 60)])]
        let roi = Region(x: 180, y: 40, width: 140, height: 150)
        #expect(Self.events(frames, .init(regionOfInterest: roi), finish: false) == ["add 1 B @1"])
        var session = ScanSession(detector: Detector(effort: .fast), options: .init(regionOfInterest: roi))
        let corner = try #require(session.process(frames[0]).first?.detection.corners.first)
        #expect(abs(corner.x - 212) <= 3 && abs(corner.y - 72) <= 3, "\(corner)")
        let outside = ScanSession(options: .init(regionOfInterest: Region(x: 400, y: 0, width: 10, height: 10)))
        #expect(outside.detect(in: frames[0].image).isEmpty)
    }

    /// A frame of `width` × `height` white pixels holding Tests/Images/eci/latin1.png (a QR
    /// code declaring ISO-8859-1 by ECI) at (`x`, `y`).
    static func eciFrame(width: Int, height: Int, x: Int, y: Int) throws -> GrayImage {
        let url = Tools.packageRoot.appendingPathComponent("Tests/Images/eci/latin1.png")
        let code = try ImageDecoder().decode([UInt8](try Data(contentsOf: url)))
        var pixels = [UInt8](repeating: 255, count: width * height)
        for row in 0..<code.height {
            for column in 0..<code.width { pixels[(y + row) * width + x + column] = code.pixels[row * code.width + column] }
        }
        return GrayImage(width: width, height: height, pixels: pixels)
    }

    @Test("a region of interest and a reduced frame keep the text a code declares by ECI, not a guess from its bytes")
    func declaredTextSurvivesMapping() throws {
        // Its Latin-1 bytes also parse as Shift_JIS: a guess gives "ﾄpfel und ﾖl".
        let text = "Äpfel und Öl"
        let frame = try Self.eciFrame(width: 320, height: 240, x: 100, y: 60)
        #expect(ScanSession(detector: Detector(effort: .fast)).detect(in: frame).map(\.text) == [text])
        let roi = ScanSession(detector: Detector(effort: .fast),
                              options: .init(regionOfInterest: Region(x: 80, y: 40, width: 200, height: 190)))
        let inRegion = roi.detect(in: frame)
        #expect(inRegion.map(\.text) == [text])
        let corner = try #require(inRegion.first?.corners.first)
        #expect(abs(corner.x - 100) <= 3 && abs(corner.y - 60) <= 3, "\(corner)")
        let reduced = ScanSession(detector: Detector(effort: .fast), options: .init(reducedPixels: 40_000))
        let halved = reduced.detect(in: frame, fullSize: false)
        #expect(halved.map(\.text) == [text])
        let moved = try #require(halved.first?.corners.first)
        #expect(abs(moved.x - 100) <= 4 && abs(moved.y - 60) <= 4, "\(moved)")
    }

    @Test("large frames: searched halved, full size every Nth frame, so a tiny code is still read there")
    func reducedFrames() throws {
        let options = ScanSession.Options(forgetAfter: .frames(4), reducedPixels: 20_000, fullSizeEvery: 3)
        // 640x480 halved twice, to 160x120: half a pixel per module, readable only at full
        // size, on frames 1, 4 and 7.
        let tiny = Self.code("tiny", scale: 2)
        let frames = (1...7).map { Self.frame($0, [Placement(tiny, x: 200, y: 160)], noise: 2, width: 640, height: 480) }
        let probe = ScanSession(detector: Detector(effort: .fast), options: options)
        #expect(probe.detect(in: frames[1].image, fullSize: false).isEmpty)
        #expect(probe.detect(in: frames[1].image, fullSize: true).count == 1)
        #expect(Self.events(frames, options) == ["add 1 tiny @1", "remove 1 tiny @7"])
        // A large code is read on the reduced frames too, its corners scaled back.
        let big = Self.code("big", scale: 8)
        let session = ScanSession(detector: Detector(effort: .fast), options: options)
        let image = Self.frame(2, [Placement(big, x: 200, y: 100)], width: 640, height: 480).image
        let reduced = try #require(session.detect(in: image, fullSize: false).first)
        let full = try #require(session.detect(in: image, fullSize: true).first)
        for (r, f) in zip(reduced.corners, full.corners) {
            #expect(abs(r.x - f.x) <= 4 && abs(r.y - f.y) <= 4, "\(reduced.corners) vs \(full.corners)")
        }
    }

    @Test("a linear barcode must be read in two frames before it is added; a QR code in one")
    func linearConfirmation() throws {
        let modules = try #require(Barcodes.ean13Modules("400638133393"))
        let row = [UInt8](repeating: 255, count: 30) + modules.flatMap { [UInt8](repeating: $0 ? 0 : 255, count: 2) }
            + [UInt8](repeating: 255, count: 30)
        let ean = Sprite(width: row.count, height: 60, pixels: Array((0..<60).map { _ in row }.joined()))
        let once = (1...4).map { n in Self.frame(n, n == 1 ? [Placement(ean, x: 40, y: 80)] : []) }
        #expect(Self.events(once).isEmpty)
        let twice = (1...2).map { Self.frame($0, [Placement(ean, x: 40, y: 80)]) }
        #expect(Self.events(twice) == ["add 1 4006381333931 @2", "remove 1 4006381333931 @2"])
    }

    @Test("detections are matched to items by content, nearest first, however far a code jumps")
    func matching() {
        func qr(_ text: String, x: Double) -> Detection {
            Detection(symbology: .qr, bytes: Array(text.utf8),
                      corners: [Point(x: x, y: 0), Point(x: x + 50, y: 0), Point(x: x + 50, y: 50), Point(x: x, y: 50)])
        }
        var session = ScanSession()
        #expect(session.track([qr("A", x: 0), qr("A", x: 200)], frame: 1, time: 0).map(Self.describe) == ["add 1 A @1", "add 2 A @1"])
        // They close in on each other: each stays itself.
        let step = session.track([qr("A", x: 90), qr("A", x: 110)], frame: 2, time: 0.1)
        #expect(step.map { "\($0.id) \($0.detection.corners[0].x)" } == ["1 90.0", "2 110.0"])
        // A jump across the frame is a move, not a remove and an add.
        #expect(session.track([qr("A", x: 600), qr("A", x: 110)], frame: 3, time: 0.2).map(Self.describe) == ["update 1 A @3"])
        #expect(session.inView.map { "\($0.id) \($0.detection.corners[0].x)" } == ["1 600.0", "2 110.0"])
    }

    @Test("a YUV4MPEG2 stream of the moving code gives the same events as its frames")
    func fromStream() throws {
        let frames = (1...5).map { n in Scenes.frame(width: 160, height: 120, [Placement(a, x: 10 + 10 * n, y: 10)]) }
        let reader = try YUV4MPEGReader(input: MemoryInput([UInt8](Scenes.y4m(width: 160, height: 120, frames: frames))))
        var session = ScanSession(detector: Detector(effort: .fast))
        var events: [ScanEvent] = []
        while let frame = try reader.nextFrame() { events += session.process(frame) }
        events += session.finish()
        #expect(events.map(Self.describe) == ["add 1 A @1"] + (2...5).map { "update 1 A @\($0)" } + ["remove 1 A @5"])
        let times: [Double] = [0, 1, 2, 3, 4, 4].map { $0 / 30 }
        #expect(events.map(\.time) == times)
    }
}
