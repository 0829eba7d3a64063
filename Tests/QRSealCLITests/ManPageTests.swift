import Foundation
import Testing
import TestSupport
@testable import QRSealCLI

/// The manual, `man/*.1` (mdoc): qrseal(1) is the overview, and each command has a home page,
/// the one other page whose SYNOPSIS names it (qrseal(1) itself for `help` and
/// `completions`), where its SYNOPSIS lists every option and its description has an entry
/// for each. Checked against the same command data that makes `--help`.
@Suite("Man pages")
struct ManPageTests {
    struct Page {
        let name: String
        let text: String

        /// The lines of section `name` (`.Sh NAME` up to the next `.Sh`).
        func section(_ name: String) -> [String] {
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            guard let start = lines.firstIndex(of: ".Sh " + name) else { return [] }
            let rest = lines[(start + 1)...]
            return Array(rest.prefix { !$0.hasPrefix(".Sh ") })
        }

        /// Every line but those of the SYNOPSIS.
        var body: [String] {
            let synopsis = Set(section("SYNOPSIS"))
            return text.split(separator: "\n").map(String.init).filter { !synopsis.contains($0) }
        }

        /// The SYNOPSIS cut into its entries, one for each `.Nm`, by the command their `.Cm` names.
        var synopsis: [(command: String, text: String)] {
            var entries: [(command: String, text: String)] = []
            for line in section("SYNOPSIS") {
                if line.hasPrefix(".Nm") {
                    entries.append((command: "", text: line))
                } else if !entries.isEmpty {
                    if entries[entries.count - 1].command.isEmpty, line.hasPrefix(".Cm ") {
                        entries[entries.count - 1].command = String(line.dropFirst(4))
                    }
                    entries[entries.count - 1].text += "\n" + line
                }
            }
            return entries
        }
    }

    static let folder = Tools.packageRoot.appendingPathComponent("man")

    static let pages: [Page] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".1") }.sorted().map { file in
            Page(name: String(file.dropLast(2)),
                 text: (try? String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)) ?? "")
        }
    }()

    static var overview: Page { pages.first { $0.name == "qrseal" }! }

    /// Every command the tool runs, `completions` included (it is left out of the help).
    static let commands = Commands.all + [Completions.spec]

    /// `Fl NAME` as a whole word in `text`: `Fl -key-file` is not found in `Fl -key-file-x`.
    static func mentions(_ text: String, flag: String) -> Bool {
        var rest = text[...]
        while let range = rest.range(of: "Fl " + flag) {
            let next = rest[range.upperBound...].first
            if next == nil || !(next!.isLetter || next!.isNumber || next! == "-") { return true }
            rest = rest[range.upperBound...]
        }
        return false
    }

    /// The page a command is documented in, or an explanation of why there is not exactly one.
    static func home(of command: String) -> Result<Page, PageError> {
        let named = pages.filter { page in page.synopsis.contains { $0.command == command } }
        let own = named.filter { $0.name != "qrseal" }
        if own.count == 1 { return .success(own[0]) }
        if own.isEmpty, named.count == 1 { return .success(named[0]) }
        return .failure(PageError(text: "the SYNOPSIS of \(named.map(\.name)) names '\(command)'; one page must"))
    }

    struct PageError: Error { let text: String }

    @Test("there is an overview and a page for each family of commands")
    func pagesExist() {
        #expect(Self.pages.map(\.name).contains("qrseal"))
        #expect(Self.pages.count >= 5, "\(Self.pages.map(\.name))")
        for page in Self.pages {
            #expect(page.text.contains(".Dt \(page.name.uppercased()) 1\n"), "\(page.name): .Dt")
            #expect(page.section("NAME").first == ".Nm \(page.name)", "\(page.name): NAME")
            for section in ["NAME", "SYNOPSIS", "DESCRIPTION", "EXIT STATUS", "EXAMPLES", "SEE ALSO"] {
                #expect(page.text.contains(".Sh \(section)\n"), "\(page.name) has no \(section)")
            }
        }
    }

    @Test("every option of every command is in its command's SYNOPSIS and described on its page",
          arguments: commands.map(\.name))
    func everyOption(command name: String) throws {
        let command = try #require(Self.commands.first { $0.name == name })
        let page: Page
        switch Self.home(of: name) {
        case .success(let found): page = found
        case .failure(let error): Issue.record("\(error.text)"); return
        }
        let synopsis = page.synopsis.filter { $0.command == name }.map(\.text).joined(separator: "\n")
        let items = page.body.filter { $0.hasPrefix(".It ") }.joined(separator: "\n")
        for option in command.options {
            let inSynopsis = Self.mentions(synopsis, flag: "-" + option.long)
                || option.short.map { Self.mentions(synopsis, flag: String($0)) } == true
            #expect(inSynopsis, "--\(option.long) of \(name) missing from the SYNOPSIS of \(page.name)")
            #expect(Self.mentions(items, flag: "-" + option.long), "--\(option.long) of \(name) not described in \(page.name)")
            if let short = option.short {
                #expect(Self.mentions(items, flag: String(short)), "-\(short) of \(name) not described in \(page.name)")
            }
        }
    }

    @Test("qrseal(1) lists every command, every exit status, and every other page in SEE ALSO; each page points back")
    func overview() {
        let commands = Self.overview.section("COMMANDS").joined(separator: "\n")
        for command in Self.commands {
            #expect(commands.contains(".It Cm \(command.name)"), "\(command.name) missing from COMMANDS of qrseal(1)")
        }
        let statuses = Self.overview.section("EXIT STATUS")
        for status in [ExitStatus.success, .nothingFound, .failure, .cannotOpen, .usage] {
            #expect(statuses.contains { $0.hasPrefix(".It \(status.rawValue)") }, "exit status \(status.rawValue) missing")
        }
        let seeAlso = Self.overview.section("SEE ALSO")
        for page in Self.pages where page.name != "qrseal" {
            #expect(seeAlso.contains { $0.hasPrefix(".Xr \(page.name) 1") }, "\(page.name) missing from SEE ALSO of qrseal(1)")
            #expect(page.section("SEE ALSO").contains { $0.hasPrefix(".Xr qrseal 1") }, "\(page.name) does not point at qrseal(1)")
        }
    }

    @Test("every page renders without a warning", .enabled(if: Tools.which("groff") != nil))
    func renders() throws {
        for page in Self.pages {
            let r = try Tools.run("groff", ["-mandoc", "-Tutf8", "-ww", "-z",
                                            Self.folder.appendingPathComponent(page.name + ".1").path])
            #expect(r.status == 0 && r.stderr.isEmpty, "\(page.name): \(r.stderr)")
        }
    }
}
