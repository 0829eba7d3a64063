import Foundation
import TestSupport
@testable import QRSealCLI

/// Runs the tool in-process with a captured console.
struct Captured {
    let status: Int32
    let stdout: Data
    let stderr: String
    var out: String { String(decoding: stdout, as: UTF8.self) }
}

final class Buffer: @unchecked Sendable {
    var data = Data()
}

/// `environment` stands for the process environment; `answers` are typed at successive
/// prompts, a passphrase's or a question's (none left means there is no terminal to ask on).
func qrseal(_ arguments: [String], stdin: Data? = nil, terminal: Bool = false,
            environment: [String: String] = [:], answers: [String] = [], errorTerminal: Bool = false) -> Captured {
    let out = Buffer(), err = Buffer(), prompts = Buffer()
    var remaining = answers
    let lock = NSLock()
    let console = Console(out: { out.data.append($0) }, err: { err.data.append($0) },
                          readInput: { stdin ?? Data() },
                          inputIsTerminal: stdin == nil, outputIsTerminal: terminal,
                          environment: ["XDG_DATA_HOME": Tools.scratchHome + "/data",
                                        "XDG_CONFIG_HOME": Tools.scratchHome + "/config",
                                        "XDG_CACHE_HOME": Tools.scratchHome + "/cache"].merging(environment) { $1 },
                          readSecret: { prompt in
                              lock.lock(); defer { lock.unlock() }
                              prompts.data.append(Data(prompt.utf8))
                              return remaining.isEmpty ? nil : remaining.removeFirst()
                          }, errorIsTerminal: errorTerminal,
                          ask: { question in
                              lock.lock(); defer { lock.unlock() }
                              prompts.data.append(Data(question.utf8))
                              return remaining.isEmpty ? nil : remaining.removeFirst()
                          })
    let status = QRSealCLI.run(arguments: arguments, console: console)
    return Captured(status: status, stdout: out.data, stderr: String(decoding: err.data, as: UTF8.self))
}
