import Foundation
import Testing
import TestSupport
@testable import QRSealKit

/// Animated GIFs as ImageMagick sees them: frames, delays and looping; each frame scans.
@Suite("Render: animated GIF")
struct AnimatedGIFTests {
    let dir = try! TempDir()

    @Test("one frame a symbol at the asked rate, looping forever, two colours, its label below; frame 3 scans as symbol 3")
    func frames() throws {
        let (message, payloads) = RenderFixtures.message(4)
        let gif = try dir.write("a.gif", Data(try AnimatedGIF.encode(message, scale: 4, margin: 4, fps: 4)))
        let frames = try Tools.run("identify", ["-format", "%T %w %h %k\n", gif]).stdoutText.split(separator: "\n").map(String.init)
        // The label strip is five modules tall: 20 pixels at 4 a module.
        let side = (message.symbols[0].matrix.size + 8) * 4
        #expect(frames == Array(repeating: "25 \(side) \(side + 20) 2", count: 4), "\(frames)")
        let verbose = try Tools.run("identify", ["-verbose", gif + "[0]"]).stdoutText
        #expect(verbose.contains("Iterations: 0"), "loops forever")
        #expect(try Tools.run("convert", [gif + "[2]", dir.path("f3.png")]).status == 0)
        #expect(try RenderFixtures.zbar([dir.path("f3.png")]) == [payloads[2]])
        // The strip holds dark text (the label), and the quiet zone above it none.
        let mean = { (y: Int, h: Int) in
            try Tools.run("convert", [dir.path("f3.png"), "-crop", "\(side)x\(h)+0+\(y)", "-format", "%[fx:mean]", "info:"])
                .stdoutText
        }
        let strip = try mean(side, 20)
        #expect(Double(strip).map { $0 < 0.97 && $0 > 0.5 } == true, "\(strip)")
        #expect(try mean(side - 12, 12) == "1")
    }

    @Test("symbols of different sizes share the largest frame, each centred on white with nothing of the last")
    func mixedSizes() throws {
        let small = try QREncoder().encode(.text("small"))
        let large = try QREncoder(minVersion: 8).encode(.text("large"))
        let message = EncodedMessage(symbols: [large, small].map { EncodedSymbol(matrix: $0, label: nil) },
                                     dataParts: 2, totalBytes: 10, sha256: [], id: "M")
        let gif = try dir.write("m.gif", Data(try AnimatedGIF.encode(message, scale: 3, margin: 4, fps: 5)))
        let side = (large.size + 8) * 3
        #expect(try Tools.run("identify", ["-format", "%w %h\n", gif]).stdoutText == "\(side) \(side)\n\(side) \(side)\n",
                "no labels, no strip")
        #expect(try Tools.run("convert", [gif + "[1]", dir.path("s.png")]).status == 0)
        #expect(try RenderFixtures.zbar([dir.path("s.png")]) == ["small"])
        // The corner, outside the small code, is white again.
        let corner = try Tools.run("convert", [dir.path("s.png"), "-format", "%[fx:p{10,10}]", "info:"]).stdoutText
        #expect(corner == "1")
    }

    @Test("rates a GIF cannot show, frames too large and too many symbols are refused")
    func bounds() throws {
        let (message, _) = RenderFixtures.message(2)
        for fps in [0, 0.05, 51, .infinity, .nan] {
            #expect(throws: RenderError.self) { try AnimatedGIF.encode(message, scale: 4, margin: 4, fps: fps) }
        }
        let side = (message.symbols[0].matrix.size + 200) * 100
        #expect(throws: RenderError.frameTooLarge(side: side, limit: AnimatedGIF.maximumSide)) {
            try AnimatedGIF.encode(message, scale: 100, margin: 100, fps: 5)
        }
        // 1,000 frames of 2,100 pixels a side: each allowed, not all together.
        let thousand = EncodedMessage(symbols: Array(repeating: message.symbols[0], count: 1000), dataParts: 1,
                                      totalBytes: 1, sha256: [], id: "X")
        let pixels = ((message.symbols[0].matrix.size + 50) * 30) * ((message.symbols[0].matrix.size + 50) * 30 + 40) * 1000
        #expect(throws: RenderError.animationTooLarge(pixels: pixels, limit: AnimatedGIF.maximumPixels)) {
            try AnimatedGIF.encode(thousand, scale: 30, margin: 25, fps: 5)
        }
        let many = EncodedMessage(symbols: Array(repeating: message.symbols[0], count: Sheet.maximumSymbols + 1),
                                  dataParts: 1, totalBytes: 1, sha256: [], id: "X")
        #expect(throws: RenderError.tooManySymbols(count: Sheet.maximumSymbols + 1, limit: Sheet.maximumSymbols)) {
            try AnimatedGIF.encode(many, scale: 1, margin: 0, fps: 5)
        }
    }
}
