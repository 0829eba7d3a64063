import Foundation
import QRSealKit
import Testing
import TestSupport

/// `scan --symbology` over the images of Tests/Images/symbologies: every kind by name, in
/// any case, and GS1 element strings as they are printed and written.
@Suite("scan: symbologies")
struct ScanSymbologyTests {
    static func image(_ name: String) -> String {
        Tools.packageRoot.appendingPathComponent("Tests/Images/symbologies/\(name).png").path
    }

    @Test("--help names every symbology")
    func help() {
        let r = qrseal(["scan", "--help"])
        for s in Symbology.allCases { #expect(r.out.contains(s.rawValue), "\(s.rawValue)") }
    }

    @Test("only the kinds named are read, whatever their case")
    func onlyNamed() {
        let r = qrseal(["scan", "--no-store", "--raw", "--symbology", "DataMatrix,AZTEC,microQR",
                        Self.image("datamatrix"), Self.image("aztec"), Self.image("code128"), Self.image("microqr")])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.out == "Data Matrix read\nAztec read by qrseal\nMICRO 42\n")
        let none = qrseal(["scan", "--no-store", "--symbology", "qr", Self.image("pdf417")])
        #expect(none.status == 1 && none.out.isEmpty)
    }

    @Test("each kind is printed by its name")
    func printedNames() {
        let r = qrseal(["scan", "--no-store", Self.image("pdf417"), Self.image("databar"), Self.image("codabar")])
        #expect(r.out.split(separator: "\n").map { $0.split(separator: " ").dropFirst().first.map(String.init) }
                == ["PDF417:", "DataBar:", "Codabar:"], "\(r.out)")
    }

    @Test("a GS1 DataBar Expanded: its element string, the GS after a variable-length field escaped on a terminal and exact in JSON")
    func gs1() throws {
        let path = Self.image("databar-exp-variable")
        let human = qrseal(["scan", "--no-store", path])
        #expect(human.out == "\(path): DataBar-Exp: 10ABC123\\x1d2112345\n")
        let json = qrseal(["scan", "--no-store", "--json", path])
        let object = try #require(try JSONSerialization.jsonObject(with: json.stdout) as? [String: Any])
        #expect(object["text"] as? String == "10ABC123\u{1D}2112345")
        #expect(object["symbology"] as? String == "databar-exp")
    }

    @Test("a Code 39 in Full ASCII prints as the text it stands for; --code39-raw prints its characters as they stand")
    func code39FullASCII() throws {
        let path = Self.image("code39-fullascii")
        #expect(qrseal(["scan", "--no-store", path]).out == "\(path): Code-39: Extended !?*#\n")
        #expect(qrseal(["scan", "--no-store", "--raw", "--code39-raw", path]).out == "E+X+T+E+N+D+E+D /A%J/J/C\n")
        // A check character stays at the end, as zxing-cpp and zbar report it.
        #expect(qrseal(["scan", "--no-store", "--raw", Self.image("code39-check")]).out == "ABC123$\n")
    }

    @Test("a MaxiCode is printed as MaxiCode, named maxicode in JSON, and left out when not asked for")
    func maxiCode() throws {
        let path = Self.image("maxicode")
        #expect(qrseal(["scan", "--no-store", path]).out == "\(path): MaxiCode: MaxiCode read by qrseal\n")
        let json = qrseal(["scan", "--no-store", "--json", path])
        let object = try #require(try JSONSerialization.jsonObject(with: json.stdout) as? [String: Any])
        #expect(object["symbology"] as? String == "maxicode")
        #expect(qrseal(["scan", "--no-store", "--symbology", "qr,pdf417", path]).status == 1)
    }

    @Test("--ean-add-ons prints an add-on's digits after the main code's; without it the main code alone")
    func addOns() {
        let path = Tools.packageRoot.appendingPathComponent("Tests/Images/addons/ean13-ean5.png").path
        #expect(qrseal(["scan", "--no-store", "--raw", "--ean-add-ons", path]).out == "978073520044951299\n")
        #expect(qrseal(["scan", "--no-store", "--raw", path]).out == "9780735200449\n")
    }
}
