import Foundation
import Testing
import TestSupport
@testable import QRSealKit

/// Our grey-level EAN/UPC reader on the photos of Tests/Images/linear (see
/// make-linear-images.sh): blurred by up to 1.5 modules, 1 to 2 pixels per module, noisy,
/// JPEG'd, turned, unevenly lit, printed with bars wider or narrower than nominal, scan
/// lines cropped tight with barely any quiet zone, and a dark border cutting it short.
@Suite("ProfileReader: blurred and low-resolution EAN/UPC")
struct ProfileReaderTests {
    static let folder = Tools.packageRoot.appendingPathComponent("Tests/Images/linear")

    static let names: [String] = {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return files.filter { $0.hasSuffix(".jpg") || $0.hasSuffix(".png") }.sorted()
    }()

    static let nothing: [String] = {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("nothing").path)) ?? []
        return files.filter { $0.hasSuffix(".png") }.sorted().map { "nothing/" + $0 }
    }()

    static func image(_ name: String) throws -> GrayImage {
        try ImageDecoder().decode([UInt8](try Data(contentsOf: folder.appendingPathComponent(name))))
    }

    static func expected(_ name: String) throws -> [UInt8] {
        let url = folder.appendingPathComponent((name as NSString).deletingPathExtension + ".txt")
        return Array(try String(contentsOf: url, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines).utf8)
    }

    static let reader = ProfileReader(symbologies: Symbology.defaultSet)

    @Test("every kind is there: EAN-13, UPC-A, EAN-8 and UPC-E photos, and images of no code")
    func everyKind() {
        for kind in ["ean13-", "upca-", "ean8-", "upce-"] { #expect(Self.names.contains { $0.hasPrefix(kind) }, "\(kind)") }
        for trouble in ["-inkspread", "-thinbars", "-strip", "-bordered"] { #expect(Self.names.contains { $0.contains(trouble) }, "\(trouble)") }
        #expect(Self.nothing.count >= 4)
    }

    @Test("each photo reads as its payload, and nothing else, at the default effort", arguments: ProfileReaderTests.names)
    func reads(name: String) throws {
        let image = try Self.image(name)
        let want = try Self.expected(name)
        var detector = Detector()
        detector.timeBudget = .cpu(.seconds(600))
        let found = detector.detect(in: image)
        #expect(found.map(\.bytes) == [want], "\(name): \(found.map { String(decoding: $0.bytes, as: UTF8.self) })")
    }

    @Test("it reads photos that neither zbar nor libZXing reads, with all their searches")
    func readsWhatTheEnginesMiss() throws {
        var missedByBoth = 0
        for name in Self.names {
            let image = try Self.image(name)
            var zxing = ZXingEngine(symbologies: Symbology.defaultSet)
            zxing.tryHarder = true
            zxing.tryRotate = true
            let want = try Self.expected(name)
            let engines = ZBarEngine(symbologies: Symbology.defaultSet).scan(image) + zxing.scan(image)
            guard !engines.contains(where: { $0.bytes == want }) else { continue }
            missedByBoth += 1
            #expect(Self.reader.scan(image).map(\.bytes) == [want], "\(name)")
        }
        #expect(missedByBoth >= 5, "the photos should be beyond both engines: \(missedByBoth)")
    }

    @Test("noise, text, regular stripes and bars of random widths give nothing",
          arguments: ProfileReaderTests.nothing)
    func nothingThere(name: String) throws {
        let image = try Self.image(name)
        #expect(Self.reader.scan(image).isEmpty, "\(name)")
        #expect(Self.reader.scan(image.inverted()).isEmpty, "\(name), inverted")
    }

    @Test("a photo of no code, and the EAN/UPC photos inverted, cost no fit: every stretch is dropped before any refinement")
    func noFitWithoutBars() throws {
        let url = Tools.packageRoot.appendingPathComponent("Tests/Images/nothing/zxing-photo-21.png")
        let photo = try ImageDecoder().decode([UInt8](try Data(contentsOf: url)))
        for image in [photo, photo.inverted()] + (try ["ean13-blur.jpg", "upca-lowres.jpg", "ean8-blur.jpg"].map { try Self.image($0).inverted() }) {
            var work = ProfileReader.Work()
            #expect(Self.reader.scan(image, work: &work).isEmpty)
            #expect(work.refined == 0, "\(work)")
        }
        // The counter counts: a photo of a symbol is refined, and read.
        var work = ProfileReader.Work()
        #expect(!Self.reader.scan(try Self.image("ean13-blur.jpg"), work: &work).isEmpty)
        #expect(work.refined > 0 && work.bands >= 2)
    }

    @Test("a stretch between quiet zones with far fewer dips than a symbol has bars is never fitted")
    func fewDips() {
        // Six bars of one to four modules, two samples a module, quiet zones either side:
        // the ends of a symbol, and room for a UPC-E, but about a third of its bars.
        let widths: [Double] = [2, 3, 1, 2, 4, 5, 3, 6, 2, 4, 1]
        var modules: [Bool] = Array(repeating: false, count: 20)
        for (i, w) in widths.enumerated() { modules += Array(repeating: i % 2 == 0, count: Int(w)) }
        modules += Array(repeating: false, count: 20)
        let profile = modules.flatMap { [$0 ? 40.0 : 210.0, $0 ? 40.0 : 210.0] }
        var refined = 0
        #expect(ProfileDecoder.fitted(profile, span: 40...Double(profile.count - 41), refined: &refined).isEmpty)
        #expect(refined == 0)
        // A drawn EAN-13 over the same kind of stretch is fitted, and reads.
        let ean = Self.rendered(ean13: [4, 0, 0, 6, 3, 8, 1, 3, 3, 3, 9, 3, 1])
        let readings = ProfileDecoder.fitted(ean, span: 20...Double(ean.count - 21), refined: &refined).map(\.reading)
        #expect(refined > 0 && readings.contains(where: ProfileReader.accepts))
    }

    @Test("a photo cut through its bars gives nothing: half a symbol is no symbol")
    func truncated() throws {
        for name in ["ean13-blur.jpg", "upca-lowres.jpg", "upce-blur.jpg"] {
            let image = try Self.image(name)
            for (x, width) in [(0, image.width / 2), (image.width / 4, image.width / 2)] {
                let part = try #require(image.cropped(x: x, y: 0, width: width, height: image.height))
                #expect(Self.reader.scan(part).isEmpty, "\(name) cut to x \(x)…\(x + width)")
            }
        }
    }

    @Test("tiny, thin, blank and huge images give nothing and do not trap")
    func oddSizes() {
        let sizes = [(1, 1), (1, 300), (300, 1), (31, 31), (32, 1), (2, 2000), (3000, 2)]
        for (w, h) in sizes {
            for value: UInt8 in [0, 255] {
                #expect(Self.reader.scan(GrayImage(width: w, height: h, filledWith: value)).isEmpty, "\(w)×\(h)")
            }
        }
        let big = GrayImage(width: 3000, height: 2000, filledWith: 200)
        #expect(Self.reader.scan(big).isEmpty)
    }

    @Test("hostile profiles (constant, alternating, spikes, extreme levels, too short) give nothing")
    func hostileProfiles() {
        var generator = SystemRandomNumberGenerator()
        let profiles: [[Double]] = [
            [Double](repeating: 128, count: 400),
            (0..<400).map { $0 % 2 == 0 ? 0 : 255 },
            (0..<400).map { $0 % 37 == 0 ? 0 : 255 },
            (0..<400).map { _ in Double.random(in: 0...255, using: &generator) },
            [Double](repeating: 255, count: 31),
            (0..<5000).map { $0 % 3 == 0 ? 0 : 255 },
        ]
        for p in profiles {
            let readings = ProfileDecoder.readings(p, span: 0...Double(p.count - 1))
            #expect(!readings.contains(where: ProfileReader.accepts))
        }
    }

    /// The ideal profile of `digits` as an EAN-13: 2 samples a module, 10 light modules
    /// either side, no blur.
    static func rendered(ean13 digits: [Int]) -> [Double] {
        let layout = EANLayout.ean13
        let rule = layout.rules[digits[0]]
        var modules = layout.fixed.map { $0 ?? 0 }
        for (slot, start) in layout.slots.enumerated() {
            let code = rule.codes[slot].first { EANLayout.digit(of: $0) == digits[slot + 1] }!
            for (i, bar) in EANLayout.modules(of: code, leftHand: layout.leftHand[slot]).enumerated() { modules[start + i] = bar }
        }
        let row = [UInt8](repeating: 0, count: 10) + modules + [UInt8](repeating: 0, count: 10)
        return row.flatMap { [$0 == 1 ? 30.0 : 220.0, $0 == 1 ? 30.0 : 220.0] }
    }

    /// The profile of `digits` as an EAN-13 printed with every bar `spread` modules wider
    /// than nominal (half of it on each side) and blurred by `sigma` modules: 2 samples a
    /// module, 10 light modules either side.
    static func rendered(ean13 digits: [Int], spread: Double, sigma: Double) -> [Double] {
        let modules = Self.rendered(ean13: digits).enumerated().filter { $0.offset % 2 == 0 }.map { $0.element < 100 }
        var bars: [(Double, Double)] = []
        for (m, dark) in modules.enumerated() where dark {
            if let last = bars.last, last.1 == Double(m) { bars[bars.count - 1].1 += 1 } else { bars.append((Double(m), Double(m + 1))) }
        }
        func phi(_ z: Double) -> Double { 0.5 * erfc(-z / 2.0.squareRoot()) }
        return (0..<(2 * modules.count)).map { k in
            let u = (Double(k) + 0.5) / 2
            let dark = bars.reduce(0.0) { $0 + phi((u - $1.0 + spread / 2) / sigma) - phi((u - $1.1 - spread / 2) / sigma) }
            return 220 - 190 * min(1, dark)
        }
    }

    @Test("a dark border three modules from the bars, on either side, is taken for the end of the quiet zone it cuts short")
    func darkBorder() throws {
        let digits = [5, 9, 0, 1, 2, 3, 4, 1, 2, 3, 4, 5, 7]
        let clean = Self.rendered(ean13: digits, spread: 0, sigma: 0.7)
        // 10 light modules either side at 2 samples a module: 7 of them made dark.
        var bordered = clean
        for k in 0..<14 { bordered[k] = 25; bordered[clean.count - 1 - k] = 25 }
        let span = 20...Double(clean.count - 21)
        func lightened(_ p: [Double]) -> [Double]? { ProfileDecoder.levels(p, span: span).flatMap { ProfileDecoder.opened(p, levels: $0) } }
        let opened = try #require(lightened(bordered))
        // As light as the blurred spaces get, and the bars left as they were.
        #expect(opened[0] > 180 && opened[clean.count - 1] > 180, "\(opened[0]) \(opened[clean.count - 1])")
        #expect(Array(opened[16..<(clean.count - 16)]) == Array(bordered[16..<(clean.count - 16)]))
        let r = try #require(ProfileDecoder.readings(bordered, span: span).first(where: ProfileReader.accepts))
        #expect(r.digits == digits)
        // A border beyond a full quiet zone hides nothing, and a symbol's own last bar at
        // the profile's end is no border.
        #expect(lightened([Double](repeating: 25, count: 20) + clean + [Double](repeating: 25, count: 20)) == nil)
        #expect(lightened(Array(clean.dropLast(20))) == nil)
    }

    @Test("bars printed wider or narrower than nominal: the fit finds by how much, and reads the digits")
    func inkSpread() throws {
        let digits = [5, 9, 0, 1, 2, 3, 4, 1, 2, 3, 4, 5, 7]
        for spread in [-0.45, 0.45] {
            let p = Self.rendered(ean13: digits, spread: spread, sigma: 0.7)
            let r = try #require(ProfileDecoder.readings(p, span: 20...Double(p.count - 21)).first(where: ProfileReader.accepts),
                                 "spread \(spread)")
            #expect(r.digits == digits, "spread \(spread)")
            #expect(abs(r.spread - spread) < 0.2, "spread \(spread): fitted \(r.spread)")
        }
    }

    @Test("the code tables: a drawn EAN-13 reads as itself in either direction, and one wrong bar is no read")
    func tables() throws {
        let digits = [4, 0, 0, 6, 3, 8, 1, 3, 3, 3, 9, 3, 1]
        let profile = Self.rendered(ean13: digits)
        for p in [profile, profile.reversed()] {
            let r = try #require(ProfileDecoder.readings(p, span: 20...Double(p.count - 21)).first(where: ProfileReader.accepts))
            #expect(r.kind == .ean13 && r.digits == digits)
        }
        // A different last digit breaks the check: the bars read as another valid symbol
        // only with a wrong code somewhere, so nothing passes.
        var wrong = digits
        wrong[12] = (wrong[12] + 1) % 10
        let bad = Self.rendered(ean13: wrong)
        let readings = ProfileDecoder.readings(bad, span: 20...Double(bad.count - 21))
        #expect(!readings.contains { ProfileReader.accepts($0) && $0.digits == wrong })
        #expect(!readings.contains(where: ProfileReader.accepts))
    }
}

@Suite("Detector: partial and Code 32 reads")
struct LinearMergeTests {
    static func box(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> [Point] {
        [Point(x: x0, y: y0), Point(x: x1, y: y0), Point(x: x1, y: y1), Point(x: x0, y: y1)]
    }

    @Test("a UPC-E read inside the bars of a UPC-A is dropped; one beside it is kept")
    func partOfLonger() {
        let upca = Detection(symbology: .upca, bytes: Array("012546619592".utf8), corners: Self.box(30, 5, 210, 40))
        let inside = Detection(symbology: .upce, bytes: Array("02212166".utf8), corners: Self.box(111, 9, 111, 23))
        let beside = Detection(symbology: .upce, bytes: Array("01234565".utf8), corners: Self.box(260, 5, 330, 40))
        let merged = Detector.merged([inside, upca, beside])
        #expect(merged.map(\.symbology) == [.upca, .upce])
        #expect(merged.last?.bytes == beside.bytes)
        // Without the longer read, the UPC-E stands.
        #expect(Detector.merged([inside]).count == 1)
    }

    @Test("a six-character Code 39 whose base-32 digits check is the Code 32 it stands for")
    func code32() {
        let all = Symbology.defaultSet
        let read = SymbolCheck.normalized(.code39, Array("3PRM8N".utf8), wanted: all)
        #expect(read?.0 == .code32 && read?.1 == Array("A123456788".utf8))
        #expect(SymbolCheck.payloadIsValid(.code32, Array("A123456788".utf8)))
        // Asked for Code 39 alone, it is the Code 39 it is.
        #expect(SymbolCheck.normalized(.code39, Array("3PRM8N".utf8), wanted: [.code39])?.0 == .code39)
        // A wrong check digit (…789), a vowel, another length: plain Code 39.
        for text in ["3PRM8P", "3PRA8N", "3PRM8", "CODE39 42"] {
            #expect(SymbolCheck.normalized(.code39, Array(text.utf8), wanted: all)?.0 == .code39, "\(text)")
        }
        #expect(!SymbolCheck.payloadIsValid(.code32, Array("A123456789".utf8)))
        #expect(!SymbolCheck.payloadIsValid(.code32, Array("A12345678".utf8)))
    }
}
