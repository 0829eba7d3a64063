import Foundation
import Testing
import TestSupport
@testable import QRSealCLI
import QRSealKit

/// What a person sees of Tesseract's start: other languages beside English, and a damaged
/// data file reported with what to do, by the real binary too, never a crash.
@Suite("scan --text: Tesseract's start")
struct ScanTextStartTests {
    let box = InboxSandbox()
    static let other = Tools.packageRoot.appendingPathComponent("Tests/Images/text-other").path

    @Test("--lang eng+deu reads a German page as its lines; doctor lists deu")
    func german() throws {
        let r = qrseal(["scan", "--text-only", "--lang", "eng+deu", "--raw", "--no-store", Self.other + "/deu.png"],
                       environment: box.env)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.out == (try String(contentsOfFile: Self.other + "/deu.txt", encoding: .utf8)))
        let doctor = qrseal(["doctor"], environment: box.env)
        #expect(doctor.out.contains(" deu eng  in "), "\(doctor.out)")
    }

    @Test("a damaged data file: a clear error with the package to reinstall, in-process and from the real binary")
    func damagedData() throws {
        let dir = try TempDir()
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: TextRecognizer.defaultDataPath + "/eng.traineddata")))
        // Scrambled inside the network, where Tesseract's start asserts, and would abort.
        for i in stride(from: 1000, to: 200_000, by: 7) { bytes[i] ^= 0x5A }
        _ = try dir.write("eng.traineddata", Data(bytes))
        let frame = Self.other + "/frame.jpg"
        let expected = "qrseal: error: tesseract could not start with 'eng' from \(dir.url.path)/\n"
            + "qrseal: hint: a data file may be damaged: reinstall it: apt-get install --reinstall tesseract-ocr-eng\n"
        let r = qrseal(["scan", "--text-only", "--no-store", frame],
                       environment: box.env.merging(["TESSDATA_PREFIX": dir.url.path]) { $1 })
        #expect(r.status == 2)
        #expect(r.out.isEmpty)
        #expect(r.stderr.hasSuffix(expected), "\(r.stderr)")
        let real = try Tools.run(Tools.qrseal, ["scan", "--text-only", "--no-store", frame],
                                 environment: box.processEnv.merging(["TESSDATA_PREFIX": dir.url.path]) { $1 })
        #expect(real.status == 2)
        #expect(real.stdout.isEmpty)
        #expect(real.stderr.hasSuffix(expected), "\(real.stderr)")
    }
}
