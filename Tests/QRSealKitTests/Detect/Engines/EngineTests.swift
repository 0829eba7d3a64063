import CEngine
import Foundation
import Testing
import TestSupport
@testable import QRSealKit

/// Both engines' results go through `SymbolCheck`, the one path to a `Detection`; the
/// zxing-cpp shim survives whatever image it is given.
@Suite("Detector: engines")
struct EngineTests {
    func check(_ candidate: Candidate, wanted: Set<Symbology> = Symbology.defaultSet) -> Detection? {
        SymbolCheck.detection(from: candidate, mapping: .identity, inputWidth: 200, inputHeight: 200, wanted: wanted)
    }

    let square = [Point(x: 10, y: 10), Point(x: 90, y: 10), Point(x: 90, y: 90), Point(x: 10, y: 90)]

    @Test("a binary payload read by zxing-cpp comes back byte-exact, with no text, like zbar's")
    func binary() throws {
        // A NUL after a Latin-1 letter: zxing-cpp's own reading is "ÿ\0…", which must
        // not pass for text (nor be cut short at the NUL and then pass).
        var bytes: [UInt8] = [0xFF, 0, 1, 2, 0xFE, 0, 0x80]
        var generator = SystemRandomNumberGenerator()
        bytes += (0..<200).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let image = try QREncoder().encode(.binary(bytes)).image(scale: 4, margin: 4)
        let zxing = ZXingEngine(symbologies: [.qr]).scan(image)
        let zbar = ZBarEngine(symbologies: [.qr]).scan(image)
        #expect(zxing.map(\.bytes) == [bytes] && zbar.map(\.bytes) == [bytes])
        let fromZXing = try #require(zxing.first.flatMap { check($0) })
        let fromZBar = try #require(zbar.first.flatMap { check($0) })
        #expect(fromZXing.text == nil && fromZBar.text == nil)
        #expect(fromZXing.bytes == fromZBar.bytes)
        #expect(fromZXing.errorCorrection == .medium)
    }

    @Test("both engines read the same text and corners from a clean code")
    func agree() throws {
        let image = try QREncoder().encode(.text("Grüße, 東京")).image(scale: 5, margin: 4)
        let a = try #require(ZXingEngine(symbologies: [.qr]).scan(image).first.flatMap { check($0) })
        let b = try #require(ZBarEngine(symbologies: [.qr]).scan(image).first.flatMap { check($0) })
        #expect(a.text == "Grüße, 東京" && b.text == a.text)
        for (p, q) in zip(a.corners, b.corners) { #expect(abs(p.x - q.x) <= 6 && abs(p.y - q.y) <= 6) }
    }

    @Test("an EAN-13 with a wrong check digit, from any engine, is refused")
    func checkDigits() {
        #expect(check(Candidate(symbology: .ean13, bytes: Array("4006381333931".utf8), corners: square)) != nil)
        #expect(check(Candidate(symbology: .ean13, bytes: Array("4006381333932".utf8), corners: square)) == nil)
        #expect(check(Candidate(symbology: .upca, bytes: Array("03600029145X".utf8), corners: square)) == nil)
        #expect(check(Candidate(symbology: .isbn10, bytes: Array("030640615X".utf8), corners: square), wanted: [.isbn10]) == nil)
        #expect(check(Candidate(symbology: .isbn10, bytes: Array("0306406152".utf8), corners: square), wanted: [.isbn10]) != nil)
    }

    @Test("an EAN-13 in the ISBN range is named as zbar names it, whichever engine read it")
    func isbn() {
        let isbn = Candidate(symbology: .ean13, bytes: Array("9780306406157".utf8), corners: square)
        #expect(check(isbn)?.symbology == .ean13)
        #expect(check(isbn, wanted: Symbology.defaultSet.union([.isbn13]))?.symbology == .isbn13)
        let ten = check(isbn, wanted: [.isbn10])
        #expect(ten?.symbology == .isbn10 && ten?.text == "0306406152")
        #expect(check(isbn, wanted: [.ean13])?.symbology == .ean13)
        #expect(check(isbn, wanted: [.qr]) == nil)
    }

    @Test("zxing-cpp reads the EAN-13s, ISBNs and UPC-As zbar reads, with the same bytes and name")
    func linear() throws {
        for code in ["4006381333931", "9780306406157", "0036000291452"] {
            let image = EAN13.image(code)
            let a = ZXingEngine(symbologies: Symbology.defaultSet).scan(image).compactMap { check($0) }
            let b = ZBarEngine(symbologies: Symbology.defaultSet).scan(image).compactMap { check($0) }
            #expect(a.map(\.symbology) == b.map(\.symbology) && a.map(\.bytes) == b.map(\.bytes),
                    "\(code): zxing \(a.map(\.symbology)) \(a.map(\.text)), zbar \(b.map(\.symbology)) \(b.map(\.text))")
            #expect(Detector().detect(in: image).count == 1)
        }
    }

    @Test("corners that are not four, not finite or far off the image are refused")
    func corners() {
        let text = Array("x".utf8)
        #expect(check(Candidate(symbology: .qr, bytes: text, corners: Array(square.prefix(3)))) == nil)
        #expect(check(Candidate(symbology: .qr, bytes: text, corners: [Point(x: .nan, y: 0)] + square.dropFirst())) == nil)
        #expect(check(Candidate(symbology: .qr, bytes: text, corners: square.map { Point(x: $0.x + 5000, y: $0.y) })) == nil)
    }

    @Test("text the symbol declares by ECI or a Hanzi segment is taken from the engine; guesses are ours")
    func declaredText() {
        // GB 2312 for 阿, behind two control bytes: not text by our guesses.
        let bytes: [UInt8] = [0x01, 0x10, 0x41, 0xB0, 0xA2]
        #expect(TextDecoding.text(from: bytes) == nil)
        #expect(TextDecoding.text(from: bytes, engineReading: "\u{1}\u{10}A阿", declared: false) == "\u{1}\u{10}A阿")
        // zxing-cpp's own guess (here Latin-1) is not taken over ours.
        let latin: [UInt8] = [0x01, 0xE9]
        #expect(TextDecoding.text(from: latin, engineReading: "\u{1}é", declared: false) == nil)
        #expect(TextDecoding.text(from: latin, engineReading: "\u{1}é", declared: true) == "\u{1}é")
        // A reading with NUL or replacement characters is never taken.
        #expect(TextDecoding.text(from: [0, 0x41], engineReading: "\u{0}A", declared: true) == nil)
    }

    @Test("hostile images do not crash either engine", arguments: [
        (0, 0), (1, 1), (1, 5000), (5000, 1), (2, 2), (3, 7),
    ])
    func hostile(width: Int, height: Int) {
        for fill: UInt8 in [0, 255] {
            let image = GrayImage(width: width, height: height, filledWith: fill)
            #expect(ZXingEngine(symbologies: Symbology.defaultSet).scan(image).isEmpty)
            #expect(ZBarEngine(symbologies: Symbology.defaultSet).scan(image).isEmpty)
            #expect(Detector(effort: .thorough).detect(in: image).isEmpty)
        }
    }

    @Test("noise and a large legal image give nothing and do not crash")
    func noiseAndSize() {
        var generator = SystemRandomNumberGenerator()
        let noise = GrayImage(width: 300, height: 200,
                              pixels: (0..<60_000).map { _ in UInt8.random(in: 0...255, using: &generator) })
        #expect(Detector(effort: .fast).detect(in: noise).allSatisfy { $0.symbology.isStronglyChecked })
        // 36 megapixels of one colour: within the default limit of 100.
        let large = GrayImage(width: 6000, height: 6000, filledWith: 255)
        #expect(ZXingEngine(symbologies: [.qr]).scan(large).isEmpty)
        #expect(Detector(effort: .fast).detect(in: large).isEmpty)
    }

    @Test("the engine refuses bad arguments with an error code instead of reading memory")
    func shimArguments() {
        var options = zxs_options(formats: UInt32(ZXS_FORMAT_QRCODE), try_harder: 1, try_rotate: 1,
                                  try_downscale: 1, binarizer: 0, max_symbols: 0, ean_add_ons: 0)
        let pixels = [UInt8](repeating: 255, count: 100)
        Engine.pool.withEngine { engine in
            var none = zxs_results()
            #expect(qe_read_zxing(engine, nil, 10, 10, 10, &options, 0, 1000, &none) == QE_DONE)
            #expect(none.count == 0 && none.error == Int32(ZXS_ERROR_BAD_ARGUMENT))
            qe_free_results(&none)
            var short = zxs_results()
            let outcome = pixels.withUnsafeBufferPointer { qe_read_zxing(engine, $0.baseAddress, 10, 10, 5, &options, 0, 1000, &short) }
            #expect(outcome == QE_DONE && short.count == 0 && short.error == Int32(ZXS_ERROR_BAD_ARGUMENT))
            qe_free_results(&short)
            qe_free_results(nil)
        }
    }
}
