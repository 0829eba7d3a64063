import Foundation
import Testing
import TestSupport
@testable import QRSealKit

/// MaxiCode, read by libZXing 1.4 in the engine: real symbols of zxing-cpp's sample folder
/// (Tests/Images/maxicode) read as what they hold, and only when asked for.
@Suite("MaxiCode")
struct MaxiCodeTests {
    static let folder = Tools.packageRoot.appendingPathComponent("Tests/Images/maxicode")
    static let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
        .filter { $0.hasSuffix(".png") }.map { String($0.dropLast(4)) }.sorted()

    static func sample(_ name: String) throws -> (GrayImage, [UInt8]) {
        let base = folder.appendingPathComponent(name)
        let image = try ImageDecoder().decode([UInt8](try Data(contentsOf: base.appendingPathExtension("png"))))
        if let bin = try? Data(contentsOf: base.appendingPathExtension("bin")) { return (image, [UInt8](bin)) }
        return (image, [UInt8](try Data(contentsOf: base.appendingPathExtension("txt"))))
    }

    @Test("the folder holds the five samples")
    func samples() {
        #expect(Self.names.count == 5)
    }

    @Test("each sample is read at the default effort as a MaxiCode with its payload", arguments: MaxiCodeTests.names)
    func read(name: String) throws {
        let (image, expected) = try Self.sample(name)
        var detector = Detector()
        detector.timeBudget = .cpu(.seconds(600))
        let found = detector.detect(in: image)
        #expect(found.map(\.symbology) == [.maxiCode], "\(name)")
        #expect(found.first?.bytes == expected, "\(name)")
        #expect(found.first?.corners.count == 4)
    }

    @Test("a MaxiCode is not reported when it was not asked for")
    func onlyWhenAsked() throws {
        let (image, _) = try Self.sample("Wikipedia")
        let others = Set(Symbology.allCases).subtracting([.maxiCode])
        #expect(Detector(symbologies: others).detect(in: image).isEmpty)
    }
}
