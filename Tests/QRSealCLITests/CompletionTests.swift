import Foundation
import Testing
import TestSupport
@testable import QRSealCLI

/// The completion scripts `make install` writes, run by the shells themselves.
@Suite("command line: shell completions")
struct CompletionTests {
    @Test("bash completes command names, a group's subcommands and options by prefix")
    func bashNames() throws {
        #expect(try bashCompletes("qrseal enc") == ["encode"])
        #expect(try bashCompletes("qrseal inbox li") == ["list"])
        let options = try bashCompletes("qrseal encode --fo")
        #expect(options.sorted() == ["--force", "--format"])
        #expect(try bashCompletes("qrseal inbox list --ki") == ["--kind"])
    }

    @Test("bash completes the fixed choices of an option's value, as --help declares them")
    func bashChoices() throws {
        let effort = try #require(Commands.scan.option(long: "effort")?.value)
        #expect(try bashCompletes("qrseal scan --effort ") == effort.split(separator: "|").map(String.init))
        #expect(try bashCompletes("qrseal encode --format s") == ["svg"])
        // --format=a reaches the function split at the '=', as bash splits it.
        #expect(try bashCompletes("qrseal encode --format = a") == ["ansi"])
        #expect(try bashCompletes("qrseal encode --armor age") == ["age", "age-text"])
        #expect(try bashCompletes("qrseal inbox list --kind ur") == ["url"])
        // --symbology takes a comma-separated list: the last element completes.
        #expect(try bashCompletes("qrseal scan --symbology qr,ean1") == ["qr,ean13"])
        // A number has nothing to offer, not even file names.
        #expect(try bashCompletes("qrseal encode --scale ").isEmpty)
    }

    @Test("bash completes files for file options and image arguments")
    func bashFiles() throws {
        let dir = try TempDir()
        try dir.write("photo.png", Data())
        try dir.write("notes.txt", Data())
        try dir.write("my photo.png", Data())
        #expect(try bashCompletes("qrseal scan ph", in: dir.url.path) == ["photo.png"])
        // A name with a space stays one candidate.
        #expect(try bashCompletes("qrseal scan my", in: dir.url.path) == ["my photo.png"])
        #expect(try bashCompletes("qrseal encode -i no", in: dir.url.path) == ["notes.txt"])
        #expect(try bashCompletes("qrseal help inb") == ["inbox"])
    }

    @Test("zsh completes command names, a group's subcommands, options by prefix and their fixed choices")
    func zshNames() throws {
        #expect(try zshCompletes("qrseal enc") == ["encode"])
        #expect(try zshCompletes("qrseal ") == Completions.topLevel)
        #expect(try zshCompletes("qrseal inbox li") == ["list"])
        #expect(try zshCompletes("qrseal encode --fo").sorted() == ["--force", "--format"])
        let effort = try #require(Commands.scan.option(long: "effort")?.value)
        #expect(try zshCompletes("qrseal scan --effort ") == effort.split(separator: "|").map(String.init))
        #expect(try zshCompletes("qrseal encode --format s") == ["svg"])
        // --symbology takes a comma-separated list: the last element completes.
        #expect(try zshCompletes("qrseal scan --symbology qr,ean1") == ["ean13"])
        #expect(try zshCompletes("qrseal encode --scale ").isEmpty)
    }

    @Test("zsh completes files for file options and image arguments")
    func zshFiles() throws {
        let dir = try TempDir()
        try dir.write("photo.png", Data())
        try dir.write("notes.txt", Data())
        try dir.write("my photo.png", Data())
        #expect(try zshCompletes("qrseal scan ph", in: dir.url.path) == ["photo.png"])
        #expect(try zshCompletes("qrseal scan my", in: dir.url.path).first == "my photo.png")
        #expect(try zshCompletes("qrseal encode -i no", in: dir.url.path) == ["notes.txt"])
    }

    @Test("the zsh and fish scripts parse and name every command", arguments: ["zsh", "fish"])
    func otherShells(shell: String) throws {
        let r = qrseal(["completions", shell])
        #expect(r.status == 0)
        for word in Completions.topLevel { #expect(r.out.contains(word)) }
        guard let program = Tools.which(shell) else {
            Issue.record("\(shell) is missing: 'make setup' installs it")
            return
        }
        let dir = try TempDir()
        let path = try dir.write("qrseal.\(shell)", r.stdout)
        let check = try Tools.run(program, ["-n", path])
        #expect(check.status == 0 && check.stderr.isEmpty, "\(check.stderr)")
    }

    @Test("fish offers a group's subcommands and an option's choices")
    func fishCompletes() throws {
        #expect(try shellCompletes(.fish, "qrseal inbox ").contains("list"))
        let effort = try #require(Commands.scan.option(long: "effort")?.value)
        #expect(try shellCompletes(.fish, "qrseal scan --effort ").sorted() == effort.split(separator: "|").map(String.init).sorted())
    }

    @Test("an unknown or missing shell is a usage error")
    func unknownShell() {
        for arguments in [["completions"], ["completions", "tcsh"], ["completions", "bash", "zsh"]] {
            let r = qrseal(arguments)
            #expect(r.status == 64 && r.stderr.hasPrefix("qrseal: error: completions needs one shell"), "\(r.stderr)")
        }
    }

    @Test("the completions command is listed among the commands, before help")
    func listed() {
        let lines = qrseal(["--help"]).out.split(separator: "\n").map(String.init)
        let completions = lines.firstIndex { $0.hasPrefix("  completions   Print the completion script for bash, zsh or fish.") }
        let help = lines.firstIndex { $0.hasPrefix("  help ") }
        #expect(completions != nil && help != nil && completions! < help!, "\(lines)")
    }
}
