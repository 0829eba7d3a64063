import Foundation
import Testing
import TestSupport
import QRSealKit

/// `qrseal scan` on every kind of file people have (BMP, GIF, TIFF, WebP, PDF, SVG beside
/// PNG, JPEG and PNM), from a file and from standard input; each page or frame named; every
/// input accounted for, the ones without a code too; nothing of zbar's own on the terminal.
@Suite("scan: every file people have, every input accounted for")
struct ScanFileFormatTests {
    let dir = try! TempDir()

    /// A PNG of a QR code holding `text`, made by qrseal itself.
    func png(_ name: String, _ text: String) throws -> String {
        let path = dir.path(name)
        let r = qrseal(["encode", "--force", "-o", path, text])
        #expect(r.status == 0, "\(r.stderr)")
        return path
    }

    /// The file of each format holding "format test": convert's from qrseal's PNG, and
    /// qrseal's own SVG, PDF sheet and GIF.
    func files() throws -> [String] {
        let source = try png("source.png", "format test")
        var paths: [String] = []
        for (name, options) in [("code.bmp", ["-type", "palette"]), ("code.tiff", ["-compress", "LZW"]),
                                ("code.webp", ["-quality", "90"]), ("converted.gif", [])] {
            try runTool("convert", [source] + options + [dir.path(name)])
            paths.append(dir.path(name))
        }
        for name in ["code.svg", "code.pdf", "code.gif"] {
            let r = qrseal(["encode", "--force", "-o", dir.path(name), "format test"])
            #expect(r.status == 0, "\(r.stderr)")
            paths.append(dir.path(name))
        }
        return paths
    }

    @Test("BMP, TIFF, WebP, GIF, SVG and a PDF sheet are read from a file and from standard input")
    func everyFormat() throws {
        for path in try files() {
            let file = qrseal(["scan", "--no-store", path])
            #expect(file.status == 0 && file.out == "\(path): QR-Code: format test\n", "\(path): \(file.stderr)")
            let piped = qrseal(["scan", "--no-store", "-"], stdin: try Data(contentsOf: URL(fileURLWithPath: path)))
            #expect(piped.status == 0 && piped.out == "-: QR-Code: format test\n", "\(path) on stdin: \(piped.stderr)")
        }
    }

    @Test("each page of a file of several is named in human and JSON output alike")
    func pagesNamed() throws {
        let one = try png("one.png", "first page"), two = try png("two.png", "second page")
        let tiff = dir.path("two.tiff")
        try runTool("convert", [one, two, tiff])
        let human = qrseal(["scan", "--no-store", tiff])
        #expect(human.status == 0)
        #expect(human.out == "\(tiff) (page 1): QR-Code: first page\n\(tiff) (page 2): QR-Code: second page\n", "\(human.out)")
        let json = qrseal(["scan", "--no-store", "--json", tiff])
        let sources = json.out.split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
        }.compactMap { $0["source"] as? String }
        #expect(sources == ["\(tiff) (page 1)", "\(tiff) (page 2)"])
    }

    @Test("a file with no code says so on standard error, and the status is 1 only when no file held one")
    func nothingFound() throws {
        let blank = dir.path("blank.png")
        try runTool("convert", ["-size", "120x90", "xc:white", blank])
        let good = try png("good.png", "still here")
        let both = qrseal(["scan", "--no-store", blank, good])
        #expect(both.status == 0)
        #expect(both.out == "\(good): QR-Code: still here\n")
        #expect(both.stderr == "qrseal: \(blank): no code found\n", "\(both.stderr)")
        let alone = qrseal(["scan", "--no-store", "--raw", blank])
        #expect(alone.status == 1 && alone.out.isEmpty && alone.stderr == "qrseal: \(blank): no code found\n")
    }

    @Test("under --json a file with no code is an event among the codes, in order")
    func nothingFoundJSON() throws {
        let blank = dir.path("blank.png")
        try runTool("convert", ["-size", "120x90", "xc:white", blank])
        let good = try png("good.png", "still here")
        let r = qrseal(["scan", "--no-store", "--json", good, blank])
        #expect(r.status == 0 && r.stderr.isEmpty, "\(r.stderr)")
        let lines = r.out.split(separator: "\n").map(String.init)
        #expect(lines.count == 2 && lines[0].contains("\"text\":\"still here\""), "\(r.out)")
        #expect(lines.last == #"{"event":"nothing_found","source":"\#(blank)"}"#, "\(r.out)")
    }

    @Test("the name of a file with no code is escaped like any other")
    func nothingFoundEscaped() throws {
        let name = dir.path("blank\u{1B}[31m\n.png")
        try runTool("convert", ["-size", "120x90", "xc:white", "png:" + name])
        let r = qrseal(["scan", "--no-store", name])
        #expect(r.status == 1)
        #expect(!r.stderr.contains("\u{1B}") && r.stderr.hasSuffix(": no code found\n") && r.stderr.filter { $0 == "\n" }.count == 1,
                "\(r.stderr)")
        #expect(r.stderr == "qrseal: " + DisplayText.escape("\(name): no code found") + "\n")
    }

    @Test("zbar's own assertion messages never reach the terminal (the real binary, on a page that makes zbar print one)")
    func zbarStaysQuiet() throws {
        let page = Tools.packageRoot.appendingPathComponent("Tests/Images/zbar-chatter/sheet-page-300dpi.png").path
        // zbarimg shows what zbar prints on this page.
        let peer = try Tools.run("zbarimg", ["-q", page])
        #expect(peer.stderr.contains("Assertion"), "the page no longer makes zbar print: \(peer.stderr)")
        let r = try Tools.run(Tools.qrseal, ["scan", "--no-store", "--raw", page])
        #expect(r.status == 0)
        #expect(!r.stderr.contains("WARNING") && !r.stderr.contains("Assertion"), "\(r.stderr)")
        #expect(r.stderr.split(separator: "\n").allSatisfy { $0.hasPrefix("qrseal: ") }, "\(r.stderr)")
    }
}

/// Runs a peer tool, failing the test's call unless it exits 0.
private func runTool(_ tool: String, _ arguments: [String]) throws {
    let result = try Tools.run(tool, arguments)
    guard result.status == 0 else { throw PeerFailed(message: "\(tool): \(result.stderr)") }
}

private struct PeerFailed: Error {
    let message: String
}
