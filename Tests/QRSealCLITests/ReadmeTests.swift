import Foundation
import Testing
import TestSupport

/// The transcripts of README.md and docs/TOUR.md, run as a reader would type them.
///
/// A block fenced ```` ```console ```` is a transcript: each line starting `$ ` is a command
/// (`friend$ ` one typed by a second person, with a keyring of their own), and the lines up to
/// the next command are what it prints, standard output and standard error together. In an
/// expected line `…` stands for any text (a date, a random message id, a temporary path). A
/// block fenced ```` ```console no-run ```` is shown but not run (it needs a camera or a
/// picture of text). Each document's blocks run in order in one empty folder of its own, with
/// the built `qrseal` first on PATH; each `##` section starts with an empty inbox and keyring.
@Suite("README examples")
struct ReadmeTests {
    struct Command {
        let person: String
        let line: String
        var expected: [String] = []
        let readmeLine: Int
    }

    struct Section {
        let title: String
        var commands: [Command] = []
    }

    static let readme = Tools.packageRoot.appendingPathComponent("README.md")
    /// The documents whose transcripts run: the README's three short sessions, and the tour.
    static let documents = ["README.md", "docs/TOUR.md"]

    /// The runnable transcripts of `text`, by section.
    static func sections(of text: String) -> [Section] {
        var sections: [Section] = [Section(title: "(top)")]
        var inBlock = false, runnable = false
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if !inBlock, line.hasPrefix("## ") {
                sections.append(Section(title: String(line.dropFirst(3))))
            } else if line.hasPrefix("```") {
                if inBlock { inBlock = false; continue }
                inBlock = true
                runnable = line == "```console"
            } else if inBlock && runnable {
                if let prompt = line.firstRange(of: "$ "), line[..<prompt.lowerBound].allSatisfy(\.isLetter) {
                    let person = line[..<prompt.lowerBound].isEmpty ? "you" : String(line[..<prompt.lowerBound])
                    sections[sections.count - 1].commands.append(
                        Command(person: person, line: String(line[prompt.upperBound...]), readmeLine: index + 1))
                } else if !sections[sections.count - 1].commands.isEmpty {
                    let last = sections[sections.count - 1].commands.count - 1
                    sections[sections.count - 1].commands[last].expected.append(String(line))
                }
            }
        }
        return sections.filter { !$0.commands.isEmpty }
    }

    /// Whether `line` is what `pattern` shows, `…` in it standing for any text.
    static func matches(_ line: String, _ pattern: String) -> Bool {
        let pieces = pattern.components(separatedBy: "…")
        guard pieces.count > 1 else { return line == pattern }
        guard line.hasPrefix(pieces[0]), line.hasSuffix(pieces[pieces.count - 1]),
              line.count >= pieces[0].count + pieces[pieces.count - 1].count else { return false }
        var rest = line.dropFirst(pieces[0].count).dropLast(pieces[pieces.count - 1].count)
        for piece in pieces.dropFirst().dropLast() {
            guard let found = rest.range(of: piece) else { return false }
            rest = rest[found.upperBound...]
        }
        return true
    }

    @Test("the matcher takes … for any text, and nothing else")
    func placeholder() {
        #expect(Self.matches("id 9190CDBE done", "id … done"))
        #expect(Self.matches(" 3 2026-11-30 12:12 sealed", " 3 … sealed"))
        #expect(Self.matches("a-b-c", "a…b…c"))
        #expect(!Self.matches("a-c", "a…b…c"))
        #expect(!Self.matches("ab", "a…b…"+"b"))
        #expect(!Self.matches("hello", "hello "))
    }

    @Test("the README shows its three sessions, and the transcripts that run cover the main journeys")
    func journeysAreRun() throws {
        let readme = try String(contentsOf: Self.readme, encoding: .utf8)
        let titles = readme.split(separator: "\n").filter { $0.hasPrefix("## ") }.map { String($0.dropFirst(3)) }
        for session in ["Two commands", "A sealed note", "A paper backup", "The desktop app", "Read more"] {
            #expect(titles.contains(session), "README.md has no section '\(session)': \(titles)")
        }
        let shown = Self.sections(of: readme).flatMap(\.commands).map(\.line)
        for needed in ["qrseal keygen", "--key-file", "qrseal open", "--passphrase-file", "-o backup.pdf", "qrseal scan"] {
            #expect(shown.contains { $0.contains(needed) }, "no README transcript that is run has '\(needed)'")
        }
        var commands: [String] = []
        for document in Self.documents {
            let text = try String(contentsOf: Tools.packageRoot.appendingPathComponent(document), encoding: .utf8)
            commands += Self.sections(of: text).flatMap(\.commands).map(\.line)
        }
        for needed in ["qrseal encode", "qrseal scan", "qrseal open", "--passphrase-file", "--key-file", "--to ",
                       "qrseal inbox list", "qrseal inbox show", "qrseal keygen", "--format terminal"] {
            #expect(commands.contains { $0.contains(needed) }, "no transcript that is run has '\(needed)'")
        }
    }

    @Test("every transcript in README.md and docs/TOUR.md prints what it shows",
          .enabled(if: Tools.which("zbarimg") != nil && Tools.which("pdftoppm") != nil), arguments: documents)
    func transcripts(_ document: String) throws {
        let text = try String(contentsOf: Tools.packageRoot.appendingPathComponent(document), encoding: .utf8)
        let work = try TempDir()
        let folder = work.path("work")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let bin = URL(fileURLWithPath: Tools.qrseal).deletingLastPathComponent().path
        var base = ProcessInfo.processInfo.environment.filter {
            !$0.key.hasPrefix("QRSEAL_") && !$0.key.hasPrefix("XDG_") && $0.key != "COLUMNS"
        }
        base["PATH"] = bin + ":/usr/local/bin:/usr/bin:/bin"
        for (number, section) in Self.sections(of: text).enumerated() {
            var homes: [String: String] = [:]
            for command in section.commands {
                let home = homes[command.person] ?? work.path("home-\(number)-\(command.person)")
                if homes[command.person] == nil {
                    try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
                    homes[command.person] = home
                }
                var env = base
                env["HOME"] = home
                let r = try Tools.run("/bin/bash", ["-c", "exec 2>&1; " + command.line], environment: env,
                                      currentDirectory: folder)
                let where_ = "\(document):\(command.readmeLine) (\(section.title)): \(command.line)"
                if r.status != 0 && !command.line.contains("$?") {
                    Issue.record("\(where_): exit \(r.status), and the transcript shows no status\n\(r.stdoutText)")
                }
                var lines = r.stdoutText.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
                if lines.last == "" { lines.removeLast() }
                let same = lines.count == command.expected.count
                    && zip(lines, command.expected).allSatisfy { Self.matches($0, $1) }
                #expect(same, "\(where_)\n--- shown:\n\(command.expected.joined(separator: "\n"))\n--- printed:\n\(lines.joined(separator: "\n"))")
            }
        }
    }

    @Test("every file under a target's folder is a source or excluded in Package.swift: make demo and make test print no SwiftPM warning about unhandled files")
    func noUnhandledFiles() throws {
        let root = Tools.packageRoot
        let manifest = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
        // The folders the targets exclude, as `exclude: ["scripts"]` names them under `path:`.
        var excluded: [String] = []
        for line in manifest.split(separator: "\n") where line.contains("exclude:") {
            let path = line.firstMatch(of: /path: "([^"]+)"/).map { String($0.1) } ?? ""
            let list = line.firstMatch(of: /exclude: \[([^\]]*)\]/).map { String($0.1) } ?? ""
            for name in list.matches(of: /"([^"]+)"/) { excluded.append(path + "/" + String(name.1)) }
        }
        let sources: Set<String> = ["swift", "c", "h", "cpp", "modulemap"]
        var unhandled: [String] = []
        for folder in ["Sources", "Tests/Support"] {
            let base = root.appendingPathComponent(folder)
            let files = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil)?.allObjects as? [URL] ?? []
            for file in files where !file.hasDirectoryPath {
                let relative = folder + "/" + file.path.dropFirst(base.path.count + 1)
                guard !sources.contains(file.pathExtension), !excluded.contains(where: { relative.hasPrefix($0 + "/") }) else { continue }
                unhandled.append(relative)
            }
        }
        #expect(unhandled.isEmpty, "\(unhandled)")
    }
}
