import Foundation
import Testing
import TestSupport
@testable import QRSealKit

/// Our own Aztec reader on the images of Tests/Images/aztec (made by zint, see
/// make-aztec-images.sh) and on hostile input drawn here.
@Suite("Aztec reader")
struct AztecReaderTests {
    static let folder = Tools.packageRoot.appendingPathComponent("Tests/Images/aztec")

    static let names: [String] = {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return files.filter { $0.hasSuffix(".png") && !$0.contains(".unreadable") }.map { String($0.dropLast(4)) }.sorted()
    }()

    static func image(_ name: String) throws -> GrayImage {
        try ImageDecoder().decode([UInt8](try Data(contentsOf: folder.appendingPathComponent(name + ".png"))))
    }

    static func expected(_ name: String) throws -> [UInt8] {
        let base = folder.appendingPathComponent(name)
        if let bin = try? Data(contentsOf: base.appendingPathExtension("bin")) { return [UInt8](bin) }
        return [UInt8](try Data(contentsOf: base.appendingPathExtension("txt")))
    }

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
        let reads = AztecReader(image: try Self.image(name)).read()
        #expect(reads.map(\.candidate.bytes) == [try Self.expected(name)], "\(name)")
        #expect(reads.allSatisfy { $0.candidate.symbology == .aztec })
    }

    @Test("the detector reads each at the default effort, once, as Aztec", arguments: AztecReaderTests.names)
    func detector(name: String) throws {
        var detector = Detector()
        detector.timeBudget = .seconds(600)
        let found = detector.detect(in: try Self.image(name))
        #expect(found.map(\.bytes) == [try Self.expected(name)], "\(name)")
        #expect(found.map(\.symbology) == [.aztec])
    }

    @Test("sizes, word sizes and kinds are those the symbols were drawn with")
    func geometry() throws {
        let cases: [(String, AztecSymbol.Kind, Int)] = [
            ("compact-upper", .compact, 1), ("compact-4", .compact, 4), ("full-mixed", .full, 6),
            ("full-10bit", .full, 12), ("full-large", .full, 23), ("rune-255", .rune, 0),
        ]
        for (name, kind, layers) in cases {
            let symbol = try #require(AztecReader(image: try Self.image(name)).read().first?.symbol, "\(name)")
            #expect(symbol.kind == kind && symbol.layers == layers, "\(name): \(symbol.kind) \(symbol.layers)")
        }
    }

    @Test("a rune is reported as its value in three digits; ECI text keeps its declared character set")
    func runeAndText() throws {
        let rune = try #require(Detector().detect(in: try Self.image("rune-0")).first)
        #expect(rune.text == "000")
        let eci = try #require(AztecReader(image: try Self.image("eci-utf8")).read().first?.candidate)
        #expect(eci.declaresCharacterSet && eci.engineText == "Grüße aus Köln, 日本語")
        let gs1 = try #require(AztecReader(image: try Self.image("gs1")).read().first?.symbol.text)
        #expect(gs1.isGS1 && gs1.bytes.contains(GS1.groupSeparator))
    }

    @Test("the corners are the symbol's, clockwise from its top-left as read, whichever way it lies")
    func corners() throws {
        let upright = try #require(AztecReader(image: try Self.image("compact-4")).read().first?.candidate.corners)
        let turned = try #require(AztecReader(image: try Self.image("rot90")).read().first?.candidate.corners)
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
        let damaged = try #require(AztecReader(image: try Self.image("damaged")).read().first?.symbol)
        #expect(damaged.corrected > 0)
        let lost = try ImageDecoder().decode([UInt8](try Data(contentsOf: Self.folder.appendingPathComponent("damaged.unreadable.png"))))
        #expect(AztecReader(image: lost).read().isEmpty)
        var detector = Detector()
        detector.timeBudget = .seconds(600)
        #expect(detector.detect(in: lost).filter { $0.symbology == .aztec }.isEmpty)
    }

    @Test("a symbol printed light on dark is read")
    func inverted() throws {
        var image = try Self.image("full-mixed")
        image.pixels = image.pixels.map { 255 - $0 }
        #expect(AztecReader(image: image).read().map(\.candidate.bytes) == [try Self.expected("full-mixed")])
    }

    @Test("--symbology without aztec leaves our reader out")
    func notAsked() throws {
        var detector = Detector(symbologies: [.qr])
        detector.timeBudget = .seconds(600)
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
        var random = SplitMix(seed: UInt64(size.0 * 1000 + size.1))
        for fill in [0, 255, -1] as [Int] {
            let pixels = (0..<(size.0 * size.1)).map { _ in fill >= 0 ? UInt8(fill) : UInt8(random.next() & 0xFF) }
            #expect(AztecReader(image: GrayImage(width: size.0, height: size.1, pixels: pixels)).read().isEmpty)
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
            #expect(AztecReader(image: Self.render(grid, margin: 4)).read().isEmpty, "compact \(compact), ring \(r)")
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
            #expect(AztecReader(image: Self.render(grid, margin: 3)).read().isEmpty, "trial \(trial)")
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
        #expect(AztecReader(image: Self.render(grid, margin: 4)).read().isEmpty)
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

    /// `grid` drawn at 4 pixels a module with a light margin of `margin` modules.
    static func render(_ grid: [[Bool]], margin: Int, scale: Int = 4) -> GrayImage {
        let side = (grid.count + 2 * margin) * scale
        var image = GrayImage(width: side, height: side, filledWith: 255)
        for (y, row) in grid.enumerated() {
            for (x, dark) in row.enumerated() where dark {
                for dy in 0..<scale { for dx in 0..<scale { image[(x + margin) * scale + dx, (y + margin) * scale + dy] = 0 } }
            }
        }
        return image
    }
}
