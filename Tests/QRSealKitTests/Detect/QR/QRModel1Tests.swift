import Foundation
import Testing
import TestSupport
@testable import QRSealKit

/// QR Code Model 1: the two symbols others made (Tests/Images/model1), symbols drawn here
/// (`Model1Symbol`) at every version, level and mode, and hostile grids.
@Suite("QR Code Model 1")
struct QRModel1Tests {
    static let folder = Tools.packageRoot.appendingPathComponent("Tests/Images/model1")

    static func image(_ name: String) throws -> GrayImage {
        try ImageDecoder().decode([UInt8](try Data(contentsOf: folder.appendingPathComponent(name + ".png"))))
    }

    @Test("the two symbols zxing-cpp's samples hold read at the default effort as zxing-cpp 3.1 reads them",
          arguments: [("version2-M", 2, ErrorCorrection.medium), ("version5-H-damaged", 5, .high)])
    func others(name: String, version: Int, level: ErrorCorrection) throws {
        let expected = [UInt8](try Data(contentsOf: Self.folder.appendingPathComponent(name + ".txt")))
        let found = Detector().detect(in: try Self.image(name))
        #expect(found.count == 1)
        #expect(found.first?.bytes == expected)
        #expect(found.first?.symbology == .qr)
        #expect(found.first?.model == 1)
        #expect(found.first?.version == version)
        #expect(found.first?.errorCorrection == level)
    }

    @Test("every module but the function patterns carries one bit of one codeword, as many as each level's blocks need",
          arguments: 1...14)
    func layout(version: Int) {
        let n = 17 + 4 * version
        let positions = QRModel1.codewordPositions(dimension: n)
        let flat = positions.flatMap { $0 }
        #expect(Set(flat).count == flat.count, "no module twice")
        #expect(positions.allSatisfy { $0.count == 8 })
        // The functional modules: finders with separators and format information, timing
        // patterns, and the extension patterns' blocks.
        let function = Set((0..<(n * n)).filter { i in
            let x = i % n, y = i / n
            return (x < 9 && y < 9) || (x >= n - 8 && y < 9) || (x < 9 && y >= n - 8) || x == 6 || y == 6
        })
        #expect(function.isDisjoint(with: flat))
        let extensions = (version / 2) * 2 * 8
        #expect(flat.count + function.count + extensions == n * n)
        for (check, count, data) in QRModel1.blocks[version - 1] {
            // A few codewords of a level's layout are left over (four at most, at 14-H).
            #expect((0...4).contains(positions.count - count * (check + data)), "version \(version)")
        }
    }

    static let segmentCases: [(String, [Model1Symbol.Segment], [UInt8])] = [
        ("digits", [.numeric("0123456789012")], Array("0123456789012".utf8)),
        ("alphanumeric", [.alphanumeric("MODEL 1 $%*+-./:")], Array("MODEL 1 $%*+-./:".utf8)),
        ("bytes", [.bytes(Array("Größe 1994".utf8))], Array("Größe 1994".utf8)),
        ("kanji", [.kanji([0x93, 0x5F, 0xE4, 0xAA])], [0x93, 0x5F, 0xE4, 0xAA]),
        ("mixed", [.numeric("47"), .alphanumeric("X"), .bytes([0x00, 0xFF])], Array("47X".utf8) + [0x00, 0xFF]),
    ]

    @Test("symbols drawn here read back at every version and level, in every mode, under every mask",
          arguments: 1...14)
    func everyVersion(version: Int) throws {
        for (li, level) in QRModel1.levels.enumerated() {
            let (name, segments, bytes) = Self.segmentCases[(version + li) % Self.segmentCases.count]
            let mask = (version * 4 + li) % 8
            let matrix = try #require(Model1Symbol.matrix(segments, version: version, level: level, mask: mask), "\(name)")
            let read = QRModel1.read(matrix.modules, dimension: matrix.size)
            #expect(read?.bytes == bytes, "version \(version)-\(level.rawValue) \(name)")
            #expect(read?.version == version)
            #expect(read?.level == level)
            #expect(read?.mirrored == false)
        }
    }

    @Test("a full symbol reads: 8-bit counts up to version 9, 16-bit from version 10")
    func full() throws {
        for (version, level) in [(9, ErrorCorrection.low), (10, .low), (14, .low), (14, .high)] {
            let table = QRModel1.blocks[version - 1][QRModel1.levels.firstIndex(of: level)!]
            let room = table.count * table.data - (version <= 9 ? 2 : 3)
            let bytes = Array(denseText(room, seed: UInt64(version)).utf8)
            let matrix = try #require(Model1Symbol.matrix([.bytes(bytes)], version: version, level: level, mask: 3))
            #expect(QRModel1.read(matrix.modules, dimension: matrix.size)?.bytes == bytes, "\(version)-\(level.rawValue)")
            #expect(Model1Symbol.matrix([.bytes(bytes + [0x41])], version: version, level: level) == nil)
        }
    }

    @Test("a Structured Append header is reported, not part of the payload")
    func structuredAppend() throws {
        let part = StructuredAppend(index: 1, count: 3, parity: 0x5A)
        let matrix = try #require(Model1Symbol.matrix([.alphanumeric("PART 2")], version: 1, level: .medium,
                                                      structuredAppend: part))
        let read = QRModel1.read(matrix.modules, dimension: matrix.size)
        #expect(read?.bytes == Array("PART 2".utf8))
        #expect(read?.structuredAppend == part)
    }

    @Test("a mirrored symbol reads, marked so")
    func mirrored() throws {
        let matrix = try #require(Model1Symbol.matrix([.alphanumeric("MIRROR")], version: 3, level: .quartile, mask: 6))
        let n = matrix.size
        let transposed = (0..<(n * n)).map { matrix.modules[($0 % n) * n + $0 / n] }
        let read = QRModel1.read(transposed, dimension: n)
        #expect(read?.bytes == Array("MIRROR".utf8))
        #expect(read?.mirrored == true)
    }

    @Test("the detector reads drawn symbols turned, scaled and a little blurred, with their corners",
          arguments: [(1, 0.0, 4.0, 0), (2, 90, 3.0, 1), (4, 17, 4.5, 1), (7, 180, 3.5, 0), (10, 33, 4.0, 1),
                      (14, 270, 3.0, 0), (6, 8, 5.0, 1)])
    func detector(version: Int, degrees: Double, scale: Double, blur: Int) throws {
        let text = denseText(10 + 2 * version, seed: UInt64(version))
        let matrix = try #require(Model1Symbol.matrix([.bytes(Array(text.utf8))], version: version, level: .medium,
                                                      mask: version % 8))
        let image = Model1Symbol.image(matrix, pixelsPerModule: scale, degrees: degrees, blur: blur)
        let found = Detector().detect(in: image)
        #expect(found.count == 1, "version \(version) at \(degrees)°")
        let d = try #require(found.first)
        #expect(d.text == text)
        #expect(d.model == 1)
        #expect(d.version == version)
        // The read corners turn with the symbol: the first lies where its top-left corner went.
        let c = Double(image.width) / 2, half = Double(matrix.size) * scale / 2, a = degrees * Double.pi / 180
        let topLeft = Point(x: c + (-half) * cos(a) - (-half) * sin(a), y: c + (-half) * sin(a) + (-half) * cos(a))
        #expect(d.corners[0].distance(to: topLeft) < 2 * scale, "\(d.corners[0]) vs \(topLeft)")
    }

    @Test("the detector reads a symbol photographed at an angle, which has no alignment pattern to follow the perspective by",
          arguments: [2, 4, 8])
    func perspective(version: Int) throws {
        let text = denseText(10 + 2 * version, seed: UInt64(version))
        let matrix = try #require(Model1Symbol.matrix([.bytes(Array(text.utf8))], version: version, level: .medium,
                                                      mask: version % 8))
        for seed in 1...3 {
            // Light falling off, noise and blur as well; no curl.
            let (image, _) = WarpedCode(matrix: matrix, pixelsPerModule: 4, bow: 0, wave: 0, tilt: 0.03,
                                        seed: UInt64(seed)).image()
            let found = Detector().detect(in: image)
            #expect(found.map(\.text) == [text], "version \(version), seed \(seed)")
            #expect(found.first?.model == 1)
        }
    }

    @Test("the detector reads a mirrored symbol, its corners in the order it reads")
    func mirroredImage() throws {
        let matrix = try #require(Model1Symbol.matrix([.alphanumeric("SEEN FROM BEHIND")], version: 2, level: .low))
        let found = Detector().detect(in: Model1Symbol.image(matrix, mirrored: true))
        #expect(found.map(\.text) == ["SEEN FROM BEHIND"])
        #expect(found.first?.model == 1)
    }

    @Test("damaged words up to the margin are corrected; beyond it the symbol reads as nothing, never as something else",
          arguments: [(2, ErrorCorrection.low), (5, .high), (8, .medium), (13, .quartile)])
    func damage(version: Int, level: ErrorCorrection) throws {
        let text = Array(denseText(30, seed: 7).utf8)
        let matrix = try #require(Model1Symbol.matrix([.bytes(text)], version: version, level: level, mask: 2))
        let table = QRModel1.blocks[version - 1][QRModel1.levels.firstIndex(of: level)!]
        let positions = QRModel1.codewordPositions(dimension: matrix.size)
        let margin = (table.check - (table.check < 16 ? 2 : 0)) / 2
        var random = SplitMix(seed: UInt64(version))
        for wrong in [margin, margin + 1, table.check / 2 + 1, table.check] {
            // `wrong` words of the first block (its data words, then its check words) changed.
            let block = Array(0..<table.data) + (0..<table.check).map { table.count * table.data + $0 }
            var chosen = Set<Int>()
            while chosen.count < wrong { chosen.insert(block[Int(random.next() % UInt64(block.count))]) }
            var modules = matrix.modules
            for word in chosen {
                // The first word's first four bits are the fixed corner: change its last four.
                let flips = (1 + Int(random.next() % 255)) | (word == 0 ? 1 : 0)
                for (i, place) in positions[word].enumerated() where flips >> (7 - i) & 1 == 1 && !(word == 0 && i < 4) {
                    modules[place].toggle()
                }
            }
            let read = QRModel1.read(modules, dimension: matrix.size)
            if wrong <= margin {
                #expect(read?.bytes == text, "\(wrong) words wrong")
            } else {
                #expect(read == nil, "\(wrong) words wrong, beyond the margin of \(margin)")
            }
        }
    }

    @Test("Model 2 codes read as before, never as Model 1", arguments: [1, 2, 5, 7, 14])
    func model2(version: Int) throws {
        let matrix = try QREncoder(level: .medium, minVersion: version).encode(.text("a Model 2 code"))
        #expect(QRModel1.read(matrix.modules, dimension: matrix.size) == nil)
        let found = Detector().detect(in: matrix.image(scale: 4, margin: 4))
        #expect(found.map(\.text) == ["a Model 2 code"])
        #expect(found.first?.model == nil)
    }

    @Test("random grids, grids with Model 1 format information under every mask and level, and impossible sizes never read, never trap")
    func hostile() {
        var random = SplitMix(seed: 1994)
        for n in [0, 1, 17, 20, 22, 23, 77, 177] {
            #expect(QRModel1.read([Bool](repeating: true, count: n * n), dimension: n) == nil)
        }
        #expect(QRModel1.read([Bool](repeating: false, count: 10), dimension: 21) == nil)
        for version in 1...14 {
            let n = 17 + 4 * version
            #expect(QRModel1.read([Bool](repeating: true, count: n * n), dimension: n) == nil)
            #expect(QRModel1.read([Bool](repeating: false, count: n * n), dimension: n) == nil)
            for format in 0..<32 {
                let level = QRModel1.levelByBits[format >> 3]
                var modules = Model1Symbol.functionPatterns(dimension: n, format: Model1Symbol.formatBits(level: level, mask: format & 7))
                let function = Set(modules.indices.filter { modules[$0] })
                for i in modules.indices where !function.contains(i) { modules[i] = random.next() % 2 == 0 }
                #expect(QRModel1.read(modules, dimension: n) == nil, "version \(version), format \(format)")
            }
        }
    }

    @Test("bit streams no encoder writes read as nothing: ECI, unknown modes, digits out of range, counts past the end")
    func hostileStreams() {
        func stream(_ bits: String) -> [UInt8] {
            let padded = bits + String(repeating: "0", count: (8 - bits.count % 8) % 8)
            return stride(from: 0, to: padded.count, by: 8).map {
                UInt8(padded.dropFirst($0).prefix(8), radix: 2)!
            }
        }
        // 0000, then mode and count.
        #expect(QRModel1.payload(stream("0000" + "0001" + "0000000011" + "0001111011"), version: 1)?.bytes == Array("123".utf8))
        #expect(QRModel1.payload(stream("0000" + "0001" + "0000000011" + "1111101000"), version: 1) == nil, "1000 is no three digits")
        #expect(QRModel1.payload(stream("0000" + "0111" + "00011010" + "0100" + "00000001" + "01000001"), version: 1) == nil, "ECI")
        for mode in ["0101", "0110", "1001", "1010", "1101", "1111"] {
            #expect(QRModel1.payload(stream("0000" + mode + "00000001" + "01000001"), version: 1) == nil, "mode \(mode)")
        }
        #expect(QRModel1.payload(stream("0000" + "0100" + "11111111" + "01000001"), version: 1) == nil, "255 bytes promised")
        #expect(QRModel1.payload(stream("0000" + "0010" + "000000001" + "101101"), version: 1) == nil, "45 is no character")
        #expect(QRModel1.payload(stream("1000" + "0100" + "00000001" + "01000001"), version: 1) == nil, "no leading zeros")
        #expect(QRModel1.payload([], version: 1) == nil)
        #expect(QRModel1.payload(stream("0000" + "0100" + "00000001" + "01000001"), version: 1)?.bytes == [0x41])
        // A 16-bit byte count from version 10 on.
        #expect(QRModel1.payload(stream("0000" + "0100" + "0000000000000001" + "01000001"), version: 10)?.bytes == [0x41])
        var random = SplitMix(seed: 3)
        for _ in 0..<2000 {
            let bytes = (0..<Int(random.next() % 40)).map { _ in UInt8(random.next() & 0xFF) }
            _ = QRModel1.payload(bytes, version: 1 + Int(random.next() % 14))
        }
    }
}
