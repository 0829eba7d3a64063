import Testing
@testable import QRSealKit

/// Version and error-correction level read from the image, for engines that do not say.
@Suite("Detector: QR version and level")
struct QRGeometryTests {
    @Test("the version and level of codes as libqrencode wrote them", arguments: [
        (1, ErrorCorrection.low), (2, .high), (6, .medium), (7, .quartile), (13, .low), (27, .high), (40, .medium),
    ])
    func versions(version: Int, level: ErrorCorrection) throws {
        let matrix = try QREncoder(level: level, minVersion: version).encode(.text("v\(version)"))
        #expect(matrix.version == version)
        let found = try #require(Detector(effort: .fast).detect(in: matrix.image(scale: 3, margin: 4)).first)
        #expect(found.version == version && found.errorCorrection == level)
        // zbar reports neither; the image gives both.
        let image = matrix.image(scale: 3, margin: 4)
        let zbar = try #require(ZBarEngine(symbologies: [.qr]).scan(image).first)
        let geometry = try #require(QRGeometry.read(image, corners: zbar.corners))
        #expect(geometry.version == version && geometry.level == level)
    }

    @Test("a code turned a quarter and read from its own top-left corner gives the same version")
    func turned() throws {
        let matrix = try QREncoder(level: .quartile, minVersion: 9).encode(.text("turned"))
        let image = matrix.image(scale: 4, margin: 4).applying(.right)
        let found = try #require(Detector(effort: .fast).detect(in: image).first)
        #expect(found.version == 9 && found.errorCorrection == .quartile)
    }

    @Test("corners that are not a code's give no version rather than a guess")
    func noGuess() throws {
        let matrix = try QREncoder().encode(.text("somewhere else"))
        let image = matrix.image(scale: 4, margin: 4)
        let wrong = [Point(x: 0, y: 0), Point(x: 50, y: 0), Point(x: 50, y: 50), Point(x: 0, y: 50)]
        #expect(QRGeometry.read(image, corners: wrong) == nil)
        #expect(QRGeometry.read(GrayImage(width: 100, height: 100, filledWith: 128), corners: wrong) == nil)
        #expect(QRGeometry.read(image, corners: []) == nil)
    }

    @Test("the BCH codewords are the standard's")
    func codewords() {
        // ISO/IEC 18004 Annex C and D examples: level M, mask 5; version 7.
        #expect(QRGeometry.formatCodes[0b00101] == 0b100_0000_1100_1110)
        #expect(QRGeometry.versionCodes[7] == 0x07C94)
        #expect(QRGeometry.versionCodes[40] == 0x28C69)
    }
}
