import Testing
import TestSupport
@testable import QRSealKit

/// EAN-2 and EAN-5 add-ons (Tests/Images/addons): read when asked, the add-on's digits after
/// the main code's, by either engine; the main code alone when not asked; nothing but an
/// add-on of digits accepted after a main code whose check digit holds.
@Suite("EAN add-ons")
struct EANAddOnTests {
    static let samples = ImageSamples("addons")
    static let names = samples.names

    static func detector(addOns: Bool) -> Detector {
        var detector = Detector()
        detector.timeBudget = .cpu(.seconds(600))
        detector.reading.eanAddOns = addOns
        return detector
    }

    @Test("the folder holds EAN-13, UPC-A and EAN-8 with add-ons of both lengths, and a photo")
    func folderContents() {
        #expect(Self.names == ["ean13-ean2", "ean13-ean5", "ean8-ean2", "photo-ean13-ean5", "upca-ean2", "upca-ean5"])
    }

    @Test("asked for, each code is read once, with its add-on", arguments: EANAddOnTests.names)
    func withAddOn(name: String) throws {
        let (image, expected) = try Self.samples.sample(name)
        let found = Self.detector(addOns: true).detect(in: image)
        #expect(found.map(\.bytes) == [expected], "\(name): \(found.map { String(decoding: $0.bytes, as: UTF8.self) })")
    }

    @Test("not asked for, each code is read without its add-on", arguments: EANAddOnTests.names)
    func withoutAddOn(name: String) throws {
        let (image, expected) = try Self.samples.sample(name)
        let found = Self.detector(addOns: false).detect(in: image)
        #expect(found.count == 1, "\(name)")
        let main = try #require(found.first)
        // A UPC-A may come as the EAN-13 it also is, a 0 before it.
        #expect(expected.starts(with: main.bytes) || ([UInt8(ascii: "0")] + expected).starts(with: main.bytes),
                "\(name): \(String(decoding: main.bytes, as: UTF8.self))")
        #expect(EANAddOn.split(main.bytes, of: main.symbology)?.addOn == [])
    }

    @Test("zbar and zxing-cpp each read the add-on when asked", arguments: ["ean13-ean5", "ean8-ean2"])
    func eachEngine(name: String) throws {
        let (image, expected) = try Self.samples.sample(name)
        let kinds: Set<Symbology> = [.ean13, .ean8]
        var zbar = ZBarEngine(symbologies: kinds)
        zbar.eanAddOns = true
        var zxing = ZXingEngine(symbologies: kinds)
        zxing.eanAddOns = true
        for candidates in [zbar.scan(image), zxing.scan(image)] {
            let read = candidates.compactMap {
                SymbolCheck.detection(from: $0, mapping: .identity, inputWidth: image.width, inputHeight: image.height,
                                      wanted: kinds, reading: ReadingOptions(eanAddOns: true))
            }
            #expect(read.map(\.bytes) == [expected], "\(name)")
        }
    }

    @Test("after a main code only an add-on of two or five digits is accepted, and only when the main code checks")
    func payloads() {
        func valid(_ s: Symbology, _ text: String) -> Bool {
            guard let (symbology, bytes) = SymbolCheck.normalized(s, Array(text.utf8), wanted: Set(Symbology.allCases),
                                                                   reading: ReadingOptions(eanAddOns: true)) else { return false }
            return SymbolCheck.payloadIsValid(symbology, bytes)
        }
        #expect(valid(.ean13, "4006381333931 12"))
        #expect(valid(.ean13, "400638133393112"))
        #expect(valid(.ean13, "400638133393151299"))
        #expect(valid(.upca, "03600029145207"))
        #expect(valid(.ean8, "9638507442"))
        for bad in ["4006381333932 12", "4006381333931 1", "4006381333931 123", "4006381333931 1A", "4006381333931  12",
                    "4006381333931 123456", "4006381333931\u{0}12"] {
            #expect(!valid(.ean13, bad), "\(bad)")
        }
        // An add-on is no part of any other symbology.
        #expect(EANAddOn.split(Array("CODE 12".utf8), of: .code128) == nil)
    }

    @Test("an ISBN keeps its add-on (a book's price) after its own digits")
    func isbn() {
        let read = SymbolCheck.normalized(.ean13, Array("9780735200449 51299".utf8), wanted: [.isbn13],
                                          reading: ReadingOptions(eanAddOns: true))
        #expect(read?.0 == .isbn13 && read?.1 == Array("978073520044951299".utf8))
    }

    @Test("a code read without its add-on at the place of a read with it is no conflict: only the fuller read is kept")
    func merging() {
        let box = [Point(x: 10, y: 10), Point(x: 200, y: 10), Point(x: 200, y: 100), Point(x: 10, y: 100)]
        let main = Detection(symbology: .upca, bytes: Array("071831007995".utf8), corners: box)
        let full = Detection(symbology: .ean13, bytes: Array("007183100799519868".utf8), corners: box)
        #expect(Detector.merged([main, full, main]).map(\.bytes) == [full.bytes])
        // Elsewhere in the picture, the main code is a code of its own.
        let far = box.map { Point(x: $0.x + 400, y: $0.y) }
        let other = Detection(symbology: .upca, bytes: Array("071831007995".utf8), corners: far)
        #expect(Detector.merged([other, full]).count == 2)
    }
}
