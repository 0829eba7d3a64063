import Foundation
import Testing
import TestSupport
@testable import QRSealCLI
import QRSealKit

/// `scan --text` and `--text-only`: lines a person reads, JSON a program reads, what the
/// inbox keeps, printed sealed digits opened, and the errors of a missing language.
@Suite("scan --text: text beside the codes")
struct ScanTextTests {
    let box = InboxSandbox()
    static let images = Tools.packageRoot.appendingPathComponent("Tests/Images/text").path
    let kinds = images + "/kinds.png"

    @Test("human output: one line per text line, tagged with the kinds found in it")
    func human() {
        let r = box.run(["scan", "--text-only", "--no-store", kinds])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.out == """
            \(kinds): text [url]: Visit https://example.org/inbox today
            \(kinds): text [email]: or write to alice@example.com
            \(kinds): text [phone]: Call +44 20 7946 0958

            """)
    }

    @Test("--json: one object per block with text, confidence, corners, kinds, lines and words with boxes")
    func json() throws {
        let r = box.run(["scan", "--text-only", "--json", "--no-store", kinds])
        #expect(r.status == 0, "\(r.stderr)")
        let objects = try r.out.split(separator: "\n").map {
            try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        let block = try #require(objects.first)
        #expect(block["format"] as? String == "text")
        #expect(block["source"] as? String == kinds)
        #expect((block["text"] as? String)?.contains("alice@example.com\nCall") == true)
        #expect((block["corners"] as? [[Double]])?.count == 4)
        #expect((0...100).contains(block["confidence"] as? Double ?? -1))
        let found = try #require(block["kinds"] as? [[String: String]])
        #expect(found.map { $0["kind"] } == ["url", "email", "phone"])
        #expect(found[0]["url"] == "https://example.org/inbox" && found[1]["address"] == "alice@example.com")
        let lines = try #require(block["lines"] as? [[String: Any]])
        let words = try #require(lines.first?["words"] as? [[String: Any]])
        #expect(words.map { $0["text"] as? String } == ["Visit", "https://example.org/inbox", "today"])
        #expect(words.allSatisfy { ($0["box"] as? [Int])?.count == 4 && $0["confidence"] is Double })
        #expect(block["inbox_id"] == nil)
    }

    @Test("--text reads the code and the text of one image; --text-only reads no code")
    func codeAndText() throws {
        let code = box.encode("code.png", "hello from a code")
        let both = box.dir.path("both.png")
        let made = try Tools.run("convert", [code, Self.images + "/sans.png", "-background", "white", "+append", both])
        #expect(made.status == 0, "\(made.stderr)")
        let r = box.run(["scan", "--text", "--no-store", both])
        #expect(r.status == 0, "\(r.stderr)")
        // The code's modules are not read as letters.
        #expect(r.out == """
            \(both): QR-Code: hello from a code
            \(both): text: The quick brown fox jumps over the lazy dog.
            \(both): text: Pack my box with five dozen liquor jugs.

            """)
        let textOnly = box.run(["scan", "--text-only", "--no-store", both])
        #expect(!textOnly.out.contains("QR-Code"), "\(textOnly.out)")
    }

    @Test("text scans are kept in the inbox with their kind and found by search")
    func stored() throws {
        let r = box.run(["scan", "--text-only", "--json", kinds])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.out.contains("\"inbox_id\":"))
        let found = box.run(["inbox", "list", "--json", "--search", "alice@example"])
        let item = try #require(JSONSerialization.jsonObject(with: found.stdout) as? [String: Any], "\(found.out)")
        #expect(item["kind"] as? String == "url")
        #expect(item["format"] as? String == "text" || item["symbology"] as? String == "text", "\(item)")
        #expect(box.run(["inbox", "list", "--kind", "url"]).out.contains("example.org"))
    }

    /// `text` printed as the armor's digits in groups, in a monospace font, written to `name`.
    func printed(_ armor: String, _ name: String) throws -> String {
        let digits = Array(armor.dropFirst("QRSEAL1:".count))
        let groups = stride(from: 0, to: digits.count, by: 5).map { String(digits[$0..<min($0 + 5, digits.count)]) }
        let lines = ["QRSEAL1:"] + stride(from: 0, to: groups.count, by: 8).map { groups[$0..<min($0 + 8, groups.count)].joined(separator: " ") }
        let path = box.dir.path(name)
        let made = try Tools.run("convert", ["-font", "DejaVu-Sans-Mono", "-pointsize", "24", "-background", "white"]
                                 + lines.map { "label:" + $0 } + ["-append", "-bordercolor", "white", "-border", "20", path])
        #expect(made.status == 0, "\(made.stderr)")
        return path
    }

    /// The digits armor of "meet at noon" sealed with `key`, as a scanner of its code shows it.
    func armor(key: String) throws -> String {
        let code = box.encode("sealed.png", "meet at noon", ["--seal", "--key-file", key])
        let r = box.run(["scan", "--json", "--no-store", code])
        let object = try #require(JSONSerialization.jsonObject(with: Data(r.out.split(separator: "\n")[0].utf8)) as? [String: Any])
        return try #require(object["text"] as? String)
    }

    @Test("a printed sealed message's digits open with the right key, and with no other")
    func printedSealed() throws {
        let key = box.keygen()
        let page = try printed(try armor(key: key), "printed.png")
        let opened = box.run(["scan", "--text-only", "--no-store", "--key-file", key, page])
        #expect(opened.status == 0, "\(opened.stderr)")
        #expect(opened.out == "\(page): text [sealed]: meet at noon\n")
        let other = box.keygen("other.key")
        let wrong = box.run(["scan", "--text-only", "--no-store", "--key-file", other, page])
        #expect(wrong.status == 3)
        #expect(!wrong.out.contains("meet at noon") && wrong.out.contains("[sealed]: <not opened: wrong key"), "\(wrong.out)")
    }

    @Test("a photographed printout of the digits (turned, soft, shadowed, noisy, JPEG) opens with the right key")
    func photographed() throws {
        // A fixed key and sealed message (printout.key, printout-armor.txt), so that the photo,
        // noise included, is the same on every run and the test cannot pass by luck.
        let key = box.dir.path("printout.key")
        try FileManager.default.copyItem(atPath: Self.images + "/printout.key", toPath: key)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: key)
        let digits = try String(contentsOfFile: Self.images + "/printout-armor.txt", encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let page = try printed(digits, "printout.png")
        let photo = box.dir.path("photo.jpg")
        let size = try Tools.run("identify", ["-format", "%wx%h", page]).stdoutText
        let made = try Tools.run("convert", [page, "-background", "white", "-rotate", "1", "-blur", "0x0.5",
                                             "(", "-size", size, "gradient:gray98-gray75", ")", "-compose", "Multiply",
                                             "-composite", "-seed", "5", "-attenuate", "0.3", "+noise", "Gaussian",
                                             "-colorspace", "Gray", "-quality", "70", photo])
        #expect(made.status == 0, "\(made.stderr)")
        let r = box.run(["scan", "--text-only", "--no-store", "--key-file", key, photo])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.out == "\(photo): text [sealed]: meet at noon\n")
    }

    @Test("a changed printed digit fails authentication: never garbage")
    func changedDigit() throws {
        let key = box.keygen()
        var digits = Array(try armor(key: key))
        let i = digits.count - 7
        digits[i] = digits[i] == "3" ? "4" : "3"
        let page = try printed(String(digits), "changed.png")
        let r = box.run(["scan", "--text-only", "--no-store", "--key-file", key, page])
        #expect(r.status != 0)
        #expect(!r.out.contains("meet at noon"))
        #expect(r.out.contains("[sealed]: <not opened:"), "\(r.out)")
    }

    @Test("a missing language: a clear error naming the Debian package, before any image is read")
    func missingLanguage() throws {
        let empty = try TempDir()
        let r = qrseal(["scan", "--text", "--lang", "eng+deu", "--no-store", kinds],
                       environment: box.env.merging(["TESSDATA_PREFIX": empty.url.path]) { $1 })
        #expect(r.status == 2)
        #expect(r.out.isEmpty)
        #expect(r.stderr == """
            qrseal: error: no text recognition data for language 'eng'
            qrseal: hint: install it: apt-get install tesseract-ocr-eng (or set TESSDATA_PREFIX to a tessdata folder that has it)

            """)
        let deu = box.run(["scan", "--text", "--lang", "eng+xyz", "--no-store", kinds])
        #expect(deu.stderr.contains("'xyz'") && deu.stderr.contains("tesseract-ocr-xyz"), "\(deu.stderr)")
    }

    @Test("usage errors: text options alone, a bad confidence, a bad language, a bad layout", arguments: [
        ["--lang", "eng"], ["--min-confidence", "50"], ["--text", "--min-confidence", "101"],
        ["--text", "--min-confidence", "-1"], ["--text", "--lang", "../eng"], ["--text", "--lang", "eng+"],
        ["--text-layout", "sparse"], ["--text", "--text-layout", "columns"],
    ])
    func usage(_ options: [String]) {
        let r = box.run(["scan", "--no-store"] + options + [kinds])
        #expect(r.status == 64, "\(options): \(r.stderr)")
        #expect(r.out.isEmpty)
    }

    @Test("an image with no text, or not an image at all: nothing found, or the image's error")
    func nothing() throws {
        let blank = box.dir.path("blank.png")
        #expect(try Tools.run("convert", ["-size", "300x200", "xc:white", blank]).status == 0)
        let r = box.run(["scan", "--text-only", "--no-store", blank])
        #expect(r.status == 1 && r.out.isEmpty, "\(r.out)")
        let junk = try box.dir.write("junk.png", Data("not an image".utf8))
        let bad = box.run(["scan", "--text-only", "--no-store", junk])
        #expect(bad.status == 2)
        #expect(bad.stderr.components(separatedBy: "qrseal: error:").count == 2, "\(bad.stderr)")
        let huge = box.run(["scan", "--text-only", "--no-store", "--max-pixels", "1000", kinds])
        #expect(huge.status == 2 && huge.stderr.contains("too large") || huge.stderr.contains("pixels"), "\(huge.stderr)")
    }

    @Test("an image that fails to decode ends the scan only once Tesseract has started, which the process may not end inside")
    func failedImageWaitsForStart() throws {
        let junk = try box.dir.write("junk-start.png", Data("not an image".utf8))
        let console = Console(out: { _ in }, err: { _ in }, readInput: { Data() }, inputIsTerminal: false,
                              outputIsTerminal: false, environment: box.env, readSecret: { _ in nil })
        let args = try Commands.scan.parse(["--text-only", "--no-store", junk])
        var command = try ScanCommand(args, console: console)
        let text = try #require(command.text)
        #expect(command.run(console: console) == .failure)
        #expect(!text.isStarting)
        // And the real binary exits with the image's error, not inside Tesseract.
        let real = try Tools.run(Tools.qrseal, ["scan", "--text-only", "--no-store", junk], environment: box.processEnv)
        #expect(real.status == 2 && real.stderr.hasPrefix("qrseal: error: "), "\(real.stderr)")
    }

    @Test("the real binary: limits Tesseract's threads itself, reads the same lines")
    func realBinary() throws {
        let r = try Tools.run(Tools.qrseal, ["scan", "--text-only", "--no-store", kinds], environment: box.processEnv)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdoutText.contains("text [phone]: Call +44 20 7946 0958"))
    }
}
