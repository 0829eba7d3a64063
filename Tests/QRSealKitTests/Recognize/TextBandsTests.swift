import Foundation
import Testing
import TestSupport
@testable import QRSealKit

/// One page read on two threads (`TextRecognizer.recognize(_:helper:)`): its rectangle of
/// lines cut in two between its middle lines (`TextRegions.bands`), each half read by its
/// own recognizer, and the same lines given back, in the same order, in the same blocks.
@Suite("Recognize: a page read in two halves side by side")
struct TextBandsTests {
    let pages = TextPreparationTests()

    /// `lines` rows of `perLine` letter boxes, 10 × 14 pixels, rows `pitch` pixels apart.
    func letters(lines: Int, perLine: Int, pitch: Int = 30) -> [Region] {
        (0..<lines).flatMap { row in (0..<perLine).map { Region(x: 20 + $0 * 12, y: 20 + row * pitch, width: 10, height: 14) } }
    }

    /// A recognizer lent as `TextRecognizer.recognize(_:helper:)` asks for one, and
    /// whether it was asked.
    final class Lender: @unchecked Sendable {
        let recognizer: TextRecognizer
        private let lock = NSLock()
        private var lent = 0
        init(_ recognizer: TextRecognizer) { self.recognizer = recognizer }
        var helper: TextHelper {
            { [self] read in
                lock.lock(); lent += 1; lock.unlock()
                read(recognizer)
            }
        }
        var times: Int { lock.lock(); defer { lock.unlock() }; return lent }
    }

    @Test("six lines are cut between the third and the fourth, no letter in both halves")
    func cutInTheMiddle() throws {
        let boxes = letters(lines: 6, perLine: 30)
        let region = Region(x: 0, y: 0, width: 400, height: 200)
        let bands = TextRegions.bands(of: region, letters: boxes)
        try #require(bands.count == 2)
        let cut = bands[1].y
        // Third line ends at 20 + 60 + 14 = 94, fourth starts at 110.
        #expect(cut > 94 && cut < 110, "\(bands)")
        #expect(bands[0].y == 0 && bands[0].height == cut && bands[1].y + bands[1].height == 200)
        #expect(boxes.allSatisfy { $0.y + $0.height <= cut || $0.y >= cut })
    }

    @Test("one line, or too few letters for either half, stays whole")
    func leftWhole() {
        let region = Region(x: 0, y: 0, width: 2000, height: 200)
        #expect(TextRegions.bands(of: region, letters: letters(lines: 1, perLine: 150)) == [region])
        #expect(TextRegions.bands(of: region, letters: letters(lines: 4, perLine: 20)) == [region])
        // Lines of 25, 25, 15 and 60 letters: the cut nearest the middle (below the second)
        // leaves 50 above it; the one below the third is taken.
        let lopsided = zip([20, 50, 80, 110], [25, 25, 15, 60]).flatMap { y, count in
            (0..<count).map { Region(x: 20 + $0 * 12, y: y, width: 10, height: 14) }
        }
        #expect(TextRegions.bands(of: region, letters: lopsided).map(\.height) == [102, 98])
    }

    @Test("a turned page's lines are grouped once it is level, one rectangle below another",
          arguments: [-5.0, 3.0])
    func turnedPageGrouped(_ degrees: Double) throws {
        let page = try pages.image("shadow").turned(by: degrees)
        let prepared = try TextPreparation(page, maxPixels: TextRecognizer.defaultMaxPixels)
        #expect(prepared.angle != 0)
        let groups = try #require(prepared.groups)
        #expect(TextRegions.isStacked(groups), "\(groups)")
    }

    @Test("with a helper, a page reads the same lines in the same blocks as alone, and the helper is asked",
          arguments: ["skewed", "shadow", "kinds"])
    func sameWithHelper(_ name: String) throws {
        // Two copies of the page one above the other: enough lines for two halves.
        let page = try pages.image(name)
        var tall = GrayImage(width: page.width, height: 2 * page.height, filledWith: 255)
        for y in 0..<page.height {
            for x in 0..<page.width {
                tall[x, y] = page[x, y]
                tall[x, y + page.height] = page[x, y]
            }
        }
        let prepared = try TextRecognizer.prepare(tall)
        #expect(prepared.pieces(layout: .automatic) >= 2)
        let alone = try TextRecognizer(layout: .automatic).recognize(prepared)
        let lender = Lender(try TextRecognizer(layout: .automatic))
        let shared = try TextRecognizer(layout: .automatic).recognize(prepared, helper: lender.helper)
        let expected = try pages.lines(name)
        #expect(alone.flatMap(\.lines).map(\.text) == expected + expected)
        #expect(shared.flatMap(\.lines).map(\.text) == alone.flatMap(\.lines).map(\.text))
        #expect(shared.map { $0.lines.count } == alone.map { $0.lines.count })
        #expect(lender.times == 1)
    }

    @Test("a single rectangle of one or two lines is one piece, and no helper is asked")
    func onePiece() throws {
        let page = try pages.image("small")
        let prepared = try TextRecognizer.prepare(page)
        #expect(prepared.pieces(layout: .automatic) == 1)
        let lender = Lender(try TextRecognizer())
        let read = try TextRecognizer().recognize(prepared, helper: lender.helper)
        #expect(read.flatMap(\.lines).map(\.text) == (try pages.lines("small")))
        #expect(lender.times == 0)
    }
}
