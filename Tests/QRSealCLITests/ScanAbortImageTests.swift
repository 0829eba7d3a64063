import Foundation
import QRSealKit
import Testing
import TestSupport

/// `scan` over the images on which libZXing 1.4 aborts (Tests/Images/abort), together with
/// an ordinary code in the same call: nothing dies, and every file of the call is read.
@Suite("scan: images that abort libZXing 1.4")
struct ScanAbortImageTests {
    let dir = try! TempDir()
    static let folder = Tools.packageRoot.appendingPathComponent("Tests/Images/abort")

    /// The abort images, each followed by an ordinary QR code, and every payload expected in that order.
    func inputs() throws -> (paths: [String], expected: [String]) {
        let normal = try dir.write("after.png", Data(try PNGEncoder.encode(
            try QREncoder().encode(.text("read after the others")).image(scale: 4, margin: 4))))
        var paths: [String] = [], expected: [String] = []
        for name in ["large-code128", "twice-code128", "tilted-databar", "tilted-databar-exp"] {
            paths.append(Self.folder.appendingPathComponent(name + ".png").path)
            let text = try String(contentsOf: Self.folder.appendingPathComponent(name + ".txt"), encoding: .utf8)
            expected += text.split(separator: "\n").map(String.init)
        }
        return (paths + [normal], expected + ["read after the others"])
    }

    @Test("the real binary reads them and the ordinary code after them, at every effort", arguments: Effort.allCases)
    func binary(effort: Effort) throws {
        let (paths, expected) = try inputs()
        let r = try Tools.run(Tools.qrseal, ["scan", "--no-store", "--raw", "--effort", effort.rawValue] + paths)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdoutText.split(separator: "\n").map(String.init) == expected, "\(r.stderr)")
    }

    @Test("in-process, the same")
    func inProcess() throws {
        let (paths, expected) = try inputs()
        let r = qrseal(["scan", "--no-store", "--raw"] + paths)
        #expect(r.status == 0 && r.out.split(separator: "\n").map(String.init) == expected, "\(r.stderr)")
    }
}
