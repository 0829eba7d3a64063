import Foundation
import Testing
@testable import QRSealCLI

@Suite("Command line: usage and help")
struct UsageTests {
    @Test("no arguments prints the tool's help on stderr and exits 64")
    func noArguments() {
        let r = qrseal([])
        #expect(r.status == 64)
        #expect(r.stderr.contains("usage: qrseal COMMAND"))
    }

    @Test("--help and help COMMAND describe the commands and options", arguments: [
        ["--help"], ["help"], ["help", "encode"], ["encode", "--help"], ["scan", "-h"],
    ])
    func help(arguments: [String]) {
        let r = qrseal(arguments)
        #expect(r.status == 0)
        #expect(r.out.contains("usage: qrseal"))
        #expect(r.stderr.isEmpty)
    }

    @Test("--version prints the version")
    func version() {
        #expect(qrseal(["--version"]).out == "qrseal \(Commands.version)\n")
    }

    @Test("usage errors exit 64 with a message naming the problem", arguments: [
        (["frobnicate"], "unknown command 'frobnicate'"),
        (["help", "frobnicate"], "unknown command 'frobnicate'"),
        (["encode", "--bogus", "x"], "unknown option --bogus"),
        (["encode", "-q", "x"], "unknown option -q"),
        (["encode", "--ec", "Z", "x"], "--ec must be L, M, Q or H, not 'Z'"),
        (["encode", "--ec"], "option --ec needs a value"),
        (["encode", "--scale", "0", "x"], "--scale must be a whole number from 1 to 100, not '0'"),
        (["encode", "--margin", "-1", "x"], "--margin must be a whole number from 0 to 100"),
        (["encode", "--min-version", "41", "x"], "--min-version must be a whole number from 1 to 40"),
        (["encode", "--format", "webp", "x"], "--format must be png, svg, terminal, ansi, pdf or gif, not 'webp'"),
        (["encode", "a", "b"], "encode takes one TEXT argument"),
        (["encode", "-i", "/nonexistent", "x"], "give TEXT or --input FILE, not both"),
        (["encode", "--raw=1", "x"], "unknown option --raw"),
        (["scan"], "no image to scan"),
        (["scan", "--raw", "--json", "a.png"], "--raw and --json cannot be used together"),
        (["scan", "--symbology", "qr,hexcode", "a.png"], "unknown symbology 'hexcode'"),
        (["scan", "--json=yes", "a.png"], "option --json takes no value"),
        (["scan", "--max-pixels", "lots", "a.png"], "--max-pixels must be a whole number"),
    ] as [([String], String)])
    func usageErrors(arguments: [String], message: String) {
        let r = qrseal(arguments)
        #expect(r.status == 64, "\(arguments)")
        #expect(r.stderr.hasPrefix("qrseal: error: "), "\(r.stderr)")
        #expect(r.stderr.contains(message), "\(r.stderr)")
        #expect(r.stdout.isEmpty)
    }

    @Test("encode with nothing to read from a terminal is a usage error with a hint")
    func nothingToEncode() {
        let r = qrseal(["encode", "-o", "x.png"])
        #expect(r.status == 64)
        #expect(r.stderr.contains("qrseal: hint: give TEXT"))
    }

    @Test("a PNG is never written to a terminal")
    func pngToTerminal() {
        let r = qrseal(["encode", "--format", "png", "hello"], terminal: true)
        #expect(r.status == 64)
        #expect(r.stderr.contains("will not write a PNG image to the terminal"))
        #expect(r.stdout.isEmpty)
    }

    @Test("on a terminal, encode without -o shows the code as text")
    func terminalDefault() {
        let r = qrseal(["encode", "hello"], terminal: true)
        #expect(r.status == 0)
        #expect(r.out.contains("█") && r.out.contains("▀"))
    }
}
