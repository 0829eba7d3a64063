import Foundation
import Testing
import TestSupport
@testable import QRSealKit

/// Our own rMQR reader: zxing-cpp's three samples (Tests/Images/rmqr), symbols of every size
/// drawn by zint at test time (turned, tilted, blurred, inverted), damaged symbols and
/// hostile input.
@Suite("rMQR reader")
struct RMQRReaderTests {
    static let images = ReaderImageSet("rmqr", symbology: .rmqr) { image in
        RMQRReaderTests.readAlone(image).map { found in
            (Candidate(symbology: .rmqr, bytes: found.symbol.bytes, corners: found.corners), found.symbol)
        }
    }

    /// The reader alone on `image` as it is, with its own binarization and census.
    static func readAlone(_ image: GrayImage) -> [RMQRReader.Found] {
        let dark = Binarizer.binarized(image)
        let census = FinderCensus(dark: dark, width: image.width, height: image.height)
        return RMQRReader(image: image, dark: dark, census: census).read()
    }

    /// An rMQR symbol of size `version` (1, R7x43, to 32, R17x139) drawn by zint at `scale`
    /// (two pixels a module at 1) with its quiet zone, then changed by ImageMagick's
    /// `convert` `options`, when given.
    static func drawn(_ data: String, version: Int, high: Bool = false, scale: Int = 2, rotate: Int = 0,
                      convert options: [String] = []) throws -> GrayImage {
        let dir = try TempDir()
        let path = dir.path("rmqr.png"), out = dir.path("changed.png")
        let result = try Tools.run("zint", ["-b", "RMQR", "--vers=\(version)", "--secure=\(high ? 4 : 2)", "-d", data,
                                            "--scale=\(scale)", "--quietzones", "--rotate=\(rotate)", "-o", path])
        guard result.status == 0 else { throw MixedSheets.SheetError.tool("zint -b RMQR: \(result.stderr)") }
        var file = path
        if !options.isEmpty {
            let changed = try Tools.run("convert", [path] + options + ["-colorspace", "Gray", out])
            guard changed.status == 0 else { throw MixedSheets.SheetError.tool("convert: \(changed.stderr)") }
            file = out
        }
        return try ImageDecoder().decode([UInt8](try Data(contentsOf: URL(fileURLWithPath: file))))
    }

    static var detector: Detector { ReaderTesting.detector }

    @Test("zxing-cpp's samples read through the detector as their text, as rMQR",
          arguments: ["R17x139", "R7x43-H", "R7x43-H_inverted"])
    func samples(name: String) throws {
        try Self.images.expectDetected(name)
        #expect(try Self.images.detected(name).first?.symbology.displayName == "rMQR")
    }

    @Test("the reader alone reads the sample with a quiet zone, at level H, R7x43")
    func sampleAlone() throws {
        let symbol = try #require(try Self.images.read("R17x139").first?.symbol)
        #expect(symbol.width == 139 && symbol.height == 17)
        let image = try Self.images.image("R7x43-H")
        // Too small for the census as it is: the detector reads it padded and enlarged.
        let enlarged = try #require(image.padded(by: 8).enlarged(by: 2))
        #expect(Self.readAlone(enlarged).map(\.symbol.level) == [.high])
    }

    @Test("every size reads at levels M and H, at two scales", arguments: 1...32)
    func everySize(version: Int) throws {
        for (high, scale) in [(false, 1), (true, 3)] {
            // Alphanumeric; R7x43 and R11x27 at level H hold too little for the longer text.
            let text = high && (version == 1 || version == 11) ? "R\(version)" : "R\(version)-\(high ? "H" : "M")"
            let image = try Self.drawn(text, version: version, high: high, scale: scale)
            let reads = Self.readAlone(image)
            #expect(reads.map(\.symbol.bytes) == [Array(text.utf8)], "version \(version) scale \(scale)")
            #expect(reads.map(\.symbol.version) == [version] && reads.map(\.symbol.level) == [high ? .high : .medium])
            let size = RMQRSymbol.sizes[version - 1]
            #expect(reads.first.map { ($0.symbol.width, $0.symbol.height) } ?? (0, 0) == (size.width, size.height))
        }
    }

    @Test("the detector reads symbols turned, tilted, blurred, inverted and a little squeezed", arguments: [
        ("turned 90", 8, 90, []), ("turned 180", 22, 180, []), ("turned 270", 32, 270, []),
        ("tilted 5 degrees", 5, 0, ["-background", "white", "-rotate", "5"]),
        ("tilted -8 degrees", 27, 0, ["-background", "white", "-rotate", "-8"]),
        ("blurred", 32, 0, ["-bordercolor", "white", "-border", "10", "-blur", "0x1.2"]),
        ("tilted and blurred", 22, 0, ["-background", "white", "-rotate", "3", "-blur", "0x1"]),
        ("inverted", 12, 0, ["-negate"]),
        // R13x139 at four pixels a module (572 × 68), its right end a little shorter.
        ("seen a little from aside", 22, 0,
         ["-virtual-pixel", "white", "-distort", "Perspective", "0,0 4,2  571,0 569,4  571,67 567,66  0,67 1,63"]),
    ] as [(String, Int, Int, [String])])
    func spoiled(name: String, version: Int, rotate: Int, options: [String]) throws {
        let text = "rMQR \(name)"
        let image = try Self.drawn(text, version: version, rotate: rotate, convert: options)
        let found = Self.detector.detect(in: image)
        #expect(found.map(\.text) == [text], "\(name)")
        #expect(found.map(\.symbology) == [.rmqr], "\(name)")
    }

    @Test("a few damaged modules are repaired; a symbol damaged beyond its check words reads as nothing")
    func damaged() throws {
        // R11x43 at level M: 12 check words, of which our reader spends at most five.
        let text = "damaged rMQR"
        // Scale 2: four pixels a module, a quiet zone of two modules; columns 14 to 19 of
        // rows 3 to 7 lie in the data, clear of the timing and alignment patterns.
        func box(_ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int) -> [String] {
            ["-fill", "black", "-draw", "rectangle \(4 * (x0 + 2)),\(4 * (y0 + 2)) \(4 * (x1 + 3) - 1),\(4 * (y1 + 3) - 1)"]
        }
        let light = try Self.drawn(text, version: 12, convert: box(14, 3, 15, 4))
        #expect(Self.readAlone(light).map(\.symbol.bytes) == [Array(text.utf8)])
        #expect(Self.readAlone(light).first.map { $0.symbol.corrected > 0 } == true)
        let heavy = try Self.drawn(text, version: 12, convert: box(12, 2, 20, 8) + box(28, 2, 36, 8))
        #expect(Self.readAlone(heavy).isEmpty)
        #expect(!Self.detector.detect(in: heavy).contains { $0.symbology == .rmqr })
    }

    @Test("a QR code's finders are not taken for an rMQR symbol's, nor the other way round")
    func qrAndRMQR() throws {
        let dir = try TempDir()
        let path = dir.path("qr.png")
        _ = try Tools.run("zint", ["-b", "QRCODE", "-d", "a QR code, not rMQR", "--scale=2", "-o", path])
        let qr = try ImageDecoder().decode([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
        #expect(Self.readAlone(qr).isEmpty)
        #expect(Self.detector.detect(in: qr).map(\.symbology) == [.qr])
        let micro = dir.path("micro.png")
        _ = try Tools.run("zint", ["-b", "MICROQR", "-d", "MICRO", "--scale=3", "-o", micro])
        #expect(Self.readAlone(try ImageDecoder().decode([UInt8](try Data(contentsOf: URL(fileURLWithPath: micro))))).isEmpty)
    }

    @Test("a QR code and an rMQR symbol on one sheet are both read, each as its kind")
    func sheet() throws {
        let codes = [MixedSheets.Code(zint: "QRCODE", data: "a QR code beside", symbology: .qr, expected: "a QR code beside"),
                     MixedSheets.Code(zint: "RMQR", data: "an rMQR beside a QR", symbology: .rmqr,
                                      expected: "an rMQR beside a QR")]
        for photo in [nil, MixedSheets.Photo(tilt: 6, blur: 0.4, noise: 0.1, quality: 90)] as [MixedSheets.Photo?] {
            let found = Self.detector.detect(in: try MixedSheets.picture(codes, columns: 2, photo: photo))
            #expect(Set(found.map { "\($0.symbology): \($0.text ?? "")" })
                    == ["qr: a QR code beside", "rmqr: an rMQR beside a QR"], "photo: \(photo != nil)")
        }
    }

    @Test("the format information's codes are the standard's")
    func formatCodes() {
        // ISO/IEC 23941's table of format information, as zint lists it: R7x43 at level M
        // and R7x59 at level M beside the finder, R7x43 at level H, and the sub-pattern's copy.
        #expect(RMQRSymbol.finderSideCodes[0] == 0x1FAB2 && RMQRSymbol.finderSideCodes[1] == 0x1E597)
        #expect(RMQRSymbol.finderSideCodes[32] == 0x3F367 && RMQRSymbol.finderSideCodes[63] == 0x20137)
        #expect(RMQRSymbol.subPatternSideCodes[0] == 0x20A7B && RMQRSymbol.subPatternSideCodes[63] == 0x1F1FE)
    }

    @Test("the codewords of every size fill its data modules")
    func capacity() {
        for size in RMQRSymbol.sizes {
            let function = RMQRSymbol.functionModules(width: size.width, height: size.height)
            let data = RMQRSymbol.dataPositions(width: size.width, height: size.height, function: function).count
            // Fewer than eight modules are left over.
            #expect(data >= 8 * size.total && data < 8 * size.total + 8, "R\(size.height)x\(size.width): \(data)")
        }
    }

    @Test("grids of noise, of the wrong size and truncated streams read as nothing")
    func hostileGrids() {
        var random = SplitMix(seed: 23941)
        for size in RMQRSymbol.sizes {
            let modules = (0..<(size.width * size.height)).map { _ in random.next() & 1 == 1 }
            #expect(RMQRSymbol.read(modules, width: size.width, height: size.height) == nil)
        }
        #expect(RMQRSymbol.read([Bool](repeating: true, count: 43 * 7), width: 43, height: 7) == nil)
        #expect(RMQRSymbol.read([Bool](repeating: false, count: 10), width: 43, height: 7) == nil)
        #expect(RMQRSymbol.read([Bool](repeating: false, count: 44 * 7), width: 44, height: 7) == nil)
        // Byte mode promising 7 bytes (3 bits of count in R7x43) of which one is there.
        #expect(RMQRSymbol.payload([0b0111_1101, 0x41], counts: [4, 3, 3, 2]) == nil)
        #expect(RMQRSymbol.payload([0b0110_0101, 0b0000_0100, 0b0001_0000], counts: [4, 3, 3, 2]) == Array("A".utf8))
        #expect(RMQRSymbol.payload([0b1110_0000], counts: [4, 3, 3, 2]) == nil, "ECI is not read")
        #expect(RMQRSymbol.payload([0x00], counts: [4]) == nil)
    }

    @Test("pictures with no rMQR, and tiny and flat ones, read as nothing and do not crash")
    func hostileImages() {
        for image in ReaderTesting.flatAndNoisy(width: 160, height: 60) + ReaderTesting.flatAndNoisy(width: 21, height: 21) {
            #expect(Self.readAlone(image).isEmpty)
        }
        let tiny = GrayImage(width: 3, height: 2, pixels: [0, 255, 0, 255, 0, 255])
        #expect(Self.readAlone(tiny).isEmpty)
        #expect(RMQRReader(image: tiny, dark: [true], census: FinderCensus(dark: [], width: 0, height: 0)).read().isEmpty)
    }
}
