import Foundation
import Testing
import TestSupport
@testable import QRSealKit

/// Live text through Tesseract on frames made here (the rendered lines of Tests/Images/text
/// pasted on a noisy background): which frames are recognised and what is reported.
/// Every session here recognises each frame due (`.everyFrame`), so the events depend only
/// on the frames.
@Suite("Recognize: live text sessions")
struct TextSessionTests {
    static let (width, height) = (760, 240)
    static let folder = Tools.packageRoot.appendingPathComponent("Tests/Images/text").path

    static func sprite(_ name: String) throws -> Sprite {
        let image = try ImageDecoder().decode(Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name + ".png"))))
        return Sprite(width: image.width, height: image.height, pixels: image.pixels)
    }

    static func lines(_ name: String) throws -> [String] {
        try String(contentsOfFile: folder + "/" + name + ".txt", encoding: .utf8).split(separator: "\n").map(String.init)
    }

    /// The events of a session over `count` frames, frame n (from 1) showing `scene(n)`.
    static func events(count: Int, _ scene: (Int) -> [Placement]) throws -> (events: [TextEvent], session: TextSession) {
        let session = TextSession(recognizer: try TextRecognizer(layout: .sparse), options: .init(pacing: .everyFrame))
        var events: [TextEvent] = []
        for n in 1...count {
            let pixels = Scenes.frame(width: width, height: height, scene(n), noise: 3, seed: UInt64(n))
            events += session.process(Frame(number: n, time: Double(n - 1) / 30, image: GrayImage(width: width, height: height, pixels: pixels)))
        }
        return (events + session.finish(), session)
    }

    @Test("text that appears, stays, changes in place and goes: add, update, remove, each once per block")
    func lifecycle() throws {
        let sans = try Self.sprite("sans"), serif = try Self.sprite("serif")
        let (events, session) = try Self.events(count: 36) { n in
            switch n {
            case 6...15: [Placement(sans, x: 20, y: 50)]
            case 16...25: [Placement(serif, x: 20, y: 50)]
            default: []
            }
        }
        let adds = events.filter { $0.kind == .add }, updates = events.filter { $0.kind == .update }
        #expect(adds.map(\.block.text) == (try Self.lines("sans")), "\(events.map { "\($0.kind) \($0.block.text)" })")
        #expect(updates.map(\.block.text) == (try Self.lines("serif")), "\(events.map { "\($0.kind) \($0.block.text)" })")
        #expect(updates.allSatisfy { $0.textChanged })
        // Each added block is removed once, after its update, once the frames hold no text.
        let removes = events.filter { $0.kind == .remove }
        #expect(removes.map(\.id).sorted() == adds.map(\.id).sorted())
        #expect(removes.allSatisfy { $0.frame > 25 && $0.frame < 36 }, "\(removes.map(\.frame))")
        #expect(adds.allSatisfy { (6...15).contains($0.frame) } && updates.allSatisfy { (16...25).contains($0.frame) })
        // Recognised on a few frames only: where the picture changed, and to settle what it read.
        #expect(session.recognitions <= 12, "\(session.recognitions)")
        #expect(session.failure == nil)
    }

    @Test("text that moves in every frame is not recognised until it holds still")
    func moving() throws {
        let sans = try Self.sprite("sans")
        let (events, session) = try Self.events(count: 24) { n in
            [Placement(sans, x: 10 + 3 * min(n, 16), y: 40 + min(n, 16))]
        }
        #expect(events.allSatisfy { $0.frame > 16 }, "\(events.map(\.frame))")
        #expect(events.filter { $0.kind == .add }.map(\.block.text) == (try Self.lines("sans")))
        #expect(session.recognitions <= 4, "\(session.recognitions)")
    }

    @Test("a code's area is neither measured nor read: a code moving beside still text does not hold text back")
    func codeBeside() throws {
        let sans = try Self.sprite("sans")
        let code = try QREncoder().encode(.text("beside the text")).image(scale: 2, margin: 4)
        let sprite = Sprite(width: code.width, height: code.height, pixels: code.pixels)
        let session = TextSession(recognizer: try TextRecognizer(layout: .sparse), options: .init(pacing: .everyFrame))
        var codes = ScanSession()
        var events: [TextEvent] = []
        for n in 1...16 {
            let pixels = Scenes.frame(width: 1000, height: Self.height,
                                      [Placement(sans, x: 10, y: 50), Placement(sprite, x: 760 + n % 4 * 3, y: 60 + n % 3 * 2)],
                                      noise: 3, seed: UInt64(n))
            let frame = Frame(number: n, time: Double(n - 1) / 30, image: GrayImage(width: 1000, height: Self.height, pixels: pixels))
            _ = codes.process(frame)
            #expect(codes.inView.count == 1)
            events += session.process(frame, codes: codes.inView.map(\.detection))
        }
        events += session.finish()
        #expect(events.filter { $0.kind == .add }.map(\.block.text) == (try Self.lines("sans")))
        #expect(events.filter { $0.kind == .add }.allSatisfy { $0.frame <= 4 })
    }

    @Test("text just past a large code's quiet zone is read whole: only four modules around a QR code are painted out")
    func besideLargeCode() throws {
        let sans = try Self.sprite("sans")
        let big = try QREncoder().encode(.text(String(repeating: "quiet zone ", count: 20))).image(scale: 3, margin: 4)
        let sprite = Sprite(width: big.width, height: big.height, pixels: big.pixels)
        let width = sprite.width + sans.width + 40, height = max(sprite.height, sans.height) + 20
        // The code's margin is its quiet zone; the text's ink starts 8 pixels after it (its
        // image has a white border of 30), 20 after the modules: within a fifth of the code's size.
        let scene = [Placement(sans, x: 10 + sprite.width - 22, y: 40), Placement(sprite, x: 10, y: 10)]
        let session = TextSession(recognizer: try TextRecognizer(layout: .sparse), options: .init(pacing: .everyFrame))
        var codes = ScanSession()
        var events: [TextEvent] = []
        for n in 1...6 {
            let pixels = Scenes.frame(width: width, height: height, scene, noise: 3, seed: UInt64(n))
            let frame = Frame(number: n, time: Double(n - 1) / 30, image: GrayImage(width: width, height: height, pixels: pixels))
            _ = codes.process(frame)
            events += session.process(frame, codes: codes.inView.map(\.detection))
        }
        #expect(codes.inView.first?.detection.version ?? 0 >= 5)
        #expect(events.filter { $0.kind == .add }.map(\.block.text) == (try Self.lines("sans")))
    }
}
