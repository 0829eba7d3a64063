import Foundation
import Testing
import TestSupport
@testable import QRSealCLI

/// What a shell offers for `line` (its last word being typed), run by the shell itself with
/// the script `qrseal completions SHELL` prints, in `directory`, with `environment` (the
/// tests' own when nil). A shell that is missing is recorded as an issue.
func shellCompletes(_ shell: Completions.Shell, _ line: String, in directory: String? = nil,
                    environment: [String: String]? = nil) throws -> [String] {
    guard Tools.which(shell.rawValue) != nil else {
        Issue.record("\(shell) is missing: 'make setup' installs it")
        return []
    }
    let dir = try TempDir()
    let script = qrseal(["completions", shell.rawValue])
    #expect(script.status == 0, "\(script.stderr)")
    let r: ToolResult
    switch shell {
    case .bash:
        // The function the script registers, called as bash calls it on a Tab.
        let path = try dir.write("qrseal.bash", script.stdout)
        var words = line.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        if words.last != "" && line.hasSuffix(" ") { words.append("") }
        let quoted = words.map { "'" + $0 + "'" }.joined(separator: " ")
        let program = """
            source '\(path)'
            COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1)
            _qrseal
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        r = try Tools.run("bash", ["--norc", "-c", program], environment: environment, currentDirectory: directory)
    case .zsh:
        // Tests/Support/scripts/zsh-complete.zsh types the line and a Tab into an interactive
        // zsh on a pseudo-terminal, with the script installed as _qrseal and compinit loaded.
        _ = try dir.write("_qrseal", script.stdout)
        let driver = Tools.packageRoot.appendingPathComponent("Tests/Support/scripts/zsh-complete.zsh").path
        r = try Tools.run("timeout", ["60", "zsh", "-f", driver, dir.url.path, line],
                          environment: environment, currentDirectory: directory)
    case .fish:
        let path = try dir.write("qrseal.fish", script.stdout)
        var env = environment ?? Tools.environment()
        env["HOME"] = dir.url.path
        let quotedLine = "'" + line.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
        r = try Tools.run("fish", ["--no-config", "-c", "source '\(path)'; complete -C \(quotedLine)"],
                          environment: env, currentDirectory: directory)
    }
    #expect(r.status == 0 && r.stderr.isEmpty, "\(shell) '\(line)': \(r.stderr)")
    // fish follows each candidate with a tab and its description.
    return r.stdoutText.split(separator: "\n").map { String($0.prefix { $0 != "\t" }) }
}

func bashCompletes(_ line: String, in directory: String? = nil) throws -> [String] {
    try shellCompletes(.bash, line, in: directory)
}

func zshCompletes(_ line: String, in directory: String? = nil) throws -> [String] {
    try shellCompletes(.zsh, line, in: directory)
}
