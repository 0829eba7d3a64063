import Foundation
import Testing
import TestSupport

/// `encode --format pdf` and `--format gif` through the command line: a sheet that prints and
/// scans back, and an animated image, each written under the output rule.
@Suite("encode: PDF sheets and animated GIFs")
struct EncodeSheetTests {
    let dir = try! TempDir()

    func pdfinfo(_ path: String) throws -> String { try Tools.run("pdfinfo", [path]).stdoutText }

    @Test("a sheet of many codes shows its progress on a terminal, clears it, and writes nothing extra elsewhere")
    func progress() throws {
        var rng = SystemRandomNumberGenerator()
        let input = try dir.write("data.bin", Data((0..<6000).map { _ in UInt8.random(in: 0...255, using: &rng) }))
        let shown = qrseal(["encode", "--max-version", "10", "-i", input, "-o", dir.path("a.pdf")], errorTerminal: true)
        #expect(shown.status == 0, "\(shown.stderr)")
        let parts = try #require(shown.stderr.firstMatch(of: /split into (\d+) parts/).flatMap { Int($0.1) }, "\(shown.stderr)")
        #expect(shown.stderr.hasPrefix("\rqrseal: drawing the sheet: 1 of \(parts) codes"), "\(shown.stderr.debugDescription)")
        #expect(shown.stderr.contains("\rqrseal: drawing the sheet: \(parts) of \(parts) codes\u{1B}[K\r\u{1B}[K"),
                "\(shown.stderr.debugDescription)")
        // Not on a terminal: the one line it always writes, nothing more.
        let quiet = qrseal(["encode", "--max-version", "10", "-i", input, "-o", dir.path("b.pdf")])
        #expect(quiet.status == 0 && !quiet.stderr.contains("\r") && !quiet.stderr.contains("drawing"), "\(quiet.stderr)")
        // Part files show it too.
        let png = qrseal(["encode", "--max-version", "10", "-i", input, "-o", dir.path("p.png")], errorTerminal: true)
        #expect(png.stderr.contains("\rqrseal: drawing \(parts) of \(parts) codes"), "\(png.stderr.debugDescription)")
    }

    @Test("a file's sheet names it, gives its size and SHA-256, and its code scans back from 300 dpi")
    func fileSheet() throws {
        let input = try dir.write("notes é.txt", Data("the harbour at dawn\n".utf8))
        let pdf = dir.path("notes.pdf")
        let r = qrseal(["encode", "-i", input, "-o", pdf])
        #expect(r.status == 0 && r.stderr.isEmpty, "\(r.stderr)")
        let info = try pdfinfo(pdf)
        #expect(info.contains("Title:           notes é.txt") && info.contains("Pages:           1"), "\(info)")
        #expect(info.contains("(A4)"))
        let text = try Tools.run("pdftotext", [pdf, "-"]).stdoutText
        let digest = try Tools.run("sha256sum", [input]).stdoutText.prefix(8)
        #expect(text.contains("notes é.txt") && text.contains("20 bytes · SHA-256 \(digest.prefix(4)) \(digest.suffix(4))"),
                "\(text)")
        #expect(text.contains("to restore, scan the code: qrseal scan page.png"))
        #expect(!text.contains("sealed"), "a plain sheet does not say it is sealed")
        #expect(try Tools.run("pdftoppm", ["-r", "300", "-png", pdf, dir.path("page")]).status == 0)
        let scanned = qrseal(["scan", "--raw", "--no-store", dir.path("page-1.png")])
        #expect(scanned.out == "the harbour at dawn\n\n", "\(scanned.out.debugDescription)")
        #expect(try Tools.run("zbarimg", ["--quiet", "--raw", dir.path("page-1.png")]).stdoutText == "the harbour at dawn\n\n")
    }

    @Test("--paper letter makes Letter pages; --paper and --per-page are for pdf only")
    func paper() throws {
        let pdf = dir.path("l.pdf")
        #expect(qrseal(["encode", "--paper", "Letter", "-o", pdf, "hi"]).status == 0)
        #expect(try pdfinfo(pdf).contains("612 x 792 pts (letter)"))
        let bad = qrseal(["encode", "--paper", "a5", "-o", dir.path("x.pdf"), "hi"])
        #expect(bad.status == 64 && bad.stderr.contains("--paper must be a4 or letter, not 'a5'"), "\(bad.stderr)")
        let invert = qrseal(["encode", "--invert", "-o", dir.path("x.pdf"), "hi"])
        #expect(invert.status == 64 && invert.stderr.contains("--invert does not apply to pdf output"))
        let png = qrseal(["encode", "--per-page", "4", "-o", dir.path("x.png"), "hi"])
        #expect(png.status == 64 && png.stderr.contains("--per-page applies to pdf output, not png"))
        for (option, value) in [("per-page", "0"), ("per-page", "4097"), ("per-page", "two"), ("loop", "-1")] {
            let r = qrseal(["encode", "--\(option)", value, "-o", dir.path("x.pdf"), "hi"])
            #expect(r.status == 64 && r.stderr.contains("--\(option) must be a whole number"), "\(value): \(r.stderr)")
        }
        let dense = qrseal(["encode", "--per-page", "400", "-o", dir.path("x.pdf"), "hi"])
        #expect(dense.status == 2 && dense.stderr.contains("400 codes of version 1 do not fit a A4 page"), "\(dense.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.url.path) == ["l.pdf"])
    }

    @Test("an existing sheet is not replaced without --force, and a PDF or GIF is not written to a terminal")
    func outputRule() throws {
        let pdf = try dir.write("old.pdf", Data("precious".utf8))
        let r = qrseal(["encode", "-o", pdf, "new"])
        #expect(r.status == 2 && r.stderr.contains("old.pdf: file exists"))
        #expect(try String(contentsOfFile: pdf, encoding: .utf8) == "precious")
        #expect(qrseal(["encode", "--force", "-o", pdf, "new"]).status == 0)
        #expect(try pdfinfo(pdf).contains("Pages:           1"))
        for format in ["pdf", "gif"] {
            let t = qrseal(["encode", "--format", format, "hi"], terminal: true)
            #expect(t.status == 64 && t.stderr.contains("will not write a \(format.uppercased())"), "\(t.stderr)")
            #expect(t.stdout.isEmpty)
        }
    }

    @Test("-o NAME.gif writes an animated image at --fps; it scans; --fps outside 0.1 to 50 or not a number is refused")
    func gif() throws {
        let gif = dir.path("a.GIF")
        #expect(qrseal(["encode", "--fps", "2", "-s", "4", "-o", gif, "frame"]).status == 0)
        #expect(try Tools.run("identify", ["-format", "%T %k\n", gif]).stdoutText == "50 2\n")
        #expect(try Tools.run("convert", [gif + "[0]", dir.path("f.png")]).status == 0)
        #expect(qrseal(["scan", "--raw", "--no-store", dir.path("f.png")]).out == "frame\n")
        for fps in ["0", "0.05", "51", "abc", "nan", "1e1", "-5", ""] {
            let r = qrseal(["encode", "--fps", fps, "-o", dir.path("b.gif"), "x"])
            #expect(r.status == 64 && r.stderr.contains("--fps must be a number of frames per second from 0.1 to 50"),
                    "\(fps): \(r.stderr)")
        }
        let png = qrseal(["encode", "--fps", "5", "-o", dir.path("b.png"), "x"])
        #expect(png.status == 64 && png.stderr.contains("--fps applies to --animate and gif output"))
        #expect(!FileManager.default.fileExists(atPath: dir.path("b.gif")))
    }
}

@Suite("encode: a sealed file's sheet")
struct SealedSheetTests {
    @Test("a file sealed with a passphrase prints, scans back from 300 dpi and is written under its own name")
    func sealedFile() throws {
        let dir = try TempDir()
        let secret = Data((0..<700).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) })
        let input = try dir.write("key backup.bin", secret)
        let pass = try dir.write("pass.txt", Data("correct horse battery staple\n".utf8))
        let pdf = dir.path("backup.pdf")
        let r = qrseal(["encode", "--passphrase-file", pass, "-i", input, "-o", pdf])
        #expect(r.status == 0, "\(r.stderr)")
        let text = try Tools.run("pdftotext", [pdf, "-"]).stdoutText
        #expect(text.contains("key backup.bin") && text.contains("700 bytes"), "\(text)")
        #expect(text.contains("one code · QR version") && text.contains("sealed: opening it needs the passphrase"))
        #expect(try Tools.run("pdftoppm", ["-r", "300", "-gray", "-png", pdf, dir.path("page")]).status == 0)
        let out = dir.path("out")
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: false)
        let scan = qrseal(["scan", "--no-store", "--passphrase-file", pass, "-o", out, dir.path("page-1.png")])
        #expect(scan.status == 0, "\(scan.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: out + "/key backup.bin")) == secret)
    }
}
