import Foundation
import Testing
import TestSupport

/// The conventions qrencode users bring: short options, formats by extension, --invert, --dpi.
@Suite("encode: formats, short options, --invert and --dpi")
struct EncodeFormatTests {
    let dir = try! TempDir()

    @Test("-l, -v, -s, -m and -t work as --ec, --min-version, --scale, --margin and --format")
    func shortOptions() throws {
        let png = dir.path("short")
        #expect(qrseal(["encode", "-l", "h", "-v", "5", "-s", "2", "-m", "1", "-t", "png", "-o", png, "hi"]).status == 0)
        #expect(try Tools.run("identify", ["-format", "%w %h", png]).stdoutText == "78 78")
        #expect(qrseal(["scan", "--raw", "--no-store", png]).out == "hi\n")
    }

    @Test("an extension that is not ours is refused, naming the format, and nothing is written",
          arguments: [("code.jpg", "JPEG"), ("code.JPEG", "JPEG"), ("code.tiff", "TIFF"), ("code.webp", "WEBP")])
    func unknownExtension(name: String, format: String) throws {
        let r = qrseal(["encode", "-o", dir.path(name), "hi"])
        #expect(r.status == 64)
        #expect(r.stderr.contains("\(name): cannot write \(format): use .png, .svg, .txt, .ans, .pdf or .gif, or --format"), "\(r.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.url.path).isEmpty)
    }

    @Test("the extension picks the format, in any case; --format, in any case, overrides it")
    func formatByExtension() throws {
        let cases: [([String], String, (Data) -> Bool)] = [
            (["-o", dir.path("a.SVG")], "a.SVG", { $0.starts(with: Data("<?xml".utf8)) }),
            (["-o", dir.path("a.txt")], "a.txt", { String(decoding: $0, as: UTF8.self).contains("█") }),
            (["-o", dir.path("a.ans")], "a.ans", { $0.starts(with: Data("\u{1B}[107m".utf8)) }),
            (["-o", dir.path("plain")], "plain", { $0.starts(with: [0x89, 0x50, 0x4E, 0x47]) }),
            (["--format", "PNG", "-o", dir.path("b.jpg")], "b.jpg", { $0.starts(with: [0x89, 0x50, 0x4E, 0x47]) }),
            (["-t", "Svg", "-o", dir.path("b.txt")], "b.txt", { $0.starts(with: Data("<?xml".utf8)) }),
        ]
        for (arguments, name, check) in cases {
            let r = qrseal(["encode"] + arguments + ["hi"])
            #expect(r.status == 0, "\(arguments): \(r.stderr)")
            #expect(check(try Data(contentsOf: dir.url.appendingPathComponent(name))), "\(name)")
        }
        let bad = qrseal(["encode", "--format", "jpeg", "-o", dir.path("c.png"), "hi"])
        #expect(bad.status == 64 && bad.stderr.contains("--format must be png, svg, terminal, ansi, pdf or gif, not 'jpeg'"))
    }

    @Test("--dpi is written as a pHYs chunk in pixels per metre, and ImageMagick reads it back")
    func dpi() throws {
        let png = dir.path("print.png")
        #expect(qrseal(["encode", "--dpi", "300", "-o", png, "printed"]).status == 0)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: png)))
        let chunk = try #require(Self.chunk("pHYs", in: bytes))
        // 300 / 0.0254 = 11811.02 pixels per metre on both axes; unit 1 is the metre.
        #expect(chunk == ImageBytes.bigEndian32(11811) + ImageBytes.bigEndian32(11811) + [1])
        let density = try Tools.run("identify", ["-units", "PixelsPerInch", "-format", "%x %y", png])
        #expect(density.stdoutText == "300 300")
        #expect(qrseal(["scan", "--raw", "--no-store", png]).out == "printed\n")
        // Without --dpi there is no such chunk.
        #expect(qrseal(["encode", "-o", dir.path("plain.png"), "printed"]).status == 0)
        #expect(Self.chunk("pHYs", in: [UInt8](try Data(contentsOf: dir.url.appendingPathComponent("plain.png")))) == nil)
    }

    @Test("--dpi is refused for other formats and outside 1 to 100000")
    func dpiUsage() {
        let svg = qrseal(["encode", "--dpi", "300", "-o", dir.path("x.svg"), "hi"])
        #expect(svg.status == 64 && svg.stderr.contains("--dpi applies to png output, not svg"))
        let zero = qrseal(["encode", "--dpi", "0", "-o", dir.path("x.png"), "hi"])
        #expect(zero.status == 64 && zero.stderr.contains("--dpi must be a whole number from 1 to 100000"))
    }

    @Test("--invert draws a light code on a dark ground in PNG and SVG, and it still scans")
    func invertImages() throws {
        let png = dir.path("inv.png")
        #expect(qrseal(["encode", "--invert", "-o", png, "night mode"]).status == 0)
        // The quiet zone's corner is black (0), the code's top-left finder corner white (1).
        let corner = try Tools.run("convert", [png, "-format", "%[fx:p{0,0}] %[fx:p{32,32}]", "info:"]).stdoutText
        #expect(corner == "0 1", "\(corner)")
        #expect(qrseal(["scan", "--raw", "--no-store", png]).out == "night mode\n")
        let svg = dir.path("inv.svg")
        #expect(qrseal(["encode", "--invert", "-o", svg, "night mode"]).status == 0)
        let text = try String(contentsOfFile: svg, encoding: .utf8)
        #expect(text.contains("fill=\"#000\"/>") && text.contains("<path fill=\"#fff\""))
    }

    /// The data of the first chunk of `type` in a PNG, or nil.
    static func chunk(_ type: String, in png: [UInt8]) -> [UInt8]? {
        var offset = 8
        while offset + 8 <= png.count {
            let length = png[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            let name = String(decoding: png[offset + 4..<offset + 8], as: UTF8.self)
            guard offset + 12 + length <= png.count else { return nil }
            if name == type { return Array(png[offset + 8..<offset + 8 + length]) }
            offset += 12 + length
        }
        return nil
    }
}

@Suite("capacity: short options")
struct CapacityShortOptionTests {
    @Test("capacity takes -l for --ec, as encode does")
    func level() {
        let short = qrseal(["capacity", "-l", "h"]), long = qrseal(["capacity", "--ec", "H"])
        #expect(short.status == 0 && short.out == long.out)
        #expect(short.out.contains("error correction H"))
    }
}
