import Foundation
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

func qrseal(_ arguments: [String], stdin: Data? = nil, terminal: Bool = false) -> Captured {
    let out = Buffer(), err = Buffer()
    let console = Console(out: { out.data.append($0) }, err: { err.data.append($0) },
                          readInput: { stdin ?? Data() },
                          inputIsTerminal: stdin == nil, outputIsTerminal: terminal)
    let status = QRSealCLI.run(arguments: arguments, console: console)
    return Captured(status: status, stdout: out.data, stderr: String(decoding: err.data, as: UTF8.self))
}
