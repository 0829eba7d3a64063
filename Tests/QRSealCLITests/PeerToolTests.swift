import Foundation
import Testing
import TestSupport

/// The real binary against independent implementations: zbarimg, ZXingReader and qrencode.
@Suite("Independent readers and writers")
struct PeerToolTests {
    static let samples: [(String, [UInt8])] = [
        ("digits", Array("0123456789012345678901234567890123456789".utf8)),
        ("alphanumeric", Array("HTTPS://QRSEAL.EXAMPLE/NOTE/42".utf8)),
        ("mixed", Array("Room 101 at 14:00 — bring ID #4471 please".utf8)),
        ("utf8", Array("Привет, 世界! Ça va? 🙂".utf8)),
    ]

    @Test("zbarimg reads exactly what qrseal encode writes", arguments: samples.map(\.0))
    func zbarimgReads(name: String) throws {
        let bytes = Self.samples.first { $0.0 == name }!.1
        let dir = try TempDir()
        let input = try dir.write("in.dat", Data(bytes))
        let png = dir.path("out.png")
        let enc = try Tools.run(Tools.qrseal, ["encode", "-i", input, "-o", png])
        #expect(enc.status == 0, "\(enc.stderr)")
        // Byte for byte with its character-set guessing off, and as text as users run it.
        let binary = try Tools.run("zbarimg", ["--quiet", "--raw", "--nodbus", "-Sbinary", png])
        #expect(binary.status == 0)
        #expect([UInt8](binary.stdout) == bytes)
        let text = try Tools.run("zbarimg", ["--quiet", "--raw", "--nodbus", png])
        #expect([UInt8](text.stdout) == bytes + [0x0A])
    }

    @Test("ZXingReader reads exactly what qrseal encode writes, binary included",
          arguments: samples.map(\.0) + ["binary"])
    func zxingReads(name: String) throws {
        var generator = SystemRandomNumberGenerator()
        let bytes = Self.samples.first { $0.0 == name }?.1
            ?? [0, 0, 0xFF] + (0..<500).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let dir = try TempDir()
        let input = try dir.write("in.dat", Data(bytes))
        let png = dir.path("out.png")
        #expect(try Tools.run(Tools.qrseal, ["encode", "-i", input, "-o", png]).status == 0)
        let r = try Tools.run("ZXingReader", ["-bytes", png])
        #expect([UInt8](r.stdout) == bytes)
    }

    @Test("qrseal scan reads exactly what qrencode writes", arguments: [
        ["-l", "L"], ["-l", "H"], ["-8", "-l", "M"], ["-s", "2", "-m", "1"],
    ])
    func qrencodeWrites(options: [String]) throws {
        let dir = try TempDir()
        let png = dir.path("peer.png")
        let text = "Written by qrencode: 12345 ABCDE ünïcödé"
        let enc = try Tools.run("qrencode", options + ["-o", png, text])
        #expect(enc.status == 0)
        let r = try Tools.run(Tools.qrseal, ["scan", "--raw", png])
        #expect(r.status == 0)
        #expect(r.stdoutText == text + "\n")
    }

    @Test("binary from qrencode -8 comes back byte for byte")
    func qrencodeBinary() throws {
        let dir = try TempDir()
        var generator = SystemRandomNumberGenerator()
        let bytes: [UInt8] = [0, 1, 0] + (0..<400).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let input = try dir.write("in.bin", Data(bytes))
        let png = dir.path("peer.png")
        #expect(try Tools.run("qrencode", ["-8", "-r", input, "-o", png]).status == 0)
        let r = try Tools.run(Tools.qrseal, ["scan", "--raw", png])
        // Binary data, nothing added: the file's bytes exactly.
        #expect([UInt8](r.stdout) == bytes)
    }

    @Test("the terminal rendering, drawn back into pixels, is read by zbarimg; --invert for light terminals",
          arguments: [false, true])
    func terminalIsScannable(invert: Bool) throws {
        let r = try Tools.run(Tools.qrseal, ["encode", "--format", "terminal"] + (invert ? ["--invert"] : [])
                                            + ["seen on a screen"])
        #expect(r.status == 0)
        // Each character is one module wide and two modules tall. Blocks take the terminal's
        // text colour: light on a dark terminal, dark on the light one --invert is for.
        let lines = r.stdoutText.split(separator: "\n").map { Array($0) }
        let grid = (0..<lines.count * 2).map { y in
            lines[y / 2].map { c in
                let block = y % 2 == 0 ? (c == "█" || c == "▀") : (c == "█" || c == "▄")
                return block != invert
            }
        }
        #expect(try zbarimgText(grid) == "seen on a screen\n")
    }

    @Test("ANSI colour output, drawn back from its background colours, is read by zbarimg; --invert swaps them",
          arguments: [false, true])
    func ansiIsScannable(invert: Bool) throws {
        let r = try Tools.run(Tools.qrseal, ["encode", "-t", "ANSI"] + (invert ? ["--invert"] : []) + ["in colour"])
        #expect(r.status == 0)
        // Each line: runs of SGR 40 (black) or 107 (bright white) backgrounds, two spaces a
        // module, then a reset.
        var grid: [[Bool]] = []
        for line in r.stdoutText.split(separator: "\n") {
            var row: [Bool] = []
            #expect(line.hasSuffix("\u{1B}[0m"))
            for piece in line.components(separatedBy: "\u{1B}[").dropFirst() {
                let code = piece.prefix { $0 != "m" }, spaces = piece.dropFirst(code.count + 1)
                #expect(["40", "107", "0"].contains(code) && spaces.allSatisfy { $0 == " " } && spaces.count % 2 == 0)
                row += [Bool](repeating: code == "107", count: spaces.count / 2)
            }
            grid.append(row)
        }
        #expect(grid.first?.first == !invert, "the quiet zone is white, or black when inverted")
        #expect(try zbarimgText(invert ? grid.map { $0.map { !$0 } } : grid) == "in colour\n")
    }

    /// What zbarimg reads from `light` (rows of modules, true for light), four pixels a module.
    private func zbarimgText(_ light: [[Bool]]) throws -> String {
        let width = light[0].count, height = light.count
        var pgm = Data("P5\n\(width * 4) \(height * 4)\n255\n".utf8)
        for row in light {
            #expect(row.count == width)
            let pixels = row.flatMap { [UInt8](repeating: $0 ? 255 : 0, count: 4) }
            for _ in 0..<4 { pgm.append(contentsOf: pixels) }
        }
        let dir = try TempDir()
        let file = try dir.write("screen.pgm", pgm)
        return try Tools.run("zbarimg", ["--quiet", "--raw", "--nodbus", file]).stdoutText
    }
}
