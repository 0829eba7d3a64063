import Foundation
import Testing
import TestSupport
@testable import QRSealKit

/// Our own Aztec reader on the images of Tests/Images/aztec (made by zint, see
/// make-zint-images.sh) and on hostile input drawn here.
@Suite("Aztec reader")
struct AztecReaderTests {
    static let images = ReaderImageSet("aztec", symbology: .aztec) { AztecReader(image: $0).read() }
    static var names: [String] { images.names }

    static func image(_ name: String) throws -> GrayImage { try images.image(name) }

    static func expected(_ name: String) throws -> [UInt8] { try images.expected(name) }

    @Test("the image set covers what the reader must know", arguments: [
        "compact-upper", "compact-4", "full-mixed", "full-large", "full-10bit", "binary-short", "binary-long",
        "eci-utf8", "gs1", "readerinit", "rune-0", "rune-255", "rot90", "rot180", "rot270", "mirrored",
        "rot30", "full-rot20", "rune-rot30", "full-large-rot10",
        "perspective", "blurred", "thick", "thin", "small", "damaged",
    ])
    func present(name: String) {
        #expect(Self.names.contains(name))
    }

    @Test("our reader alone reads each image as its payload", arguments: AztecReaderTests.names)
    func readsAlone(name: String) throws {
        try Self.images.expectReadAlone(name)
    }

    @Test("the detector reads each at the default effort, once, as Aztec", arguments: AztecReaderTests.names)
    func detector(name: String) throws {
        try Self.images.expectDetected(name)
    }

    @Test("sizes, word sizes and kinds are those the symbols were drawn with")
    func geometry() throws {
        let cases: [(String, AztecSymbol.Kind, Int)] = [
            ("compact-upper", .compact, 1), ("compact-4", .compact, 4), ("full-mixed", .full, 6),
            ("full-10bit", .full, 12), ("full-large", .full, 23), ("rune-255", .rune, 0),
        ]
        for (name, kind, layers) in cases {
            let symbol = try #require(try Self.images.read(name).first?.symbol, "\(name)")
            #expect(symbol.kind == kind && symbol.layers == layers, "\(name): \(symbol.kind) \(symbol.layers)")
        }
    }

    @Test("a rune is reported as its value in three digits; ECI text keeps its declared character set")
    func runeAndText() throws {
        let rune = try #require(try Self.images.detected("rune-0").first)
        #expect(rune.text == "000")
        let eci = try #require(try Self.images.read("eci-utf8").first?.candidate)
        #expect(eci.declaresCharacterSet && eci.engineText == "Grüße aus Köln, 日本語")
        let gs1 = try #require(try Self.images.read("gs1").first?.symbol.text)
        #expect(gs1.isGS1 && gs1.bytes.contains(GS1.groupSeparator))
    }

    @Test("the corners are the symbol's, clockwise from its top-left as read, whichever way it lies")
    func corners() throws {
        let upright = try #require(try Self.images.read("compact-4").first?.candidate.corners)
        let turned = try #require(try Self.images.read("rot90").first?.candidate.corners)
        let side = Double(try Self.image("compact-4").width)
        // Turning the image by 90° clockwise takes (x, y) to (side - y, x).
        for (a, b) in zip(upright, turned) {
            #expect(abs(side - a.y - b.x) < 3 && abs(a.x - b.y) < 3, "\(a) turned is not \(b)")
        }
        // zint draws an Aztec symbol without a quiet zone (it needs none): corners at the image's.
        #expect(abs(upright[0].x) < 1 && abs(upright[0].y) < 1)
        #expect(abs(upright[2].x - side) < 1 && abs(upright[2].y - side) < 1)
    }

    @Test("a damaged symbol is read by correcting words; one damaged beyond its check words reads as nothing")
    func damage() throws {
        let damaged = try #require(try Self.images.read("damaged").first?.symbol)
        #expect(damaged.corrected > 0)
        try Self.images.expectUnreadable()
    }

    @Test("a symbol printed light on dark is read")
    func inverted() throws {
        var image = try Self.image("full-mixed")
        image.pixels = image.pixels.map { 255 - $0 }
        #expect(AztecReader(image: image).read().map(\.candidate.bytes) == [try Self.expected("full-mixed")])
    }

    @Test("--symbology without aztec leaves our reader out")
    func notAsked() throws {
        var detector = ReaderTesting.detector
        detector.symbologies = [.qr]
        #expect(detector.detect(in: try Self.image("rune-255")).isEmpty)
    }

    @Test("of two different reads of one symbol, the one our Reed–Solomon check vouches for wins; else neither")
    func conflict() {
        let square = [Point(x: 0, y: 0), Point(x: 100, y: 0), Point(x: 100, y: 100), Point(x: 0, y: 100)]
        let engine = Detection(symbology: .aztec, bytes: Array("wrong".utf8), corners: square)
        var ours = Detection(symbology: .aztec, bytes: Array("right".utf8), corners: square)
        #expect(Detector.merged([engine, ours]).isEmpty)
        ours.isSoundlyChecked = true
        #expect(Detector.merged([engine, ours]).map(\.bytes) == [Array("right".utf8)])
        #expect(Detector.merged([ours, engine, engine]).map(\.bytes) == [Array("right".utf8)])
        // The same bytes from both: one symbol, still vouched for.
        let same = Detection(symbology: .aztec, bytes: Array("right".utf8), corners: square)
        #expect(Detector.merged([same, ours]).map(\.isSoundlyChecked) == [true])
    }

    // MARK: - Hostile input

    @Test("tiny, flat and noisy images read as nothing", arguments: [(1, 1), (5, 5), (11, 11), (12, 400), (64, 64), (300, 200)])
    func tiny(size: (Int, Int)) {
        for image in ReaderTesting.flatAndNoisy(width: size.0, height: size.1) {
            #expect(AztecReader(image: image).read().isEmpty)
        }
    }

    @Test("a half of a symbol, or one cut through its bull's-eye, reads as nothing")
    func truncated() throws {
        let image = try Self.image("full-mixed")
        for (x, y, w, h) in [(0, 0, image.width, image.height / 2), (0, 0, image.width / 2 + 2, image.height),
                             (image.width / 2 - 10, 0, image.width / 2 + 10, image.height)] {
            let part = try #require(image.cropped(x: x, y: y, width: w, height: h))
            #expect(AztecReader(image: part).read().isEmpty, "\(x),\(y) \(w)×\(h)")
        }
    }

    @Test("a bull's-eye with nothing around it reads as nothing")
    func bareBullseye() {
        for compact in [true, false] {
            var grid = Self.bullseye(compact: compact, size: compact ? 11 : 15)
            let r = AztecSymbol.modeRadius(compact: compact), c = grid.count / 2
            for mark in AztecSymbol.orientationMarks(compact: compact) { grid[c + mark.y][c + mark.x] = mark.dark }
            #expect(AztecReader(image: ReaderTesting.render(grid, margin: 4)).read().isEmpty, "compact \(compact), ring \(r)")
        }
    }

    @Test("random mode messages and data around a bull's-eye never read, and never crash")
    func randomModeMessages() {
        var random = SplitMix(seed: 24778)
        for trial in 0..<40 {
            let compact = trial % 2 == 0
            let size = compact ? 27 : 37
            var grid = (0..<size).map { _ in (0..<size).map { _ in random.next() & 1 == 1 } }
            let core = Self.bullseye(compact: compact, size: compact ? 11 : 15)
            let c = size / 2, k = core.count / 2
            for y in 0..<core.count { for x in 0..<core.count { grid[c - k + y][c - k + x] = core[y][x] } }
            for mark in AztecSymbol.orientationMarks(compact: compact) { grid[c + mark.y][c + mark.x] = mark.dark }
            for (x, y) in AztecSymbol.modePositions(compact: compact) { grid[c + y][c + x] = random.next() & 1 == 1 }
            #expect(AztecReader(image: ReaderTesting.render(grid, margin: 3)).read().isEmpty, "trial \(trial)")
        }
    }

    @Test("a valid mode message promising 32 layers in a small image reads as nothing")
    func oversizedModeMessage() {
        // Layers - 1 = 31 and 1999 data words, with its own right check words.
        let value = 31 << 11 | 1998
        let data = [value >> 12 & 15, value >> 8 & 15, value >> 4 & 15, value & 15]
        let words = data + ReedSolomon.checkWords(for: data, count: 6, field: .gf16)
        let bits = words.flatMap { w in (0..<4).map { w >> (3 - $0) & 1 == 1 } }
        var grid = Self.bullseye(compact: false, size: 15)
        for mark in AztecSymbol.orientationMarks(compact: false) { grid[7 + mark.y][7 + mark.x] = mark.dark }
        for ((x, y), bit) in zip(AztecSymbol.modePositions(compact: false), bits) { grid[7 + y][7 + x] = bit }
        #expect(AztecReader(image: ReaderTesting.render(grid, margin: 4)).read().isEmpty)
    }

    /// A `size` × `size` grid, light but for the bull's-eye's dark rings at even radii up to
    /// 4 (compact) or 6 (full range), centred.
    static func bullseye(compact: Bool, size: Int) -> [[Bool]] {
        let c = size / 2, outer = compact ? 4 : 6
        return (0..<size).map { y in
            (0..<size).map { x in
                let r = max(abs(x - c), abs(y - c))
                return r <= outer && r % 2 == 0
            }
        }
    }
}
