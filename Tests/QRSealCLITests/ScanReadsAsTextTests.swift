import Foundation
import Testing
import TestSupport
import QRSealKit

/// What a scan shows as text: a joined Structured Append message read as any code's text,
/// and no noise read into a photo beside a code.
@Suite("Scan: text as a person reads it")
struct ScanReadsAsTextTests {
    static func image(_ path: String) -> String { Tools.packageRoot.appendingPathComponent("Tests/Images/" + path).path }

    func objects(_ out: String) -> [[String: Any]] {
        out.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    @Test("a Structured Append sequence in Latin-1 bytes, without ECI, joins into its Latin-1 text, as its codes read alone")
    func latin1Sequence() {
        let files = (1...3).map { Self.image("structured-append/latin1-\($0)-of-3.png") }
        let r = qrseal(["scan", "--no-store", "--json"] + files)
        #expect(r.status == 0, "\(r.stderr)")
        let message = objects(r.out).first { $0["event"] as? String == "message" }
        #expect(message?["text"] as? String == "Grüße aus Köln, schöne Grüße an alle.", "\(r.out)")
        let human = qrseal(["scan", "--no-store"] + files)
        #expect(human.out.contains("complete (3 of 3 parts): Grüße aus Köln, schöne Grüße an alle."), "\(human.out)")
    }

    @Test("scan --text keeps no fragment read into the photo around a code (\"=\", \"a\", \"ra!\")")
    func noNoise() {
        let r = qrseal(["scan", "--no-store", "--text", "--json", Self.image("text-other/qr-photo.png")])
        #expect(r.status == 0, "\(r.stderr)")
        let found = objects(r.out)
        #expect(found.contains { $0["format"] as? String == "QR-Code" }, "\(r.out)")
        for block in found where block["format"] as? String == "text" {
            let text = block["text"] as? String ?? ""
            #expect(text.unicodeScalars.filter(\.properties.isAlphabetic).count >= 3, "noise kept: \(text)")
        }
    }
}
