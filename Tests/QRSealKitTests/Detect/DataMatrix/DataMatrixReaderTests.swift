import Foundation
import Testing
import TestSupport
@testable import QRSealKit

/// Our own Data Matrix reader on the images of Tests/Images/datamatrix (made by zint, see
/// make-zint-images.sh) and on hostile input drawn here.
@Suite("Data Matrix reader")
struct DataMatrixReaderTests {
    static let images = ReaderImageSet("datamatrix", symbology: .dataMatrix, excluding: ["several"]) {
        DataMatrixReader(image: $0).read()
    }
    static var names: [String] { images.names }

    static func image(_ name: String) throws -> GrayImage { try images.image(name) }

    static func expected(_ name: String) throws -> [UInt8] { try images.expected(name) }

    static var detector: Detector { ReaderTesting.detector }

    @Test("the image set covers what the reader must know", arguments: [
        "ascii", "ascii-latin1", "c40", "text", "x12", "edifact", "base256", "gs1", "eci", "macro05", "structapp",
        "readerinit", "s10", "s32", "s52", "s64", "s88", "s120", "s144", "r8x18", "r8x32", "r12x26", "r12x36",
        "r16x36", "r16x48", "rot90", "rot180", "rot270", "rot30", "mirrored", "inverted", "perspective",
        "distorted", "blurred", "small", "damaged",
    ])
    func present(name: String) {
        #expect(Self.names.contains(name))
    }

    @Test("our reader alone reads each image as its payload", arguments: DataMatrixReaderTests.names)
    func readsAlone(name: String) throws {
        try Self.images.expectReadAlone(name)
    }

    @Test("the detector reads each at the default effort, once, as Data Matrix", arguments: DataMatrixReaderTests.names)
    func detector(name: String) throws {
        try Self.images.expectDetected(name)
    }

    @Test("sizes are those the symbols were drawn with, squares and rectangles, one to 36 regions")
    func sizes() throws {
        let cases: [(String, Int, Int)] = [
            ("s10", 10, 10), ("s32", 32, 32), ("s52", 52, 52), ("s64", 64, 64), ("s88", 88, 88), ("s120", 120, 120),
            ("s144", 144, 144), ("r8x18", 8, 18), ("r8x32", 8, 32), ("r12x26", 12, 26), ("r12x36", 12, 36),
            ("r16x36", 16, 36), ("r16x48", 16, 48),
        ]
        for (name, rows, columns) in cases {
            let size = try #require(try Self.images.read(name).first?.symbol.size, "\(name)")
            #expect(size.rows == rows && size.columns == columns, "\(name): \(size.rows)×\(size.columns)")
        }
    }

    @Test("every symbol of a page is read, each once")
    func several() throws {
        let image = try Self.image("several")
        let expected = try String(contentsOf: Self.images.folder.appendingPathComponent("several.codes"), encoding: .utf8)
            .split(separator: "\n").map { Array($0.utf8) }.sorted { $0.lexicographicallyPrecedes($1) }
        let alone = DataMatrixReader(image: image).read().map(\.candidate.bytes).sorted { $0.lexicographicallyPrecedes($1) }
        #expect(alone == expected)
        let found = Self.detector.detect(in: image).map(\.bytes).sorted { $0.lexicographicallyPrecedes($1) }
        #expect(found == expected)
    }

    @Test("GS1, ECI, a Macro, Structured Append and Reader Programming are read as such")
    func special() throws {
        let gs1 = try #require(try Self.images.read("gs1").first?.symbol.text)
        #expect(gs1.isGS1 && gs1.bytes.first == UInt8(ascii: "0") && gs1.bytes.contains(GS1.groupSeparator))
        let eci = try #require(try Self.images.detected("eci").first)
        #expect(eci.text == "Grüße aus Köln, 日本語")
        let latin1 = try #require(try Self.images.detected("ascii-latin1").first)
        #expect(latin1.text == "Grüße aus Köln 2026")
        let macro = try #require(try Self.images.read("macro05").first?.symbol.text)
        #expect(macro.bytes.starts(with: Array("[)>\u{1E}05\u{1D}".utf8)) && macro.bytes.suffix(2) == [0x1E, 0x04])
        let part = try #require(try Self.images.read("structapp").first?.symbol.text)
        #expect(part.sequence?.index == 1 && part.sequence?.count == 3 && part.bytes == Array("PART TWO OF THREE".utf8))
        let reported = try #require(try Self.images.detected("structapp").first?.structuredAppend)
        #expect(reported.index == 1 && reported.count == 3 && reported.parity == part.sequence?.file)
        let programming = try #require(try Self.images.read("readerinit").first?.symbol.text)
        #expect(programming.isReaderProgramming)
    }

    @Test("the corners are the symbol's, top-left first as read, whichever way it lies")
    func corners() throws {
        let upright = try #require(try Self.images.read("s32").first?.candidate.corners)
        // zint draws a quiet zone of one module (4 px) round the 128 px symbol.
        let expected = [Point(x: 4, y: 4), Point(x: 132, y: 4), Point(x: 132, y: 132), Point(x: 4, y: 132)]
        for (a, b) in zip(upright, expected) { #expect(abs(a.x - b.x) < 2 && abs(a.y - b.y) < 2, "\(a) is not \(b)") }
        let turned = try #require(try Self.images.read("rot90").first?.candidate.corners)
        // Turning the image by 90° clockwise takes (x, y) to (side - y, x).
        for (a, b) in zip(upright, turned) { #expect(abs(136 - a.y - b.x) < 2 && abs(a.x - b.y) < 2, "\(a) turned is not \(b)") }
    }

    @Test("a damaged symbol is read by correcting codewords; one damaged beyond them reads as nothing")
    func damage() throws {
        let damaged = try #require(try Self.images.read("damaged").first?.symbol)
        #expect(damaged.corrected > 0)
        try Self.images.expectUnreadable()
    }

    @Test("--symbology without datamatrix leaves our reader out")
    func notAsked() throws {
        var detector = Self.detector
        detector.symbologies = [.qr]
        #expect(detector.detect(in: try Self.image("distorted")).isEmpty)
    }

    @Test("of two different reads of one symbol, the one our Reed–Solomon check vouches for wins")
    func conflict() throws {
        let read = try #require(try Self.images.read("s32").first)
        #expect(read.candidate.isSoundlyChecked)
        let ours = try #require(SymbolCheck.detection(from: read.candidate, mapping: .identity, inputWidth: 136,
                                                      inputHeight: 136, wanted: [.dataMatrix]))
        let engine = Detection(symbology: .dataMatrix, bytes: Array("wrong".utf8), corners: read.candidate.corners)
        #expect(Detector.merged([engine, ours]).map(\.bytes) == [try Self.expected("s32")])
    }

    // MARK: - Hostile input

    @Test("tiny, flat and noisy images read as nothing", arguments: [(1, 1), (7, 7), (10, 10), (12, 400), (64, 64), (300, 200)])
    func tiny(size: (Int, Int)) {
        for image in ReaderTesting.flatAndNoisy(width: size.0, height: size.1) {
            #expect(DataMatrixReader(image: image).read().isEmpty)
        }
    }

    @Test("a symbol cut in half or missing its timing side reads as nothing")
    func truncated() throws {
        let image = try Self.image("s32")
        for (x, y, w, h) in [(0, 0, image.width, image.height / 2), (0, 0, image.width / 2 + 2, image.height),
                             (0, 12, image.width, image.height - 12), (0, 0, image.width - 12, image.height)] {
            let part = try #require(image.cropped(x: x, y: y, width: w, height: h))
            #expect(DataMatrixReader(image: part).read().isEmpty, "\(x),\(y) \(w)×\(h)")
        }
    }

    @Test("finder patterns round random modules never read, and never crash", arguments: [10, 16, 26, 32, 64, 30, 11])
    func randomModules(side: Int) {
        var random = SplitMix(seed: UInt64(side))
        for trial in 0..<6 {
            var grid = (0..<side).map { _ in (0..<side).map { _ in random.next() & 1 == 1 } }
            Self.drawPatterns(&grid, regionSide: DataMatrixSymbol.size(rows: side, columns: side)?.regionRows ?? side - 2)
            #expect(DataMatrixReader(image: ReaderTesting.render(grid, margin: 2)).read().isEmpty, "side \(side), trial \(trial)")
        }
    }

    @Test("a valid symbol drawn here reads; its codewords made impossible, it reads as nothing")
    func drawnCodewords() throws {
        let size = try #require(DataMatrixSymbol.size(rows: 16, columns: 16))
        // "HELLO": ASCII, then the pad codeword 129 and the randomised pads after it.
        var data = Array("HELLO".utf8).map { Int($0) + 1 } + [129]
        while data.count < size.dataWords {
            let pseudo = (149 * (data.count + 1)) % 253 + 1
            data.append((129 + pseudo - 1) % 254 + 1)
        }
        #expect(DataMatrixReader(image: ReaderTesting.render(Self.grid(size, data: data), margin: 2)).read().map(\.candidate.bytes)
                == [Array("HELLO".utf8)])
        // Codeword 0 and unassigned 242 check, but no encodation defines them.
        for bad in [0, 242, 255] {
            var words = data
            words[1] = bad
            #expect(DataMatrixReader(image: ReaderTesting.render(Self.grid(size, data: words), margin: 2)).read().isEmpty, "\(bad)")
        }
        // A Base 256 field longer than the symbol.
        var long = data
        long[0] = 231
        long[1] = (200 + (149 * 2) % 255 + 1) % 256
        #expect(DataMatrixReader(image: ReaderTesting.render(Self.grid(size, data: long), margin: 2)).read().isEmpty)
    }

    /// The finder and alignment patterns of a square symbol of `grid.count` modules whose
    /// regions are `regionSide` modules a side.
    static func drawPatterns(_ grid: inout [[Bool]], regionSide: Int) {
        let n = grid.count, h = regionSide + 2
        for r in 0..<n {
            for c in 0..<n {
                let rr = r % h, cc = c % h
                if rr == h - 1 || cc == 0 { grid[r][c] = true }
                else if rr == 0 { grid[r][c] = c % 2 == 0 }
                else if cc == h - 1 { grid[r][c] = r % 2 == 1 }
            }
        }
    }

    /// A symbol of `size` holding `data` (its data codewords), with its own check words.
    static func grid(_ size: DataMatrixSymbol.Size, data: [Int]) -> [[Bool]] {
        let blocks = size.blocks, check = size.checkWords / blocks
        var words = data + [Int](repeating: 0, count: size.checkWords)
        for b in 0..<blocks {
            let blockData = stride(from: b, to: size.dataWords, by: blocks).map { data[$0] }
            for (k, word) in ReedSolomon.checkWords(for: blockData, count: check, field: .gf256).enumerated() {
                words[size.dataWords + b + k * blocks] = word
            }
        }
        var grid = [[Bool]](repeating: [Bool](repeating: false, count: size.columns), count: size.rows)
        drawPatterns(&grid, regionSide: size.regionRows)
        for (index, places) in DataMatrixSymbol.placement(rows: size.mappingRows, columns: size.mappingColumns).enumerated()
        where index < words.count {
            for (bit, p) in places.enumerated() {
                let sr = p.row / size.regionRows * (size.regionRows + 2) + p.row % size.regionRows + 1
                let sc = p.column / size.regionColumns * (size.regionColumns + 2) + p.column % size.regionColumns + 1
                grid[sr][sc] = words[index] >> (7 - bit) & 1 == 1
            }
        }
        return grid
    }
}
