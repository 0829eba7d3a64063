import Foundation
import Testing
import TestSupport
@testable import QRSealCLI
import QRSealKit

/// `qrseal scan --effort` and `--annotate`, in-process.
@Suite("scan: --effort and --annotate")
struct DetectOptionsTests {
    let dir = try! TempDir()
    static let hard = Tools.packageRoot.appendingPathComponent("Tests/Images/hard")

    func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: dir.path(name))))
    }

    /// How many pixels are clearly green, the colour of outlines and labels.
    func greenPixels(_ image: RGBImage) -> Int {
        var count = 0
        for i in 0..<(image.width * image.height) where image.samples[3 * i + 1] > 150 && image.samples[3 * i] < 60 {
            count += 1
        }
        return count
    }

    func code(_ text: String, _ name: String = "code.png") -> String {
        let path = dir.path(name)
        #expect(qrseal(["encode", "-o", path, text]).status == 0)
        return path
    }

    @Test("every effort reads a clean code the same way", arguments: ["fast", "balanced", "thorough", "FAST"])
    func efforts(effort: String) {
        let path = code("same at every effort")
        let r = qrseal(["scan", "--no-store", "--effort", effort, path])
        #expect(r.status == 0)
        #expect(r.out == "\(path): QR-Code: same at every effort\n")
    }

    @Test("an unknown effort is a usage error")
    func badEffort() {
        let r = qrseal(["scan", "--no-store", "--effort", "maximum", "a.png"])
        #expect(r.status == 64)
        #expect(r.stderr.contains("--effort must be fast, balanced or thorough, not 'maximum'"))
    }

    @Test("fast leaves a light-on-dark code unread that the default effort reads")
    func fastVersusDefault() {
        let path = Self.hard.appendingPathComponent("inverted.png").path
        #expect(qrseal(["scan", "--no-store", "--effort", "fast", path]).status == 1)
        let r = qrseal(["scan", "--no-store", path])
        #expect(r.status == 0)
        #expect(r.out == "\(path): QR-Code: inverted: light modules on black\n")
    }

    @Test("JSON carries the error-correction level the engine read")
    func ecLevel() {
        let path = dir.path("h.png")
        #expect(qrseal(["encode", "--ec", "H", "-o", path, "level H"]).status == 0)
        let r = qrseal(["scan", "--no-store", "--json", path])
        #expect(r.status == 0)
        #expect(r.out.contains("\"ec_level\":\"H\""), "\(r.out)")
    }

    @Test("JSON marks a QR Code Model 1 symbol with model 1 and its Model 1 version; a Model 2 code has no model field")
    func model1() {
        let path = Tools.packageRoot.appendingPathComponent("Tests/Images/model1/version2-M.png").path
        let r = qrseal(["scan", "--no-store", "--json", path])
        #expect(r.status == 0)
        #expect(r.out.contains("\"text\":\"QR Code Model 1 \""), "\(r.out)")
        #expect(r.out.contains("\"version\":2,\"model\":1,\"ec_level\":\"M\""), "\(r.out)")
        #expect(qrseal(["scan", "--no-store", path]).out == "\(path): QR-Code: QR Code Model 1 \n")
        let model2 = qrseal(["scan", "--no-store", "--json", code("a Model 2 code")])
        #expect(model2.status == 0)
        #expect(!model2.out.contains("model"), "\(model2.out)")
    }

    @Test("--annotate writes a colour copy of the image, the same size, with the code outlined")
    func annotate() throws {
        let path = code("outline me")
        let out = dir.path("annotated.png")
        let r = qrseal(["scan", "--no-store", "--annotate", out, path])
        #expect(r.status == 0)
        #expect(r.out == "\(path): QR-Code: outline me\n")
        let input = try ImageDecoder().decode(bytes("code.png"))
        let copy = try ImageDecoder().decodeColor(bytes("annotated.png"))
        #expect(copy.width == input.width && copy.height == input.height)
        #expect(greenPixels(copy) > 4 * input.width, "outline and label are drawn in green")
        // The outline runs along the code's left edge, 4 modules of 8 pixels in.
        let edge = (28...36).filter { x in copy[x, 72].green > 150 && copy[x, 72].red < 60 }
        #expect(!edge.isEmpty)
        // Nothing is left behind but the two files.
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.url.path).sorted() == ["annotated.png", "code.png"])
    }

    @Test("--annotate reads standard input too, and writes the copy when nothing is found")
    func annotateStdinAndEmpty() throws {
        let path = code("from stdin")
        let out = dir.path("stdin.png")
        let r = qrseal(["scan", "--no-store", "--annotate", out, "-"], stdin: try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(r.status == 0)
        #expect(FileManager.default.fileExists(atPath: out))
        let blank = try dir.write("blank.pgm", Data("P5\n40 30\n255\n".utf8) + Data(repeating: 255, count: 1200))
        let none = dir.path("none.png")
        #expect(qrseal(["scan", "--no-store", "--annotate", none, blank]).status == 1)
        let copy = try ImageDecoder().decodeColor(bytes("none.png"))
        #expect(copy.width == 40 && copy.height == 30 && copy.samples.allSatisfy { $0 == 255 })
    }

    @Test("--annotate refuses more or fewer than one image", arguments: [0, 2])
    func annotateCount(images: Int) {
        let paths = (0..<images).map { code("image \($0)", "i\($0).png") }
        let out = dir.path("never.png")
        let r = qrseal(["scan", "--no-store", "--annotate", out] + paths)
        #expect(r.status == 64)
        // With none, the scan itself has nothing to read, which is said first.
        let message = images == 0 ? "no image to scan" : "--annotate takes exactly one image, not \(images)"
        #expect(r.stderr.contains(message), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
        #expect(qrseal(["scan", "--no-store", "--annotate", "-", code("x", "x.png")]).status == 64)
    }

    @Test("a copy that cannot be written is an error after the results are printed, and leaves nothing")
    func annotateUnwritable() {
        let path = code("still printed")
        let out = dir.path("missing-folder/annotated.png")
        let r = qrseal(["scan", "--no-store", "--annotate", out, path])
        #expect(r.status == 2)
        #expect(r.out == "\(path): QR-Code: still printed\n")
        #expect(r.stderr.hasPrefix("qrseal: error: \(out): cannot write"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.path("missing-folder")))
    }

    @Test("labels are short, one line, and say what a symbol holds")
    func labels() throws {
        let corners = [Point(x: 0, y: 0), Point(x: 1, y: 0), Point(x: 1, y: 1), Point(x: 0, y: 1)]
        let long = Intake(reader: Reader(), keeping: .nothing).take([Detection(symbology: .qr, bytes: Array("line one\nline two, and much more".utf8),
                                               corners: corners)], from: .file("a.png"))[0]
        #expect(DetectOptions.label(1, long) == "1 QR-Code: line one line two, and ~")
        let binary = Intake(reader: Reader(), keeping: .nothing).take([Detection(symbology: .qr, bytes: [0, 1, 2], corners: corners)], from: .file("a.png"))[0]
        #expect(DetectOptions.label(2, binary) == "2 QR-Code: 3 bytes")
    }
}
