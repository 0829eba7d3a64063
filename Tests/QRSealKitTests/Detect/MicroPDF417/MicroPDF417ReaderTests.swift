import Foundation
import Testing
import TestSupport
@testable import QRSealKit

/// Our own MicroPDF417 reader on the images of Tests/Images/micropdf417 (made by zint, see
/// make-zint-images.sh, beside four of zxing-cpp's test images), on symbols zint draws here
/// at several sizes and turns, and on hostile input.
@Suite("MicroPDF417 reader")
struct MicroPDF417ReaderTests {
    /// Along the rows and columns, then across bar regions, as the detector's two passes read.
    static let images = ReaderImageSet("micropdf417", symbology: .microPDF417) { image in
        let reader = MicroPDF417Reader(image: image)
        let upright = reader.read()
        return upright.isEmpty ? reader.readTurned(nil) : upright
    }
    static var names: [String] { images.names }

    @Test("the image set covers what the reader must know", arguments: [
        "c1-text", "c2-text", "c3-numeric", "c4-bytes", "c4-large", "eci", "small", "large",
        "rot90", "rot180", "rot270", "tilt4", "rot30", "rot140", "pitch", "damaged",
        "zxing-1x20", "zxing-4x6-thick-1", "zxing-MPDF-0-p", "zxing-1x20-pitch45", "zxing-1x20-rot35",
        "zxing-MPDF-1",
    ])
    func present(name: String) {
        #expect(Self.names.contains(name))
    }

    @Test("our reader alone reads each image as its payload", arguments: MicroPDF417ReaderTests.names)
    func readsAlone(name: String) throws {
        try Self.images.expectReadAlone(name)
    }

    @Test("the detector reads each at the default effort, once, as MicroPDF417", arguments: MicroPDF417ReaderTests.names)
    func detector(name: String) throws {
        try Self.images.expectDetected(name)
        #expect(try Self.images.detected(name).first?.symbology.displayName == "MicroPDF417")
    }

    @Test("columns and rows are those the symbols were drawn with")
    func variants() throws {
        for (name, columns, rows) in [("c1-text", 1, 24), ("c3-numeric", 3, 12), ("c4-large", 4, 44)] {
            let variant = try #require(try Self.images.read(name).first?.symbol.variant, "\(name)")
            #expect(variant.columns == columns && variant.rows == rows, "\(name): \(variant)")
        }
        #expect(try Self.images.read("c2-text").first?.symbol.variant.columns == 2)
        #expect(try Self.images.read("c4-bytes").first?.symbol.variant.columns == 4)
    }

    @Test("ECI text keeps its declared character set")
    func eci() throws {
        let read = try #require(try Self.images.read("eci").first?.candidate)
        #expect(read.declaresCharacterSet && read.engineText == "Grüße aus Köln")
        #expect(try Self.images.detected("eci").first?.text == "Grüße aus Köln")
    }

    @Test("the corners are the symbol's, clockwise from its top-left as read, whichever way it lies")
    func corners() throws {
        let upright = try #require(try Self.images.read("c2-text").first?.candidate.corners)
        let turned = try #require(try Self.images.read("rot180").first?.candidate.corners)
        let image = try Self.images.image("c2-text")
        let w = Double(image.width), h = Double(image.height)
        // Turning by 180° takes (x, y) to (w − x, h − y).
        for (a, b) in zip(upright, turned) {
            #expect(abs(w - a.x - b.x) < 3 && abs(h - a.y - b.y) < 3, "\(a) turned is not \(b)")
        }
        // The top-left corner lies in the image's top-left quarter, the bottom-right in its last.
        #expect(upright[0].x < w / 4 && upright[0].y < h / 4 && upright[2].x > w * 3 / 4 && upright[2].y > h * 3 / 4)
    }

    @Test("a damaged symbol is read by correcting codewords; one damaged beyond its check codewords reads as nothing")
    func damage() throws {
        let damaged = try #require(try Self.images.read("damaged").first?.symbol)
        #expect(damaged.correction.errors + damaged.correction.erasures > 0)
        try Self.images.expectUnreadable()
    }

    @Test("--symbology without micropdf417 leaves our reader out")
    func notAsked() throws {
        var detector = ReaderTesting.detector
        detector.symbologies = [.qr, .pdf417]
        #expect(detector.detect(in: try Self.images.image("c1-text")).isEmpty)
    }

    @Test("a PDF417 symbol is not taken for a MicroPDF417")
    func notPDF417() throws {
        let image = try Self.zint(["-b", "PDF417", "--scale=1", "-d", "PDF417 rows are not MicroPDF417 rows"])
        #expect(MicroPDF417Reader(image: image).read().isEmpty)
        let found = ReaderTesting.detector.detect(in: image)
        #expect(found.map(\.symbology) == [.pdf417])
    }

    // MARK: - Drawn here

    /// The symbol zint draws with `arguments`, as an image.
    static func zint(_ arguments: [String]) throws -> GrayImage {
        let dir = try TempDir()
        let file = dir.path("symbol.png")
        let drawn = try Tools.run("zint", arguments + ["--quietzones", "--filetype=PNG", "-o", file])
        guard drawn.status == 0 else { throw MixedSheets.SheetError.tool("zint: \(drawn.stderr)") }
        return try ImageDecoder().decode([UInt8](try Data(contentsOf: URL(fileURLWithPath: file))))
    }

    @Test("zint's symbols of 1 to 4 columns read at several scales and turns", arguments: [
        (1, 1, 0), (1, 1.5, 90), (1, 3, 180), (2, 1, 270), (2, 2.5, 0), (3, 1, 90), (3, 2, 180),
        (4, 1, 270), (4, 1.5, 0), (4, 3, 90),
    ])
    func drawn(columns: Int, scale: Double, turn: Int) throws {
        let payloads = ["Text 1", "MicroPDF417 in \(columns) columns: 0123456789 and text, lower & UPPER",
                        String(repeating: "9876543210", count: columns * 3)]
        for payload in payloads {
            let image = try Self.zint(["-b", "MICROPDF417", "--cols=\(columns)", "--scale=\(scale)",
                                       "--rotate=\(turn)", "-d", payload])
            let reads = MicroPDF417Reader(image: image).read()
            #expect(reads.map(\.candidate.bytes) == [Array(payload.utf8)], "\(columns) columns, scale \(scale), \(turn)°: \(payload)")
        }
    }

    // MARK: - Hostile input

    @Test("tiny, flat and noisy images read as nothing", arguments: [(1, 1), (5, 5), (12, 4), (12, 400), (64, 64), (300, 200)])
    func tiny(size: (Int, Int)) {
        for image in ReaderTesting.flatAndNoisy(width: size.0, height: size.1) {
            #expect(MicroPDF417Reader(image: image).read().isEmpty)
        }
    }

    @Test("the top half of a symbol, or its left RAP alone, reads as nothing")
    func truncated() throws {
        let image = try Self.images.image("c3-numeric")
        for (x, y, w, h) in [(0, 0, image.width, image.height / 2), (0, 0, 30, image.height)] {
            let part = try #require(image.cropped(x: x, y: y, width: w, height: h))
            #expect(MicroPDF417Reader(image: part).read().isEmpty, "\(x),\(y) \(w)×\(h)")
        }
    }
}
