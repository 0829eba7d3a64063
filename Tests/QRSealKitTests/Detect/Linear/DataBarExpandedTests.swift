import Foundation
import Testing
import TestSupport
@testable import QRSealKit

/// GS1 DataBar Expanded and Expanded Stacked read by our own reader (`WidthReader`,
/// `DataBarExpandedDecoder`, `DataBarExpandedData`): zint's symbols of every encodation
/// method, one row and stacked, and zxing-cpp's long stacked sample that neither engine reads.
@Suite("DataBarExpandedDecoder: DataBar Expanded and Expanded Stacked")
struct DataBarExpandedTests {
    static let folder = Tools.packageRoot.appendingPathComponent("Tests/Images/databar-expanded")

    /// The images of Tests/Images/databar-expanded, without their extension.
    static let names: [String] = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
        .filter { $0.hasSuffix(".png") && !$0.contains(".unreadable") }.map { String($0.dropLast(4)) }.sorted()

    static func image(_ name: String) throws -> GrayImage {
        try ImageDecoder().decode([UInt8](try Data(contentsOf: folder.appendingPathComponent(name + ".png"))))
    }

    static func expected(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: folder.appendingPathComponent(name + ".txt")))
    }

    @Test("every image reads as its element string with our reader alone", arguments: names)
    func readAlone(name: String) throws {
        let found = WidthReader(symbologies: [.databarExpanded]).scan(try Self.image(name))
        #expect(found.map(\.bytes) == [try Self.expected(name)])
        #expect(found.allSatisfy { $0.symbology == .databarExpanded })
    }

    @Test("symbols neither engine reads read through the detector, and nothing else",
          arguments: ["zxing-rssexpandedstacked-13", "long", "long-stacked"])
    func detected(name: String) throws {
        let text = String(decoding: try Self.expected(name), as: UTF8.self)
        #expect(WidthReaderTests.read(try Self.image(name)) == ["DataBar-Exp: \(text)"])
    }

    @Test("stacked symbols the quick search misses are read by our reader, to which zxing-cpp's harder search leaves DataBar",
          arguments: ["stacked1", "stacked2", "zxing-rssexpandedstacked-23"])
    func stackedThroughDetector(name: String) throws {
        let reads = PlanGateTests.Reads()
        var detector = Detector()
        detector.profile = { stage, _, found in reads.add(stage, found) }
        let found = detector.detect(in: try Self.image(name))
        #expect(found.map(\.bytes) == [try Self.expected(name)])
        #expect(found.map(\.symbology) == [.databarExpanded])
        // zxing-cpp's harder search ran and read nothing; the width reader read the symbol.
        #expect(reads.found(by: "zxing(harder: true) []") == [])
        #expect(reads.found(by: "widths []") == [try Self.expected(name)])
    }

    @Test("a symbol with one character's bars moved reads as nothing, alone and through the detector")
    func damagedImage() throws {
        // long.png with a module of one character's bar painted as space: its check
        // character no longer holds, and neither engine reads a symbol that long.
        let image = try Self.image("damaged.unreadable")
        #expect(WidthReader(symbologies: [.databarExpanded]).scan(image).isEmpty)
        #expect(WidthReaderTests.read(image) == [])
    }

    /// The element widths of a one-row symbol as a scan line crosses it: a quiet zone, the
    /// symbol (`widths`, modules from the left guard's dark one, times `module`), a quiet zone.
    static func run(_ widths: [Int], module: Double = 1) -> ElementRun {
        var elements = [11.0] + widths.map(Double.init)
        if elements.count % 2 == 0 { elements.append(10) } else { elements[elements.count - 1] += 10 }
        let edges = elements.reduce(into: [0.0]) { $0.append($0.last! + $1 * module) }
        return ElementRun(edges: edges, firstDark: 1, length: Int(edges.last!) + 1)
    }

    /// What `run`, read on two scan lines both ways, decodes as.
    static func decoded(_ run: ElementRun) -> [UInt8]? {
        var votes = DataBarExpandedDecoder.Votes()
        for _ in 0..<2 { DataBarExpandedDecoder.vote(DataBarExpandedDecoder.piecesBothWays(run), into: &votes) }
        return DataBarExpandedDecoder.decode(votes, minimum: 2)
    }

    static let symbol = WidthReaderTests.zintWidths(["-b", "DBAR_EXP", "--gs1", "-d", "[01]90012345678908[3103]001750"])

    @Test("element widths read either way, at any scale; a character one module off reads as nothing")
    func damaged() {
        let widths = Self.symbol
        #expect(Self.decoded(Self.run(widths)) == Array("01900123456789083103001750".utf8))
        #expect(Self.decoded(Self.run(widths, module: 2.6).reversed) == Array("01900123456789083103001750".utf8))
        // The check character and each data character (widths from the guard's dark
        // module: pair k's left character at 21k + 1, its right one at 21k + 14): a module
        // moved between two of its elements.
        for start in [1, 14, 22, 35, 43] {
            for i in start..<(start + 7) where widths[i + 1] > 1 {
                var moved = widths
                moved[i] += 1
                moved[i + 1] -= 1
                #expect(Self.decoded(Self.run(moved)) == nil, "element \(i)")
            }
        }
    }

    @Test("element widths of noise, truncated symbols and hostile values read as nothing and do not crash")
    func hostile() {
        var generator = SystemRandomNumberGenerator()
        let widths = Self.symbol
        for count in [0, 5, 13, 20, widths.count / 2, widths.count - 4] {
            #expect(Self.decoded(Self.run(Array(widths.prefix(count)))) == nil)
            #expect(Self.decoded(Self.run(Array(widths.suffix(count)))) == nil)
        }
        for count in [0, 1, 2, 15, 30, 60, 200] {
            for _ in 0..<50 {
                let edges = (0..<count).reduce(into: [Double]()) { e, _ in e.append((e.last ?? 0) + Double.random(in: 0.5...6, using: &generator)) }
                let run = ElementRun(edges: edges, firstDark: Int.random(in: 0...1, using: &generator), length: Int(edges.last ?? 0) + 1)
                _ = Self.decoded(run)
            }
        }
        for bad in [[Double.nan, 1, 1, 1, 1, 1, 1, 1], [.infinity, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1], [0, 0, 0, 0, 0, 0]] {
            let edges = bad.reduce(into: [0.0]) { $0.append($0.last! + $1) }
            _ = Self.decoded(ElementRun(edges: edges, firstDark: 0, length: 100))
        }
        for count in [0, 1, 4, 5, 12, 48, 60, 84, 252] {
            for _ in 0..<50 {
                _ = DataBarExpandedData.elementString((0..<count).map { _ in Bool.random(using: &generator) })
            }
        }
    }

    @Test("the general-purpose field: numeric pairs, a last digit, latches, ISO/IEC 646 characters and FNC1")
    func generalPurpose() {
        func bits(_ text: String) -> DataBarExpandedData.Bits { .init(text.filter { $0 != " " }.map { $0 == "1" }) }
        // "12": (1 × 11 + 2) + 8 = 21 in 7 bits; then a last digit 3 as 4 in 4 bits.
        #expect(DataBarExpandedData.generalPurpose(bits("0010101 0100"), from: 0) == Array("123".utf8))
        // Latch to alphanumeric (0000), "A" (32 in 6 bits), FNC1 (15 in 5 bits, back to
        // numeric), "45" (4 × 11 + 5 + 8 = 57).
        #expect(DataBarExpandedData.generalPurpose(bits("0000 100000 01111 0111001"), from: 0) == Array("A\u{1D}45".utf8))
        // The same with the numeric latch (000) some encoders write after FNC1 (zxing-cpp's
        // sample rssexpandedstacked-1/23.png).
        #expect(DataBarExpandedData.generalPurpose(bits("0000 100000 01111 000 0111001"), from: 0) == Array("A\u{1D}45".utf8))
        // Alphanumeric, then ISO/IEC 646 (00100), "a" (90 in 7 bits), "!" (232 in 8 bits).
        #expect(DataBarExpandedData.generalPurpose(bits("0000 00100 1011010 11101000"), from: 0) == Array("a!".utf8))
        // An alphanumeric value no table has.
        #expect(DataBarExpandedData.generalPurpose(bits("0000 111111"), from: 0) == nil)
    }
}
