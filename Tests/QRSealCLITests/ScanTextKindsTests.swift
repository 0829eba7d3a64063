import Foundation
import Testing
import TestSupport
@testable import QRSealCLI
import QRSealKit

/// `scan --text` on harder pictures and with the options added for them: dates and addresses
/// as kinds in every output and the inbox, crooked pages and small print, the time budget,
/// huge images, the page layout, and text drawn by --annotate.
@Suite("scan --text: kinds, hard pictures, limits and --annotate")
struct ScanTextKindsTests {
    let box = InboxSandbox()
    static let images = Tools.packageRoot.appendingPathComponent("Tests/Images/text").path
    let dates = images + "/dates.png"

    @Test("a date and an address are kinds in the human lines and in --json, with their fields")
    func datesAndAddresses() throws {
        let human = box.run(["scan", "--text-only", "--no-store", dates])
        #expect(human.status == 0, "\(human.stderr)")
        #expect(human.out == """
            \(dates): text [date]: Due 1 December 2026 at 14:30
            \(dates): text [address]: 10 Downing Street, London SW1A 2AA

            """)
        let json = box.run(["scan", "--text-only", "--no-store", "--json", dates])
        let block = try #require(try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
        #expect(block["kind"] as? String == "date")
        let found = try #require(block["kinds"] as? [[String: String]])
        #expect(found.map { $0["kind"] } == ["date", "address"])
        #expect(found[0]["date"] == "2026-12-01" && found[0]["time"] == "14:30" && found[0]["text"] == "1 December 2026 at 14:30")
        #expect(found[1]["postal_code"] == "SW1A 2AA" && found[1]["country"] == "GB")
    }

    @Test("text scans with a date are kept under kind date, listed with --kind date and counted")
    func inboxKind() {
        #expect(box.run(["scan", "--text-only", dates]).status == 0)
        let listed = box.run(["inbox", "list", "--kind", "date"])
        #expect(listed.status == 0 && listed.out.contains("Due 1 December 2026"), "\(listed.out)")
        #expect(box.run(["inbox", "list", "--kind", "url"]).out.contains("December") == false)
        #expect(box.run(["inbox", "count"]).out.contains("date"))
    }

    @Test("a crooked page and small print read as their lines")
    func hardPictures() throws {
        for name in ["skewed", "small"] {
            let path = Self.images + "/" + name + ".png"
            let r = box.run(["scan", "--text-only", "--raw", "--no-store", path])
            #expect(r.status == 0, "\(r.stderr)")
            #expect(r.out == (try String(contentsOfFile: Self.images + "/" + name + ".txt", encoding: .utf8)), "\(name): \(r.out)")
        }
    }

    @Test("an image past its time budget: an error naming the file and the budget, with a hint, exit 2")
    func timeLimit() {
        let page = Self.images + "/shadow.png"
        let r = box.run(["scan", "--text-only", "--no-store", "--text-time-limit", "0.001", page])
        #expect(r.status == 2)
        #expect(r.out.isEmpty)
        #expect(r.stderr == """
            qrseal: error: \(page): text recognition stopped after its time budget of 0.001 s
            qrseal: hint: give it longer with --text-time-limit SECONDS, or crop the picture to the text

            """)
        #expect(box.run(["scan", "--text-only", "--no-store", "--text-time-limit", "60", page]).status == 0)
    }

    @Test("a huge image whose print would be too small shrunk to the limit is refused before recognition, naming it")
    func hugeRefused() throws {
        let huge = box.dir.path("huge.png")
        let made = try Tools.run("convert", ["-size", "6000x4000", "xc:white", "-font", "DejaVu-Sans", "-pointsize", "6",
                                             "-annotate", "+100+100", "tiny words on a huge page, tiny words on a huge page",
                                             "-annotate", "+100+120", "tiny words on a huge page, tiny words on a huge page", huge])
        #expect(made.status == 0, "\(made.stderr)")
        let r = box.run(["scan", "--text-only", "--no-store", huge])
        #expect(r.status == 2)
        #expect(r.stderr.hasPrefix("qrseal: error: \(huge): image of 6000x4000 pixels is too large for text recognition "
                                   + "(limit 16000000 pixels)"), "\(r.stderr)")
        #expect(r.stderr.contains("qrseal: hint: crop the picture to the text, or raise the limit with --max-pixels N"))
    }

    @Test("the text options: usage errors for a bad layout or time limit, or without --text", arguments: [
        ["--text", "--text-layout", "columns"], ["--text", "--text-time-limit", "0"], ["--text", "--text-time-limit", "soon"],
        ["--text", "--text-time-limit", "nan"], ["--text-layout", "page"], ["--text-time-limit", "5"],
    ])
    func usage(_ options: [String]) {
        let r = box.run(["scan", "--no-store"] + options + [dates])
        #expect(r.status == 64, "\(options): \(r.stderr)")
        #expect(r.out.isEmpty)
    }

    @Test("each layout reads a page; sparse finds the words of a photo with little text")
    func layouts() throws {
        for layout in ["auto", "page", "sparse"] {
            let r = box.run(["scan", "--text-only", "--raw", "--no-store", "--text-layout", layout, dates])
            #expect(r.out.contains("SW1A 2AA"), "\(layout): \(r.out)")
        }
    }

    @Test("--annotate with --text boxes each word in blue and writes each line's kinds above it")
    func annotate() throws {
        let out = box.dir.path("annotated.png")
        let r = box.run(["scan", "--text-only", "--no-store", "--annotate", out, dates])
        #expect(r.status == 0, "\(r.stderr)")
        let copy = try ImageDecoder().decodeColor(Array(try Data(contentsOf: URL(fileURLWithPath: out))))
        let input = try ImageDecoder().decode(Array(try Data(contentsOf: URL(fileURLWithPath: dates))))
        #expect(copy.width == input.width && copy.height == input.height)
        var blue = 0
        for y in 0..<copy.height { for x in 0..<copy.width where copy[x, y] == .blue { blue += 1 } }
        // Eleven word boxes and two labels.
        #expect(blue > 11 * 40, "\(blue)")
        // Without --text nothing is read and nothing is drawn in blue.
        let plain = box.dir.path("plain.png")
        _ = box.run(["scan", "--no-store", "--annotate", plain, dates])
        let none = try ImageDecoder().decodeColor(Array(try Data(contentsOf: URL(fileURLWithPath: plain))))
        var any = 0
        for y in 0..<none.height { for x in 0..<none.width where none[x, y] == .blue { any += 1 } }
        #expect(any == 0)
    }
}
