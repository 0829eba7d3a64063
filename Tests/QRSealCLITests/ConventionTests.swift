import Foundation
import Testing
import TestSupport
@testable import QRSealCLI

/// What people bring from other tools: "did you mean" for slips, enum values in any case,
/// help for help, and options before a group's subcommand.
@Suite("command line: conventions")
struct ConventionTests {
    @Test("a mistyped option or command gets a 'did you mean' hint", arguments: [
        (["encode", "--outptu", "x"], "unknown option --outptu for 'encode'", "did you mean --output?"),
        (["scan", "--jsno", "a.png"], "unknown option --jsno for 'scan'", "did you mean --json?"),
        (["scna", "a.png"], "unknown command 'scna'", "did you mean 'scan'?"),
        (["--verison"], "unknown option --verison", "did you mean --version?"),
        (["inbox", "lsit"], "unknown command 'inbox lsit'", "did you mean 'inbox list'?"),
        (["encode", "--format", "pgn", "x"], "--format must be png, svg, terminal, ansi, pdf or gif, not 'pgn'", "did you mean png?"),
    ] as [([String], String, String)])
    func didYouMean(arguments: [String], message: String, hint: String) {
        let r = qrseal(arguments)
        #expect(r.status == 64)
        #expect(r.stderr.hasPrefix("qrseal: error: \(message)\n"), "\(r.stderr)")
        #expect(r.stderr.contains("qrseal: hint: \(hint)\n"), "\(r.stderr)")
    }

    @Test("nothing far from every name is suggested")
    func noWildGuess() {
        let r = qrseal(["encode", "--zzzzzz", "x"])
        #expect(r.status == 64 && !r.stderr.contains("did you mean"))
        #expect(Suggestion.nearest("x", among: ["L", "M", "Q", "H"]) == nil)
    }

    @Test("enum values are taken in any case", arguments: [
        ["encode", "--ec", "l", "--format", "SVG", "x"],
        ["encode", "--ec", "h", "--format", "Svg", "--seal", "--armor", "DIGITS", "--key-file", "KEY", "x"],
        ["capacity", "--ec", "q", "--armor", "Binary"],
        ["scan", "--no-store", "--effort", "FAST", "--symbology", "QR", "PNG"],
        ["scan", "--dedupe", "Always", "--inbox", "INBOX", "PNG"],
        ["inbox", "export", "--format", "CSV", "--inbox", "INBOX"],
        ["inbox", "list", "--kind", "TEXT", "--inbox", "INBOX"],
    ])
    func caseInsensitive(arguments: [String]) throws {
        let dir = try TempDir()
        let key = dir.path("k.key"), png = dir.path("a.png"), inbox = dir.path("i.sqlite")
        #expect(qrseal(["keygen", "-o", key]).status == 0)
        #expect(qrseal(["encode", "-o", png, "hello"]).status == 0)
        #expect(qrseal(["scan", "--inbox", inbox, png]).status == 0)
        let args = arguments.map { ["KEY": key, "PNG": png, "INBOX": inbox][$0] ?? $0 }
        let r = qrseal(args)
        #expect(r.status == 0, "\(args): \(r.stderr)")
    }

    @Test("a wrong enum value names the option, the choices and the value")
    func wrongChoice() {
        let r = qrseal(["inbox", "list", "--kind", "spaceship"])
        #expect(r.status == 64)
        #expect(r.stderr.contains("--kind must be sealed, recipient, url, email, phone, sms, geo, wifi, contact, event, product, "
                                  + "text, binary, date or address, not 'spaceship'"), "\(r.stderr)")
    }

    @Test("help --help shows help for help; other options of help are usage errors")
    func helpForHelp() {
        let r = qrseal(["help", "--help"])
        #expect(r.status == 0 && r.stderr.isEmpty)
        #expect(r.out.hasPrefix("usage: qrseal help [OPTIONS] [COMMAND]\n"), "\(r.out)")
        let bad = qrseal(["help", "--bogus"])
        #expect(bad.status == 64 && bad.stderr.contains("unknown option --bogus for 'help'"), "\(bad.stderr)")
    }

    @Test("an unknown option before a group's subcommand is named, with the group's help to read")
    func groupOptions() {
        let r = qrseal(["inbox", "--bogus"])
        #expect(r.status == 64)
        #expect(r.stderr == "qrseal: error: unknown option --bogus for 'inbox'\nqrseal: hint: see 'qrseal inbox --help'\n")
        let misplaced = qrseal(["keys", "--name", "x", "add"])
        #expect(misplaced.status == 64 && misplaced.stderr.contains("options go after the subcommand: qrseal keys COMMAND"))
    }
}
