import Foundation
import Testing
import TestSupport
@testable import QRSealKit

/// The linear codes neither engine reads, read by our own `WidthReader` through the whole
/// detector: GS1 DataBar Limited, Telepen, MSI Plessey (drawn by zint, clean and
/// photographed) and DX film edge (a picture of film from zxing-cpp's samples).
@Suite("WidthReader: DataBar Limited, Telepen, MSI and DX film edge")
struct WidthReaderTests {
    /// What the default detector reports, as "symbology: text" pairs.
    static func read(_ image: GrayImage, symbologies: Set<Symbology> = Set(Symbology.allCases)) -> [String] {
        var detector = Detector()
        detector.symbologies = symbologies
        return detector.detect(in: image).map { "\($0.symbology.displayName): \(String(decoding: $0.bytes, as: UTF8.self))" }
    }

    /// One code drawn by zint on a page, photographed when `photo` is given.
    static func drawn(_ zint: String, _ data: String, _ symbology: Symbology, options: [String] = [],
                      photo: MixedSheets.Photo? = nil) throws -> GrayImage {
        let code = MixedSheets.Code(zint: zint, data: data, symbology: symbology, expected: data, options: options)
        return try MixedSheets.picture([code], columns: 1, scale: 2, width: 500, height: 300, photo: photo)
    }

    static let photo = MixedSheets.Photo(tilt: 20, blur: 0.7, noise: 0.3, quality: 85)

    @Test("a DataBar Limited reads as its element string, clean and photographed")
    func dataBarLimited() throws {
        for photo in [nil, Self.photo] {
            let image = try Self.drawn("DBAR_LTD", "1501234567890", .databarLimited, photo: photo)
            #expect(Self.read(image) == ["DataBar-Ltd: 0115012345678907"], "photo: \(photo != nil)")
        }
    }

    @Test("Telepen in ASCII and in numeric mode reads as its text, clean and photographed")
    func telepen() throws {
        for photo in [nil, Self.photo] {
            #expect(Self.read(try Self.drawn("TELEPEN", "Telepen 42!", .telepen, photo: photo)) == ["Telepen: Telepen 42!"])
            #expect(Self.read(try Self.drawn("TELEPEN_NUM", "01234567", .telepen, photo: photo)) == ["Telepen: 01234567"])
        }
    }

    @Test("Telepen at 1.5 pixels a module, bars of one pixel and of two, reads as its text")
    func telepenFineModules() throws {
        // zxing-cpp's sample (Tests/Images/telepen/README.md): sampled halfway between
        // pixels, its narrow bars blurred into a grey no threshold split.
        #expect(Self.read(try Self.image("telepen/zxing-telepen-alpha-2.png")) == ["Telepen: TELEPEN"])
    }

    /// An image of Tests/Images.
    static func image(_ path: String) throws -> GrayImage {
        let url = Tools.packageRoot.appendingPathComponent("Tests/Images").appendingPathComponent(path)
        return try ImageDecoder().decode([UInt8](try Data(contentsOf: url)))
    }

    @Test("MSI with each check scheme zint draws reads with its check digits, clean and photographed",
          arguments: [(1, "12344"), (2, "123448"), (3, "12343"), (4, "123430"), (5, "1234560"), (6, "12345609")])
    func msi(scheme: Int, expected: String) throws {
        let data = scheme >= 5 ? "123456" : "1234"
        for photo in [nil, Self.photo] {
            let image = try Self.drawn("MSI_PLESSEY", data, .msi, options: ["--vers=\(scheme)"], photo: photo)
            #expect(Self.read(image) == ["MSI: \(expected)"], "scheme \(scheme), photo: \(photo != nil)")
        }
    }

    @Test("an MSI without a check digit that holds is not read")
    func msiWithoutCheck() throws {
        // 1234: 4 is no modulo 10 or 11 check of 123.
        #expect(Self.read(try Self.drawn("MSI_PLESSEY", "1234", .msi)) == [])
    }

    @Test("a Code 128 and an Interleaved 2 of 5 read as themselves, never as MSI, Telepen or DataBar Limited")
    func noneInsideOtherCodes() throws {
        let ours: Set<Symbology> = [.msi, .telepen, .databarLimited]
        for (zint, data) in [("CODE128", "1234567890"), ("C25INTER", "12345678"), ("CODE39", "MSI 1234")] {
            let image = try Self.drawn(zint, data, .code128)
            #expect(Self.read(image, symbologies: ours) == [], "\(zint)")
        }
    }

    @Test("an MSI read within another code's box is dropped as part of it; beside it, kept")
    func msiInsideAnotherCode() {
        let box = [Point(x: 10, y: 40), Point(x: 200, y: 40), Point(x: 200, y: 90), Point(x: 10, y: 90)]
        let code128 = Detection(symbology: .code128, bytes: Array("1234567890".utf8), corners: box)
        let inside = Detection(symbology: .msi, bytes: Array("12344".utf8), corners: box.map { Point(x: $0.x / 2 + 50, y: $0.y) })
        #expect(Detector.merged([code128, inside]).map(\.symbology) == [.code128])
        let beside = Detection(symbology: .msi, bytes: Array("12344".utf8), corners: box.map { Point(x: $0.x + 300, y: $0.y) })
        #expect(Detector.merged([code128, beside]).map(\.symbology) == [.code128, .msi])
    }

    @Test("DX film edge: a film's clock and data tracks read as product-generation/frame")
    func dxFilmEdge() throws {
        let url = Tools.packageRoot.appendingPathComponent("Tests/Images/film/dxfilmedge.png")
        let image = try ImageDecoder().decode([UInt8](try Data(contentsOf: url)))
        #expect(Self.read(image) == ["DXFilmEdge: 10-3"])
    }

    @Test("DX film edge under the film's sprocket holes: its bars are a region of their own, and read")
    func dxFilmEdgeUnderSprockets() throws {
        // zxing-cpp's sample (Tests/Images/film/README.md): the bars joined the holes' edges
        // above them into a region that was mostly other texture, so never read.
        #expect(Self.read(try Self.image("film/dxfilmedge-sprockets.png")) == ["DXFilmEdge: 80-11/23"])
    }

    @Test("a DataBar Limited with a character one module off reads as nothing")
    func dataBarLimitedDamaged() {
        // zint -b DBAR_LTD -d 1501234567890 --dump, as element widths from the left guard's bar.
        let widths = Self.limited
        #expect(DataBarLimitedDecoder.decode(widths.map(Double.init)) == Array("0115012345678907".utf8))
        #expect(DataBarLimitedDecoder.decode(widths.map { Double($0) * 2.7 }) == Array("0115012345678907".utf8))
        for i in [2, 10, 17, 25, 33, 40] where widths[i + 1] > 1 {
            var moved = widths
            moved[i] += 1
            moved[i + 1] -= 1
            #expect(DataBarLimitedDecoder.decode(moved.map(Double.init)) == nil, "element \(i)")
        }
        #expect(DataBarLimitedDecoder.decode([Double](repeating: 1, count: 45)) == nil)
        #expect(DataBarLimitedDecoder.decode([Double](repeating: 0, count: 45)) == nil)
        #expect(DataBarLimitedDecoder.decode(Array(widths.dropLast()).map(Double.init)) == nil)
    }

    /// The 45 element widths of zint's DataBar Limited of 1501234567890, from zint's dump.
    static let limited = Array(zintWidths(["-b", "DBAR_LTD", "-d", "1501234567890"]).prefix(45))

    /// The element widths, in modules from the first dark one, of the one-row symbol zint
    /// draws with `arguments` (`zint --dump`); empty when zint fails.
    static func zintWidths(_ arguments: [String]) -> [Int] {
        guard let result = try? Tools.run("zint", arguments + ["--dump"]), result.status == 0 else { return [] }
        let hex = String(decoding: result.stdout, as: UTF8.self).split(whereSeparator: \.isWhitespace).compactMap { UInt8($0, radix: 16) }
        var bits = hex.flatMap { byte in (0..<8).reversed().map { (byte >> $0) & 1 } }
        // From the first dark module; zint draws a DataBar's left guard's light module first.
        while bits.first == 0 { bits.removeFirst() }
        var widths: [Int] = [], previous: UInt8 = 2
        for bit in bits {
            if bit == previous { widths[widths.count - 1] += 1 } else { widths.append(1) }
            previous = bit
        }
        return widths
    }

    @Test("element widths of noise, truncated symbols and hostile values read as nothing and do not crash")
    func hostile() {
        var generator = SystemRandomNumberGenerator()
        for count in [0, 1, 2, 17, 45, 60, 200] {
            for _ in 0..<50 {
                let edges = (0..<count).reduce(into: [Double]()) { e, _ in e.append((e.last ?? 0) + Double.random(in: 0.5...6, using: &generator)) }
                let run = ElementRun(edges: edges, firstDark: Int.random(in: 0...1, using: &generator), length: Int(edges.last ?? 0) + 1)
                for r in [run, run.reversed] {
                    _ = DataBarLimitedDecoder.find(r)
                    _ = TelepenDecoder.find(r)
                    _ = DXFilmEdgeDecoder.clocks(r)
                    #expect(MSIDecoder.find(r) == nil || MSIDecoder.checkHolds(MSIDecoder.find(r)!.bytes.map { Int($0) - 48 }))
                }
            }
        }
        for value in [Double.nan, .infinity, 0, -1] {
            let run = ElementRun(edges: [Double](repeating: value, count: 60), firstDark: 0, length: 60)
            #expect(DataBarLimitedDecoder.find(run) == nil && TelepenDecoder.find(run) == nil && MSIDecoder.find(run) == nil)
        }
        let reader = WidthReader(symbologies: WidthReader.readable)
        for (w, h) in [(1, 1), (3, 200), (200, 3), (16, 16)] {
            let image = GrayImage(width: w, height: h, pixels: [UInt8](repeating: 128, count: w * h))
            #expect(reader.scan(image).isEmpty)
        }
    }

    @Test("the light level near each sample is the largest grey level within reach, as the slow way finds it")
    func windowMaxima() {
        var generator = SystemRandomNumberGenerator()
        for n in [0, 1, 2, 7, 100] {
            let values = (0..<n).map { _ in Double(Int.random(in: 0...255, using: &generator)) }
            for radius in [0, 1, 3, 50, 200] {
                let slow = (0..<n).map { k in values[max(0, k - radius)...min(n - 1, k + radius)].max() ?? 0 }
                #expect(ProfileDecoder.windowMaxima(values, radius: radius) == slow, "n \(n), radius \(radius)")
            }
        }
    }

    @Test("a MSI's check schemes: modulo 10, and modulo 11 with IBM's and NCR's weights, a check of 10 as 1 0")
    func msiChecks() {
        #expect(MSIDecoder.checkHolds([1, 2, 3, 4, 4]))
        #expect(MSIDecoder.checkHolds([1, 2, 3, 4, 3]))
        // 9999990: IBM's modulo 11 is 10, NCR's 0.
        #expect(MSIDecoder.checkHolds([9, 9, 9, 9, 9, 9, 0, 1, 0]))
        #expect(MSIDecoder.checkHolds([9, 9, 9, 9, 9, 9, 0, 0]))
        #expect(!MSIDecoder.checkHolds([1, 2, 3, 4]))
        #expect(!MSIDecoder.checkHolds([1, 2, 3, 4, 5]))
        #expect(!MSIDecoder.checkHolds([]))
    }
}
