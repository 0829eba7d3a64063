import Foundation
import Testing
import TestSupport
@testable import QRSealKit

/// The images of Tests/Images/symbologies (see make-symbology-images.sh): every symbology
/// but QR, each read at the default effort as what it is, and several codes of one kind in
/// one image all reported.
@Suite("Detector: every symbology")
struct SymbologyImageTests {
    static let folder = Tools.packageRoot.appendingPathComponent("Tests/Images/symbologies")

    static let all: [String] = {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return files.filter { $0.hasSuffix(".png") }.map { String($0.dropLast(4)) }.sorted()
    }()
    /// The images of one code each; `KIND-several` holds several of one kind.
    static let names = all.filter { !$0.hasSuffix("-several") }
    static let several = all.filter { $0.hasSuffix("-several") }

    /// The symbology an image is named for: the longest name it starts with.
    static func kind(_ name: String) -> Symbology? {
        Symbology.allCases.filter { name.hasPrefix($0.rawValue) }.max { $0.rawValue.count < $1.rawValue.count }
    }

    /// The image and the payloads its .txt file lists, one per line.
    static func sample(_ name: String) throws -> (GrayImage, [[UInt8]]) {
        let url = folder.appendingPathComponent(name + ".png")
        let image = try ImageDecoder().decode([UInt8](try Data(contentsOf: url)))
        let text = try Data(contentsOf: folder.appendingPathComponent(name + ".txt"))
        return (image, text.split(separator: UInt8(ascii: "\n")).map { Array($0) })
    }

    static func detector() -> Detector {
        var detector = Detector()
        detector.timeBudget = .cpu(.seconds(600))
        return detector
    }

    @Test("there is an image of every symbology but QR, and ISBNs, which are EAN-13s")
    func everySymbology() {
        let drawn = Set(Self.names.compactMap(Self.kind))
        #expect(drawn == Set(Symbology.allCases).subtracting([.qr, .isbn10, .isbn13]))
    }

    @Test("each is read at the default effort, as its kind, with its payload", arguments: SymbologyImageTests.names)
    func read(name: String) throws {
        let (image, expected) = try Self.sample(name)
        let found = Self.detector().detect(in: image)
        #expect(found.map(\.bytes) == expected, "\(name): \(found.map { String(decoding: $0.bytes, as: UTF8.self) })")
        #expect(found.allSatisfy { $0.symbology == Self.kind(name) }, "\(name): \(found.map(\.symbology))")
    }

    @Test("three codes of a kind side by side or one above the other: both engines report all three",
          arguments: SymbologyImageTests.several)
    func severalOfOneKind(name: String) throws {
        let (image, expected) = try Self.sample(name)
        let kinds: Set<Symbology> = [try #require(Self.kind(name))]
        for scan in [{ ZXingEngine(symbologies: kinds).scan($0) }, { ZBarEngine(symbologies: kinds).scan($0) }]
            as [(GrayImage) -> [Candidate]] {
            #expect(Set(scan(image).map(\.bytes)) == Set(expected), "\(name)")
        }
    }

    @Test("painting out a code read does not hide the code just above it: zxing-cpp's quick search, which scans the middle rows, reads both there")
    func neighboursStayVisible() throws {
        let (image, expected) = try Self.sample("ean13-several")
        var zxing = ZXingEngine(symbologies: [.ean13])
        zxing.tryHarder = false
        zxing.tryRotate = false
        #expect(Set(zxing.scan(image).map(\.bytes)) == Set(expected.prefix(2)))
    }

    @Test("zbar and zxing-cpp give a GS1 DataBar the same element string, so neither read is dropped as a conflict",
          arguments: ["databar", "databar-exp", "databar-exp-variable"])
    func gs1Agrees(name: String) throws {
        let (image, expected) = try Self.sample(name)
        let wanted: Set<Symbology> = [.databar, .databarExpanded]
        for candidates in [ZXingEngine(symbologies: wanted).scan(image), ZBarEngine(symbologies: wanted).scan(image)] {
            let checked = candidates.compactMap {
                SymbolCheck.detection(from: $0, mapping: .identity, inputWidth: image.width,
                                      inputHeight: image.height, wanted: wanted)
            }
            #expect(checked.map(\.bytes) == expected, "\(name)")
        }
    }

    @Test("the bracketed GS1 form becomes the element string; anything else is refused")
    func elementString() {
        func plain(_ s: String) -> String? { GS1.elementString(bracketed: Array(s.utf8)).map { String(decoding: $0, as: UTF8.self) } }
        #expect(plain("(01)98898765432106(3202)012345(15)991231") == "0198898765432106320201234515991231")
        #expect(plain("(10)ABC(21)12") == "10ABC\u{1D}2112")
        #expect(plain("(21)12") == "2112")
        for bad in ["", "()12", "(1)12", "(01", "(01)", "(0A)12", "01(10)1", "(12345)1"] {
            #expect(plain(bad) == nil, "\(bad)")
        }
    }

    @Test("a DataBar payload must be AI 01 and a GTIN-14 with its check digit")
    func databarPayload() {
        #expect(SymbolCheck.payloadIsValid(.databar, Array("0109501101530003".utf8)))
        #expect(!SymbolCheck.payloadIsValid(.databar, Array("0109501101530004".utf8)))
        #expect(!SymbolCheck.payloadIsValid(.databar, Array("1109501101530003".utf8)))
        #expect(SymbolCheck.normalized(.databar, Array("09501101530003".utf8), wanted: [.databar])?.1
                == Array("0109501101530003".utf8))
    }
}
