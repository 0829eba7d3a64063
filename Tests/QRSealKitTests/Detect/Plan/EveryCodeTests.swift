import Foundation
import Testing
import TestSupport
@testable import QRSealKit

/// Every code a picture holds is read at the default effort, whatever kind the first pass
/// read (issue 28): pictures of several kinds drawn by zint (`MixedSheets`), clean and
/// photographed.
@Suite("Detector: every code of a picture, at the default effort")
struct EveryCodeTests {
    /// What the default detector reports, as (symbology, text) pairs.
    static func read(_ image: GrayImage, effort: Effort = .balanced) -> [String] {
        Detector(effort: effort).detect(in: image).map { "\($0.symbology): \(String(decoding: $0.bytes, as: UTF8.self))" }
    }

    static func expected(_ codes: [MixedSheets.Code]) -> [String] {
        codes.map { "\($0.symbology): \($0.expected)" }
    }

    @Test("an EAN-13, a Code 39 and an I2/5 on a clean page: all three, as zbarimg reads them")
    func threeLinear() throws {
        let page = try MixedSheets.picture(MixedSheets.threeLinear, columns: 1, scale: 2, width: 1100, height: 900)
        #expect(Self.read(page).sorted() == Self.expected(MixedSheets.threeLinear).sorted())
    }

    @Test("a clean sheet of twelve kinds: all twelve")
    func twelveKinds() throws {
        let sheet = try MixedSheets.picture(MixedSheets.twelveKinds, columns: 3)
        #expect(Self.read(sheet).sorted() == Self.expected(MixedSheets.twelveKinds).sorted())
    }

    @Test("the sheet of twelve kinds photographed (tilted, blurred, noisy, JPEG): all twelve")
    func twelveKindsPhotographed() throws {
        let sheet = try MixedSheets.picture(MixedSheets.twelveKinds, columns: 3, scale: 2,
                                            photo: MixedSheets.Photo(tilt: 30, blur: 0.8, noise: 0.3, quality: 80))
        #expect(Self.read(sheet).sorted() == Self.expected(MixedSheets.twelveKinds).sorted())
    }

    @Test("three QR codes photographed on a board: all three")
    func threeQRPhotographed() throws {
        let photo = try MixedSheets.picture(MixedSheets.threeQR, columns: 3, width: 1400, height: 700,
                                            photo: MixedSheets.Photo(tilt: 60, blur: 1.2, noise: 0.5, quality: 70))
        #expect(Self.read(photo).sorted() == Self.expected(MixedSheets.threeQR).sorted())
    }

    @Test("one code alone, once read by the quick search, sends the plain searches nowhere")
    func singleCodeStops() throws {
        for code in [MixedSheets.twelveKinds[0], MixedSheets.twelveKinds[4]] {
            let image = try MixedSheets.picture([code], columns: 1, scale: 2)
            let stages = PlanGateTests.Stages()
            var detector = Detector()
            detector.profile = { name, _, _ in stages.add(name) }
            #expect(detector.detect(in: image).map(\.symbology) == [code.symbology])
            let stagesRun = stages.all
            #expect(!stagesRun.contains { $0.hasPrefix("zbar []") }, "\(code.symbology): \(stagesRun)")
        }
    }
}
