import Foundation
import Testing
import TestSupport
import QRSealKit
@testable import QRSealCLI

/// Key sources that must never mean "no seal", messages that are cut off, damaged or
/// unsupported, and what `open` writes where (issue 9, items 1, 8, 9, 12, 16, 17, 19).
@Suite("Sealed messages: key sources, damage and output")
struct SealTrustTests {
    let dir = try! TempDir()

    func newKey(_ name: String = "k.key") -> String { dir.newKey(name) }

    func secret(_ path: String) throws -> SecretKey {
        try SecretKey(text: String(contentsOfFile: path, encoding: .utf8))
    }

    func exists(_ name: String) -> Bool { FileManager.default.fileExists(atPath: dir.path(name)) }

    // MARK: key sources (items 1 and 12)

    @Test("an empty QRSEAL_PASSPHRASE is a usage error for every command, never a plain code")
    func emptyEnvironmentPassphrase() {
        let empty = ["QRSEAL_PASSPHRASE": ""]
        let encode = qrseal(["encode", "-o", dir.path("e.png"), "the vault code is 4711"], environment: empty)
        #expect(encode.status == 64)
        #expect(encode.stderr.contains("qrseal: error: QRSEAL_PASSPHRASE is set but empty"))
        #expect(encode.stderr.contains("qrseal: hint: set it to the passphrase, or unset it"))
        #expect(!exists("e.png"))
        #expect(qrseal(["encode", "--seal", "-o", dir.path("e.png"), "x"], environment: empty).status == 64)
        #expect(!exists("e.png"))
        let png = dir.path("plain.png")
        #expect(qrseal(["encode", "-o", png, "plain"]).status == 0)
        for command in [["scan", png], ["open", png]] {
            let r = qrseal(command + ["--no-store"], environment: empty)
            #expect(r.status == 64, "\(command)")
            #expect(r.stderr.contains("QRSEAL_PASSPHRASE is set but empty"), "\(command)")
        }
    }

    @Test("an empty passphrase file, one of only a line break, and an empty key file are errors")
    func emptyFiles() throws {
        for (name, text) in [("empty.txt", ""), ("newline.txt", "\n"), ("crlf.txt", "\r\n")] {
            let path = try dir.write(name, Data(text.utf8))
            let r = qrseal(["encode", "--passphrase-file", path, "-o", dir.path("p.png"), "secret"])
            #expect(r.status == 2, "\(name)")
            #expect(r.stderr.contains("\(path): the passphrase is empty"), "\(name)")
            #expect(!exists("p.png"), "\(name)")
        }
        let emptyKey = try dir.write("empty.key", Data())
        let r = qrseal(["encode", "--key-file", emptyKey, "-o", dir.path("k.png"), "secret"])
        #expect(r.status == 2)
        #expect(r.stderr.contains("\(emptyKey): not a valid key"))
        #expect(!exists("k.png"))
    }

    @Test("sealing with --key-file and a passphrase, or two key files, is a usage error naming both")
    func twoSealingKeys() throws {
        let key = newKey(), other = newKey("other.key")
        let pass = try dir.write("pass.txt", Data("tide tables\n".utf8))
        let out = dir.path("two.png")
        let withEnv = qrseal(["encode", "--key-file", key, "-o", out, "x"], environment: ["QRSEAL_PASSPHRASE": "tide"])
        #expect(withEnv.status == 64)
        #expect(withEnv.stderr.contains("seal with one key: --key-file and QRSEAL_PASSPHRASE were both given"))
        let withFile = qrseal(["encode", "--key-file", key, "--passphrase-file", pass, "-o", out, "x"])
        #expect(withFile.status == 64)
        #expect(withFile.stderr.contains("seal with one key: --key-file and --passphrase-file were both given"))
        let twoKeys = qrseal(["encode", "--key-file", key, "--key-file", other, "-o", out, "x"])
        #expect(twoKeys.status == 64)
        #expect(twoKeys.stderr.contains("seal with one key: --key-file was given 2 times"))
        #expect(!exists("two.png"))
    }

    @Test("opening tries the passphrase file and QRSEAL_PASSPHRASE both")
    func openingTriesEveryPassphrase() throws {
        let png = dir.path("env.png")
        #expect(qrseal(["encode", "-o", png, "from the environment"], environment: ["QRSEAL_PASSPHRASE": "env pass"]).status == 0)
        let other = try dir.write("other.txt", Data("file pass\n".utf8))
        let r = qrseal(["open", "--no-store", "--passphrase-file", other, png], environment: ["QRSEAL_PASSPHRASE": "env pass"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.out == "from the environment")
    }

    @Test("--armor and --no-compress seal: they ask for a passphrase, and fail without a terminal")
    func armorImpliesSeal() throws {
        for options in [["--armor", "binary"], ["--no-compress"]] {
            let out = dir.path("a.png")
            let none = qrseal(["encode"] + options + ["-o", out, "not in the clear"])
            #expect(none.status == 2, "\(options)")
            #expect(none.stderr.contains("\(options[0]) seals the message, which needs a key"), "\(options)")
            #expect(!exists("a.png"), "\(options)")
            let asked = qrseal(["encode"] + options + ["-o", out, "not in the clear"],
                               answers: ["harbour", "harbour"])
            #expect(asked.status == 0, "\(asked.stderr)")
            let locked = qrseal(["scan", "--no-store", out])
            #expect(locked.out.contains("[sealed]: <not opened: ") && !locked.out.contains("not in the clear"), "\(options)")
            let opened = qrseal(["scan", "--no-store", "--raw", out], environment: ["QRSEAL_PASSPHRASE": "harbour"])
            #expect(opened.out == "not in the clear\n", "\(options)")
            try FileManager.default.removeItem(atPath: out)
        }
    }

    // MARK: damaged, cut off and unsupported messages (items 9 and 19)

    @Test("a paste cut short is damaged or incomplete (exit 2), with or without a key", arguments: [1, 2, 7, 30, 65, 120])
    func cutOffPaste(cut: Int) throws {
        let key = newKey()
        let envelope = try Sealer().seal(.text("meet at the north gate at seven, bring the papers"),
                                         with: .keyFile(try secret(key)))
        let text = String(Armor.text(for: envelope).dropLast(cut))
        for keys in [["--key-file", key], []] {
            let r = qrseal(["open", "--no-store"] + keys + ["-"], stdin: Data(text.utf8))
            #expect(r.status == 2, "\(keys): \(r.stderr)")
            #expect(r.stderr.contains("-: damaged or incomplete sealed message"), "\(keys): \(r.stderr)")
            for misleading in ["unsupported", "key type", "frame type", "wrong key", "no key given"] {
                #expect(!r.stderr.contains(misleading), "\(keys): \(r.stderr)")
            }
            #expect(r.stdout.isEmpty)
        }
    }

    @Test("with no key, an unknown version, a truncated envelope and too costly scrypt are exit 2, not 3")
    func noKeyStillChecksTheMessage() throws {
        var costly = try Sealer(scrypt: ScryptParameters(log2N: 10, r: 8, p: 1)).seal(.text("x"), with: .passphrase("p"))
        costly[2] = 30
        let cases: [(String, String)] = [
            ("QRSEAL10000:0123456789", "unsupported format version 10000"),
            ("QRSEAL2:0123456789", "unsupported format version 2"),
            ("QRSEAL1:016", "damaged or incomplete sealed message"),
            (Armor.text(for: costly), "the message asks for scrypt work N=2^30"),
        ]
        for (text, message) in cases {
            let r = qrseal(["open", "--no-store", "-"], stdin: Data(text.utf8))
            #expect(r.status == 2, "\(text.prefix(20)): \(r.stderr)")
            #expect(r.stderr.contains(message), "\(text.prefix(20)): \(r.stderr)")
        }
        // In an image too: the code QRSEAL10000:… is a sealed message of another version, not a plain code.
        let png = dir.path("v10000.png")
        #expect(qrseal(["encode", "-o", png, "QRSEAL10000:0123456789"]).status == 0)
        let opened = qrseal(["open", "--no-store", png])
        #expect(opened.status == 2)
        #expect(opened.stderr.contains("\(png): unsupported format version 10000"))
        let scanned = qrseal(["scan", "--no-store", png])
        #expect(scanned.status == 2)
        #expect(scanned.out == "\(png): QR-Code [sealed]: <not opened: unsupported format version 10000 (this reader knows version 1)>\n")
    }

    // MARK: where open writes (item 8)

    /// A PGM image with the codes of `pngs` side by side.
    func sideBySide(_ pngs: [String], name: String) throws -> String {
        let images = try pngs.map { try ImageDecoder().decode([UInt8](Data(contentsOf: URL(fileURLWithPath: $0)))) }
        let width = images.map(\.width).reduce(0, +), height = images.map(\.height).max()!
        var x = 0
        var placements: [Placement] = []
        for image in images {
            placements.append(Placement(Sprite(width: image.width, height: image.height, pixels: image.pixels), x: x, y: 0))
            x += image.width
        }
        let pixels = Scenes.frame(width: width, height: height, background: 255, placements)
        return try dir.write(name, Data("P5\n\(width) \(height)\n255\n".utf8) + Data(pixels))
    }

    @Test("open -o FILE writes a text message to FILE and prints nothing")
    func textToOutputFile() throws {
        let key = newKey()
        let png = dir.path("t.png")
        #expect(qrseal(["encode", "--key-file", key, "-o", png, "the secret text"]).status == 0)
        let out = dir.path("out.txt")
        let r = qrseal(["open", "--no-store", "--key-file", key, "-o", out, png], terminal: true)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.isEmpty)
        #expect(r.stderr == "qrseal: wrote \(out) (15 bytes)\n")
        #expect(try String(contentsOfFile: out, encoding: .utf8) == "the secret text")
        // The same rule as for files: an existing file is not replaced without --force.
        let again = qrseal(["open", "--no-store", "--key-file", key, "-o", out, png])
        #expect(again.status == 2)
        #expect(again.stderr.contains("\(out): file exists"))
    }

    @Test("an opened text with control characters is escaped on a terminal, exact in a pipe, and inbox open -o writes it")
    func openedTextOnTerminal() throws {
        let key = newKey()
        let png = dir.path("c.png")
        let text = "line one\r\nred \u{1B}[31malert\u{7}\ttab\n"
        #expect(qrseal(["encode", "--key-file", key, "-o", png, text]).status == 0)
        let inbox = dir.path("inbox.sqlite")
        let shown = qrseal(["open", "--inbox", inbox, "--key-file", key, png], terminal: true)
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(shown.out == "line one\r\nred \\x1b[31malert\\x07\ttab\n")
        let piped = qrseal(["open", "--no-store", "--key-file", key, png])
        #expect(piped.out == text)
        // inbox open writes a text to -o as open does, rather than printing the secret.
        let out = dir.path("kept.txt")
        let kept = qrseal(["inbox", "open", "--inbox", inbox, "--key-file", key, "-o", out, "1"], terminal: true)
        #expect(kept.status == 0, "\(kept.stderr)")
        #expect(kept.stdout.isEmpty)
        #expect(try String(contentsOfFile: out, encoding: .utf8) == text)
    }

    @Test("several sealed texts in one image are printed each on its own lines, a blank line between")
    func severalTexts() throws {
        let key = newKey()
        let first = dir.path("1.png"), second = dir.path("2.png")
        #expect(qrseal(["encode", "--key-file", key, "-o", first, "north gate"]).status == 0)
        #expect(qrseal(["encode", "--key-file", key, "-o", second, "seven o'clock"]).status == 0)
        let both = try sideBySide([first, second], name: "both.pgm")
        let r = qrseal(["open", "--no-store", "--key-file", key, both])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.out == "north gate\n\nseven o'clock\n")
        // -o names one file: refused before anything is written.
        let out = dir.path("one.txt")
        let refused = qrseal(["open", "--no-store", "--key-file", key, "-o", out, both])
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("\(both): holds 2 sealed messages, and -o names one file"))
        #expect(refused.stdout.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    // MARK: standard input (item 17) and the key-derivation budget (item 16)

    @Test("open - refuses more text than any sealed message before parsing it")
    func boundedStandardInput() {
        let r = qrseal(["open", "--no-store", "-"], stdin: Data(repeating: UInt8(ascii: "7"), count: 70_000))
        #expect(r.status == 2)
        #expect(r.stderr == "qrseal: error: -: input is larger than 65536 bytes, more than any sealed message\n")
    }

    @Test("open - and scan - read no further than they must from an endless input",
          arguments: [(["open", "--no-store", "-"], 65537, "qrseal: error: -: input is larger than 65536 bytes"),
                      // Not an image by its first bytes (as many as an SVG's start may take:
                      // ImageDecoder.sniffLength): scan reads no further.
                      (["scan", "--no-store", "-"], ImageDecoder.sniffLength + 1, "qrseal: error: -: not an image")])
    func readsNoFurther(arguments: [String], read: Int, message: String) {
        let handedOut = Buffer()
        let err = Buffer()
        let console = Console(out: { _ in }, err: { err.data.append($0) }, readInput: { Data() },
                              inputIsTerminal: false, outputIsTerminal: false,
                              readInputPart: { count in
                                  handedOut.data.append(Data(repeating: UInt8(ascii: "7"), count: min(count, 1000)))
                                  return Data(repeating: UInt8(ascii: "7"), count: min(count, 1000))
                              })
        #expect(QRSealCLI.run(arguments: arguments, console: console) == 2)
        #expect(handedOut.data.count == read)
        #expect(String(decoding: err.data, as: UTF8.self).hasPrefix(message))
    }

    @Test("open - of an endless input ends with the size error (the real binary, reading /dev/zero)")
    func endlessStandardInput() throws {
        let r = try Tools.run("/bin/sh", ["-c", "exec \"$0\" open --no-store - < /dev/zero", Tools.qrseal])
        #expect(r.status == 2)
        #expect(r.stderr.contains("-: input is larger than 65536 bytes, more than any sealed message"))
    }

    @Test("messages skipped for the key-derivation budget are reported once, with their number, as exit 2")
    func skippedMessages() {
        let err = Buffer()
        let console = Console(out: { _ in }, err: { err.data.append($0) }, readInput: { Data() },
                              inputIsTerminal: false, outputIsTerminal: false)
        var tally = SealedTally()
        for _ in 0..<17 { tally.count(.failed(.kdfBudgetExceeded), source: "sheet.png", console: console) }
        tally.printHints(console: console)
        let text = String(decoding: err.data, as: UTF8.self)
        #expect(text.hasPrefix("qrseal: error: not opened: too much key-derivation work in one call (17 messages skipped)\n"))
        #expect(text.components(separatedBy: "\n").filter { $0.hasPrefix("qrseal: error:") }.count == 1)
        #expect(tally.status(otherwise: .success) == .failure)
    }

    @Test("a secret piped in, as the README and man page show it, is sealed byte for byte and kept out of argv")
    func secretOnStandardInput() throws {
        let dir = try TempDir()
        let key = dir.newKey(), png = dir.path("note.png")
        let sealed = qrseal(["encode", "--key-file", key, "-o", png], stdin: Data("meet at the north gate, 6pm".utf8))
        #expect(sealed.status == 0, "\(sealed.stderr)")
        #expect(qrseal(["scan", "--no-store", "--key-file", key, png]).out == "\(png): QR-Code [sealed]: meet at the north gate, 6pm\n")
    }

    @Test("a message skipped for the key-derivation budget says 'not opened' once on its line")
    func skippedMessageLine() {
        let detection = Detection(symbology: .qr, bytes: [], corners: [])
        let line = OutcomeForms.humanLine(source: "sheet.png", detection, .failed(.kdfBudgetExceeded), fileNote: nil)
        #expect(line == "sheet.png: QR-Code [sealed]: <not opened: too much key-derivation work in one call>")
    }
}
