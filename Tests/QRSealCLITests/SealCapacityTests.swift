import Foundation
import Testing
import TestSupport

/// The bars, through the real binary: a full version-40-L sealed symbol is read back
/// exactly by qrseal, and as text by zbarimg and ZXingReader, whose text `open` turns back
/// into the plaintext.
@Suite("Sealed capacity, read by independent readers")
struct SealCapacityTests {
    let dir = try! TempDir()
    let passphrase = Tools.environment(["QRSEAL_PASSPHRASE": "full symbol test"])

    func roundTrip(input: String, armor: String) throws -> String {
        let png = dir.path("full-\(armor).png")
        let enc = try Tools.run(Tools.qrseal, ["encode", "--ec", "L", "--armor", armor, "--scale", "3",
                                               "-i", input, "-o", png], environment: passphrase)
        #expect(enc.status == 0, "\(enc.stderr)")
        return png
    }

    @Test("the first 9,000 characters of the GPL fit one sealed symbol and come back through phone-style text")
    func prose() throws {
        let gpl = try String(contentsOfFile: "/usr/share/common-licenses/GPL-3", encoding: .utf8)
        let text = String(gpl.prefix(9000))
        let input = try dir.write("gpl.txt", Data(text.utf8))
        let png = try roundTrip(input: input, armor: "digits")
        let outDir = dir.path("out")
        try FileManager.default.createDirectory(atPath: outDir, withIntermediateDirectories: true)
        let scan = try Tools.run(Tools.qrseal, ["scan", "--json", "-o", outDir, png], environment: passphrase)
        #expect(scan.status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: outDir + "/gpl.txt")) == Data(text.utf8))
        for reader in [["zbarimg", "--quiet", "--raw", "--nodbus", png], ["ZXingReader", png]] {
            var shown = try Tools.run(reader[0], Array(reader.dropFirst())).stdoutText
            if reader[0] == "ZXingReader" {
                // ZXingReader prints `Text:       "…"` among other lines.
                shown = shown.split(separator: "\n").first { $0.hasPrefix("Text:") }
                    .map { String($0.drop { $0 != "\"" }.dropFirst().dropLast()) } ?? ""
            }
            #expect(shown.hasPrefix("QRSEAL1:"), "\(reader[0]) read: \(shown.prefix(40))")
            let opened = try Tools.run(Tools.qrseal, ["open", "-o", dir.path("back-\(reader[0]).txt"), "-"],
                                       input: Data(shown.utf8), environment: passphrase)
            #expect(opened.status == 0, "\(opened.stderr)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: dir.path("back-\(reader[0]).txt"))) == Data(text.utf8))
        }
    }

    @Test("random content at the bar fits one symbol: 2,840 bytes in digits, 2,880 in binary",
          arguments: [("digits", 2840), ("binary", 2880)])
    func random(armor: String, size: Int) throws {
        var generator = SystemRandomNumberGenerator()
        let bytes = Data((0..<size).map { _ in UInt8.random(in: 0...255, using: &generator) })
        let input = try dir.write("r", bytes)
        let png = try roundTrip(input: input, armor: armor)
        let outDir = dir.path("o-\(armor)")
        try FileManager.default.createDirectory(atPath: outDir, withIntermediateDirectories: true)
        let scan = try Tools.run(Tools.qrseal, ["scan", "-o", outDir, png], environment: passphrase)
        #expect(scan.status == 0, "\(scan.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: outDir + "/r")) == bytes)
    }

    @Test("capacity --seal reports the bars for version 40 at L")
    func capacityTable() throws {
        for (armor, bar) in [("digits", 2840), ("binary", 2880)] {
            let r = qrseal(["capacity", "--seal", "--ec", "L", "--armor", armor])
            let last = try #require(r.out.split(separator: "\n").last)
            let cells = last.split(separator: " ").compactMap { Int($0) }
            #expect(cells.first == 40)
            #expect(cells[2] >= bar, "\(armor): \(last)")
        }
    }
}
