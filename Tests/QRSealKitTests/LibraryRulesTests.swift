import Foundation
import Testing
import TestSupport

/// Two rules of docs/ARCHITECTURE.md, checked on the sources themselves so that a new file
/// cannot break them unseen:
///
/// - The library never prints, never exits, never reads the environment or the terminal: the
///   command line decides all of that. A trap for a broken invariant (`precondition`,
///   `assert`, `fatalError`) is allowed: it is a programmer's error, not a way out the library
///   chooses, and no outside input may reach one.
/// - Each C module (the `C…` targets of Package.swift) is imported by one Swift file, or by a
///   few in one folder, each named `Type+library.swift` — or, for a toolkit wrapped as a whole
///   (GTK), by the files of the one folder that is its wrapper and nothing else.
@Suite("QRSealKit: the rules of the library")
struct LibraryRulesTests {
    static let sources = Tools.packageRoot.appendingPathComponent("Sources")

    /// A Swift file's path under `Sources/` and its text.
    struct SourceFile {
        let path: String
        let text: String
    }

    /// Every `.swift` file under `Sources/` + `folder` (all of them for ""), sorted by path.
    static func swiftFiles(under folder: String) throws -> [SourceFile] {
        let root = folder.isEmpty ? sources : sources.appendingPathComponent(folder)
        guard let walk = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else { return [] }
        var files: [SourceFile] = []
        for case let url as URL in walk where url.pathExtension == "swift" {
            let path = String(url.path.dropFirst(sources.path.count + 1))
            files.append(SourceFile(path: path, text: try String(contentsOf: url, encoding: .utf8)))
        }
        return files.sorted { $0.path < $1.path }
    }

    /// `text` with its comments blanked out, lines kept where they were.
    static func code(_ text: String) -> [String] {
        let noBlocks = text.replacing(/\/\*[\s\S]*?\*\//) { match in
            String(match.output.filter { $0 == "\n" })
        }
        return noBlocks.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.firstRange(of: "//").map { String(line[..<$0.lowerBound]) } ?? String(line)
        }
    }

    /// What the library must not do: words that a line must hold for `pattern` to be tried
    /// (Swift's regular expressions are slow on some 30,000 lines), and the pattern that finds it.
    static var forbidden: [(what: String, words: [String], pattern: Regex<Substring>)] { [
        ("prints", ["print(", "dump("], /(?:^|[^\w.])(?:print|debugPrint|dump)\(/),
        ("writes to a standard stream", ["FileHandle"], /FileHandle\.standard(?:Output|Error)|FileHandle\(fileDescriptor: *[12]\b/),
        ("writes to a standard stream", ["stdout", "stderr", "printf(", "puts(", "putchar(", "perror("],
         /\b(?:stdout|stderr)\b|\b(?:printf|puts|putchar|perror)\(/),
        ("writes to a standard stream", ["write("], /\bwrite\( *(?:1|2|STDOUT_FILENO|STDERR_FILENO) *,/),
        ("exits", ["exit(", "Exit(", "abort("], /(?:^|[^\w.])(?:exit|_exit|_Exit|abort)\(|Glibc\.exit\(/),
        ("reads the environment", ["environ", "getenv(", "setenv(", "putenv("],
         /ProcessInfo\.processInfo\.environment|\b(?:getenv|secure_getenv|setenv|unsetenv|putenv)\(|\benviron\b/),
        ("reads the terminal", ["standardInput", "stdin", "STDIN_FILENO", "readLine(", "isatty(", "tcgetattr(", "/dev/tty"],
         /FileHandle\.standardInput|\bstdin\b|STDIN_FILENO|\breadLine\((?:\)|strippingNewline)|\bisatty\(|\btcgetattr\(|"\/dev\/tty"/),
    ] }

    @Test("QRSealKit never prints, exits, or reads the environment or the terminal")
    func libraryStaysQuiet() throws {
        let files = try Self.swiftFiles(under: "QRSealKit")
        #expect(files.count > 50, "found only \(files.count) files under Sources/QRSealKit")
        var offenders: [String] = []
        let rules = Self.forbidden
        for file in files {
            for (index, line) in Self.code(file.text).enumerated() {
                for rule in rules where rule.words.contains(where: line.contains) && line.contains(rule.pattern) {
                    offenders.append("\(file.path):\(index + 1): \(rule.what): \(line.trimmingCharacters(in: .whitespaces))")
                }
            }
        }
        #expect(offenders.isEmpty, "\(offenders.joined(separator: "\n"))")
    }

    @Test("no shipped code imports Foundation: FoundationEssentials, without ICU's 34 MB of data")
    func foundationEssentialsOnly() throws {
        var offenders: [String] = []
        for file in try Self.swiftFiles(under: "") {
            for (index, line) in Self.code(file.text).enumerated()
            where line.contains(/^\s*(?:@\w+\s+)?(?:public\s+)?import\s+(?:\w+\s+)?(?:Foundation|FoundationInternationalization)(?:\.|\s|$)/) {
                offenders.append("\(file.path):\(index + 1)")
            }
        }
        #expect(offenders.isEmpty, "\(offenders.joined(separator: "\n"))")
    }

    /// The `C…` targets that Package.swift declares.
    static func cModules() throws -> Set<String> {
        let manifest = try String(contentsOf: Tools.packageRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
        let declared = manifest.matches(of: /\.(?:systemLibrary|target)\(name: "(C\w+)"/).map { String($0.output.1) }
        return Set(declared)
    }

    /// Imports that break the rule today, kept here until their files move (issue 26); an
    /// entry that no longer breaks it fails the test too, so the list only shrinks.
    static let knownOffenders: Set<String> = [
        "CEngine: Detect/Engines/ZXingEngine+zxing.swift, Engine/EnginePool+engine.swift, Engine/TesseractStartCheck+engine.swift",
        "CLoader: Engine/TesseractStartCheck+engine.swift, Recognize/TextRecognizer+tesseract.swift, Support/SharedLibrary+loader.swift",
        "CTesseract: Engine/TesseractStartCheck+engine.swift, Recognize/TextRecognizer+tesseract.swift",
    ]

    /// C modules whose wrapper is a whole folder: every file there may import it, no file
    /// elsewhere may.
    static let wrapperFolders = ["CGtk": "QRSealDesktop/Toolkit"]

    @Test("each C module is imported from one file, or from Type+library.swift files of one folder")
    func oneHomePerCLibrary() throws {
        let modules = try Self.cModules()
        #expect(modules.contains("CSQLite") && modules.contains("CLoader") && modules.contains("CGtk"), "\(modules)")
        var importers: [String: [String]] = [:]
        for file in try Self.swiftFiles(under: "") {
            for line in Self.code(file.text) where line.contains("import ") {
                guard let match = line.firstMatch(of: /^\s*(?:@\w+\s+)?(?:(?:public|internal|package|private|fileprivate)\s+)?import\s+(?:\w+\s+)?(\w+)/),
                      modules.contains(String(match.output.1)) else { continue }
                importers[String(match.output.1), default: []].append(file.path)
            }
        }
        var broken: Set<String> = []
        for (module, files) in importers {
            let folders = Set(files.map { ($0 as NSString).deletingLastPathComponent })
            let named = files.allSatisfy { ($0 as NSString).lastPathComponent.contains("+") }
            if let folder = Self.wrapperFolders[module] {
                if folders != [folder] { broken.insert("\(module): " + Self.shorten(files).joined(separator: ", ")) }
                continue
            }
            if folders.count > 1 || !named {
                broken.insert("\(module): " + Self.shorten(files).joined(separator: ", "))
            }
        }
        for entry in broken.subtracting(Self.knownOffenders).sorted() {
            Issue.record("imported from more than one place, or from a file not named Type+library.swift: \(entry)")
        }
        for entry in Self.knownOffenders.subtracting(broken).sorted() {
            Issue.record("no longer breaks the rule as listed: take it out of knownOffenders: \(entry)")
        }
    }

    /// Paths under `Sources/QRSealKit/` without that prefix, to keep the messages short.
    static func shorten(_ files: [String]) -> [String] {
        files.sorted().map { $0.hasPrefix("QRSealKit/") ? String($0.dropFirst("QRSealKit/".count)) : $0 }
    }
}
