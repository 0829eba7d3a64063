import Foundation
import Testing
import TestSupport

@Suite("encode: inputs, outputs and limits")
struct EncodeTests {
    let dir = try! TempDir()

    @Test("more than one code holds: split into parts, one file each, with a hint when a lower level would fit")
    func tooLargeSplits() throws {
        let input = try dir.write("big.bin", Data((0..<2332).map { _ in UInt8.random(in: 0...255) }))
        let r = qrseal(["encode", "-i", input, "-o", dir.path("big.png")])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("qrseal: split into 3 parts (2 needed), version"), "\(r.stderr)")
        #expect(r.stderr.contains("qrseal: hint: it fits one code with --ec L"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.url.path).sorted()
                == ["big-01-of-03.png", "big-02-of-03.png", "big-03-of-03.png", "big.bin"])
    }

    @Test("an existing output is kept whole when encoding fails")
    func keepsExisting() throws {
        let out = try dir.write("keep.png", Data("precious".utf8))
        let r = qrseal(["encode", "--ec", "H", "-o", out], stdin: Data(repeating: 0x80, count: 1300))
        #expect(r.status == 2)
        #expect(try Data(contentsOf: URL(fileURLWithPath: out)) == Data("precious".utf8))
    }

    @Test("an output in a missing folder is a clear error")
    func badOutput() {
        let r = qrseal(["encode", "-o", dir.path("no/such/dir/x.png"), "hello"])
        #expect(r.status == 2)
        #expect(r.stderr.contains("no/such/dir/x.png: cannot write: no such file or directory"), "\(r.stderr)")
    }

    @Test("a missing input file is named")
    func missingInput() {
        let r = qrseal(["encode", "-i", dir.path("absent.txt"), "-o", dir.path("x.png")])
        #expect(r.status == 2)
        #expect(r.stderr.contains("absent.txt: no such file or directory"))
    }

    @Test("empty input is refused")
    func empty() {
        let r = qrseal(["encode", "-o", dir.path("x.png")], stdin: Data())
        #expect(r.status == 2)
        #expect(r.stderr.contains("nothing to encode: the input is empty"))
    }

    @Test("piped text is encoded exactly, trailing newline included; the format follows -o")
    func formats() throws {
        let svg = dir.path("note.svg")
        #expect(qrseal(["encode", "-o", svg], stdin: Data("line one\nline two\n".utf8)).status == 0)
        #expect(try String(contentsOfFile: svg, encoding: .utf8).hasPrefix("<?xml"))
        let png = dir.path("note.png")
        #expect(qrseal(["encode", "-o", png, "-"], stdin: Data("line one\nline two\n".utf8)).status == 0)
        #expect(qrseal(["scan", "--raw", png]).out == "line one\nline two\n\n")
        let toStdout = qrseal(["encode", "-o", "-", "x"])
        #expect(toStdout.stdout.starts(with: [0x89, 0x50, 0x4E, 0x47]))
    }

    @Test("--ec, --min-version, --scale and --margin shape the PNG")
    func options() throws {
        let png = dir.path("o.png")
        #expect(qrseal(["encode", "--ec", "h", "--min-version", "5", "--scale", "2", "--margin", "1",
                        "-o", png, "hi"]).status == 0)
        // Version 5 is 37 modules; with one module of margin each side and 2 px per module.
        let info = try Tools.run("identify", ["-format", "%w %h", png])
        #expect(info.stdoutText == "78 78")
        #expect(qrseal(["scan", "--raw", png]).out == "hi\n")
    }
}
