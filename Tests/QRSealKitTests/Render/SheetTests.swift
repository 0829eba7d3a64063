import Foundation
import Testing
import TestSupport
@testable import QRSealKit

/// Printed sheets as a person checks them: poppler (pdfinfo, pdftotext, pdftoppm at 300 dpi)
/// reads the PDF, and zbarimg reads every code back from the pages.
@Suite("Render: PDF sheets")
struct SheetTests {
    let dir = try! TempDir()

    @Test("codes over several pages all scan back at 300 dpi, each with its label, and every page says where it is")
    func severalPages() throws {
        let (message, payloads) = RenderFixtures.message(9, version: 25)
        let sheet = try Sheet(message, paper: .a4, name: "backup.tar")
        #expect(sheet.pageCount >= 2 && sheet.perPage < 9, "\(sheet.perPage) per page")
        #expect(sheet.moduleMillimetres >= Sheet.minimumModuleMillimetres)
        let pdf = try dir.write("sheet.pdf", Data(try sheet.pdf()))
        let info = try RenderFixtures.pdfinfo(pdf)
        #expect(info["Pages"] == "\(sheet.pageCount)")
        #expect(info["Page size"]?.hasSuffix("(A4)") == true, "\(info)")
        #expect(info["Title"] == "backup.tar" && info["Creator"] == "qrseal")
        let text = try Tools.run("pdftotext", ["-layout", pdf, "-"]).stdoutText
        for i in 1...9 { #expect(text.contains("K7F2 · part \(i) of 9"), "label \(i)") }
        for p in 1...sheet.pageCount { #expect(text.contains("page \(p) of \(sheet.pageCount)")) }
        #expect(text.contains("9 codes, any 6 restore it"))
        #expect(text.contains("any 6 of 9 codes suffice"))
        let digest = Sheet.grouped(message.sha256)
        #expect(digest.count == 79 && text.contains(digest), "\(digest)")
        #expect(try Tools.run("pdftoppm", ["-r", "300", "-gray", "-png", pdf, dir.path("page")]).status == 0)
        let pages = (1...sheet.pageCount).map { dir.path("page-\($0).png") }
        #expect(try RenderFixtures.zbar(pages).sorted() == payloads.sorted())
    }

    @Test("the grid follows the version: four codes of version 40 to an A4 page, many small ones, each at 0.5 mm or more")
    func gridByVersion() throws {
        let big = try Sheet(RenderFixtures.message(12, version: 40).0)
        #expect(big.columns == 2 && big.rows == 2 && big.perPage == 4 && big.pageCount == 3)
        let small = try Sheet(RenderFixtures.message(80, version: 2).0)
        #expect(small.perPage >= 20 && small.pageCount == (80 + small.perPage - 1) / small.perPage, "\(small.perPage)")
        for sheet in [big, small] { #expect(sheet.moduleMillimetres >= 0.5) }
        // A narrower quiet zone (encode --margin) leaves room for more: 9 codes of version 25 instead of 6.
        let (v25, _) = RenderFixtures.message(9, version: 25)
        #expect(try Sheet(v25).perPage == 6 && Sheet(v25, quietZone: 1).perPage == 9)
        // One code gets a page of its own, printed larger, but no larger than the cap.
        let one = try Sheet(RenderFixtures.message(1, version: 5).0)
        #expect(one.perPage == 1 && one.columns == 1 && one.moduleMillimetres == Sheet.maximumModuleMillimetres)
    }

    @Test("four codes of version 40, the densest page, scan back at 300 dpi with zbarimg and qrseal's reader",
          arguments: [Paper.a4, .letter])
    func densestPage(paper: Paper) throws {
        let (message, payloads) = RenderFixtures.message(4, version: 40)
        let sheet = try Sheet(message, paper: paper)
        #expect(sheet.perPage == 4 && sheet.pageCount == 1)
        let pdf = try dir.write("\(paper).pdf", Data(try sheet.pdf()))
        #expect(try Tools.run("pdftoppm", ["-r", "300", "-gray", "-png", pdf, dir.path("\(paper)")]).status == 0)
        let page = dir.path("\(paper)-1.png")
        #expect(try RenderFixtures.zbar([page]).sorted() == payloads.sorted())
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: page)))
        let read = try Reader().detections(imageBytes: bytes).map { String(decoding: $0.bytes, as: UTF8.self) }
        #expect(read.sorted() == payloads.sorted())
    }

    @Test("--per-page sets the count; more than fit at 0.5 mm a module is refused with the count that does")
    func perPage() throws {
        let (message, _) = RenderFixtures.message(7, version: 10)
        let two = try Sheet(message, perPage: 2)
        #expect(two.perPage == 2 && two.pageCount == 4 && two.moduleMillimetres > 0.5)
        #expect(throws: RenderError.tooDense(perPage: 50, fits: 4, version: 40, paper: .a4)) {
            try Sheet(RenderFixtures.message(1, version: 40).0, perPage: 50)
        }
        let error = RenderError.tooDense(perPage: 50, fits: 4, version: 40, paper: .a4)
        #expect(error.description == "50 codes of version 40 do not fit a A4 page with modules of at least 0.5 mm; at most 4 do")
    }

    @Test("Letter pages are 612 x 792 points, A4 595 x 842")
    func paperSizes() throws {
        let (message, _) = RenderFixtures.message(2)
        for (paper, size) in [(Paper.letter, "612 x 792 pts (letter)"), (.a4, "595.276 x 841.89 pts (A4)")] {
            let pdf = try dir.write("\(paper).pdf", Data(try Sheet(message, paper: paper).pdf()))
            #expect(try RenderFixtures.pdfinfo(pdf)["Page size"] == size)
        }
    }

    @Test("a non-ASCII file name prints as itself; control characters in a name or label print escaped",
          arguments: [("résumé Ωmega.txt", "résumé Ωmega.txt"),
                      ("\u{1B}[31mred\nline\u{202E}txt.exe", "\\x1b[31mred\\nline\\u{202e}txt.exe")])
    func names(name: String, shown: String) throws {
        let (plain, _) = RenderFixtures.message(2)
        let symbols = plain.symbols.map { EncodedSymbol(matrix: $0.matrix, label: name) }
        let message = EncodedMessage(symbols: symbols, dataParts: 2, totalBytes: 5, sha256: plain.sha256, id: "K7F2")
        let pdf = try dir.write("n.pdf", Data(try Sheet(message, name: name).pdf()))
        let text = try Tools.run("pdftotext", [pdf, "-"]).stdoutText
        #expect(text.contains(shown), "\(text)")
        #expect(!text.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{202E}" })
        #expect(try RenderFixtures.pdfinfo(pdf)["Title"] == shown)
    }

    @Test("a name too long for the line is shortened in the middle, keeping its start and extension")
    func longName() throws {
        let name = "start-" + String(repeating: "long", count: 60) + "-end.tar"
        let pdf = try dir.write("l.pdf", Data(try Sheet(RenderFixtures.message(1).0, name: name).pdf()))
        let first = try Tools.run("pdftotext", [pdf, "-"]).stdoutText.split(separator: "\n").first ?? ""
        #expect(first.hasPrefix("start-long") && first.hasSuffix("-end.tar") && first.contains("…"), "\(first)")
    }

    @Test("no codes, or more than a sheet holds, are refused before anything is drawn")
    func bounds() throws {
        let empty = EncodedMessage(symbols: [], dataParts: 0, totalBytes: 0, sha256: [], id: nil)
        #expect(throws: RenderError.noSymbols) { try Sheet(empty) }
        let one = RenderFixtures.message(1).0.symbols[0]
        let huge = EncodedMessage(symbols: Array(repeating: one, count: Sheet.maximumSymbols + 1), dataParts: 1,
                                  totalBytes: 1, sha256: [], id: "X")
        #expect(throws: RenderError.tooManySymbols(count: Sheet.maximumSymbols + 1, limit: Sheet.maximumSymbols)) {
            try Sheet(huge)
        }
    }
}
