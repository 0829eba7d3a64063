import Foundation
import Testing
import TestSupport
@testable import QRSealKit

@Suite("Detector")
struct DetectorTests {
    let matrix = try! QREncoder().encode(.text("where are you"))

    @Test("a GS1 DataBar zbar finds in a dense QR code's modules is no read of its own, at any effort",
          arguments: [Effort.balanced, .thorough])
    func noBarcodeInsideAQRCode(_ effort: Effort) throws {
        let folder = Tools.packageRoot.appendingPathComponent("Tests/Images/ghost")
        let image = try ImageDecoder().decode([UInt8](try Data(contentsOf: folder.appendingPathComponent("qr-databar-ghost.png"))))
        let payload = [UInt8](try Data(contentsOf: folder.appendingPathComponent("qr-databar-ghost.bin")))
        // zbar alone reads the ghost, its checksum holding.
        #expect(ZBarEngine(symbologies: [.databar]).scan(image).contains { $0.symbology == .databar })
        var detector = Detector(effort: effort)
        detector.timeBudget = .cpu(.seconds(600))
        let found = detector.detect(in: image)
        #expect(found.map(\.symbology) == [.qr], "\(found.map { String(decoding: $0.bytes, as: UTF8.self) })")
        #expect(found.first?.bytes == payload)
    }

    @Test("corners are the symbol's corners in image pixels, clockwise from top-left")
    func corners() throws {
        let scale = 5, margin = 4
        let found = Detector().detect(in: matrix.image(scale: scale, margin: margin))
        let corners = try #require(found.first?.corners)
        let lo = Double(margin * scale), hi = Double((margin + matrix.size) * scale)
        let expected = [(lo, lo), (hi, lo), (hi, hi), (lo, hi)]
        #expect(corners.count == 4)
        for (c, e) in zip(corners, expected) {
            #expect(abs(c.x - e.0) <= Double(scale) && abs(c.y - e.1) <= Double(scale), "\(c) vs \(e)")
        }
    }

    @Test("a light-on-dark (inverted) code is read")
    func inverted() {
        var image = matrix.image(scale: 4, margin: 4)
        image.pixels = image.pixels.map { 255 - $0 }
        #expect(Detector().detect(in: image).map(\.text) == ["where are you"])
    }

    @Test("several codes in one image are each reported once, in reading order")
    func several() {
        let texts = ["first", "second", "third"]
        let images = texts.map { try! QREncoder().encode(.text($0)).image(scale: 4, margin: 4) }
        let w = images.map(\.width).reduce(0, +), h = images.map(\.height).max()!
        var page = GrayImage(width: w, height: h, filledWith: 255)
        var x0 = 0
        for img in images {
            for y in 0..<img.height { for x in 0..<img.width { page[x0 + x, y] = img[x, y] } }
            x0 += img.width
        }
        #expect(Detector().detect(in: page).map(\.text) == texts)
    }

    @Test("a blank image yields nothing")
    func blank() {
        #expect(Detector().detect(in: GrayImage(width: 300, height: 200, filledWith: 255)).isEmpty)
    }

    @Test("an EAN-13 is read, a book's number too, as an EAN-13 but where an ISBN is asked for, and --symbology restricts the set")
    func linear() {
        let ean = EAN13.image("4006381333931")
        #expect(Detector().detect(in: ean).map { "\($0.symbology):\($0.text ?? "")" } == ["ean13:4006381333931"])
        let isbn = EAN13.image("9780306406157")
        #expect(Detector().detect(in: isbn).map(\.symbology) == [.ean13])
        #expect(Detector(symbologies: [.ean13]).detect(in: isbn).map(\.symbology) == [.ean13])
        #expect(Detector(symbologies: [.isbn13]).detect(in: isbn).map(\.symbology) == [.isbn13])
        #expect(Detector(symbologies: [.qr]).detect(in: ean).isEmpty)
    }
}

/// EAN-13 barcodes drawn by TestSupport, decoded into rasters.
enum EAN13 {
    static func image(_ digits: String) -> GrayImage {
        try! ImageDecoder().decode([UInt8](Barcodes.ean13PGM(digits)!))
    }
}
