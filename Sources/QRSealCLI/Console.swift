import Foundation

/// Where the tool's output goes: the process's streams, or buffers in tests.
public final class Console: @unchecked Sendable {
    private let writeOut: (Data) -> Void
    private let writeErr: (Data) -> Void
    /// Standard input, read whole on demand.
    public let readInput: () -> Data
    /// Whether standard input is a terminal (no pipe or file behind it).
    public let inputIsTerminal: Bool
    /// Whether standard output is a terminal.
    public let outputIsTerminal: Bool
    /// The environment variables the tool reads (QRSEAL_PASSPHRASE).
    public let environment: [String: String]
    /// Asks for a secret on the terminal without echo; nil when there is no terminal.
    public let readSecret: (String) -> String?

    public init(out: @escaping (Data) -> Void, err: @escaping (Data) -> Void,
                readInput: @escaping () -> Data, inputIsTerminal: Bool, outputIsTerminal: Bool,
                environment: [String: String] = [:], readSecret: @escaping (String) -> String? = { _ in nil }) {
        self.writeOut = out
        self.writeErr = err
        self.readInput = readInput
        self.inputIsTerminal = inputIsTerminal
        self.outputIsTerminal = outputIsTerminal
        self.environment = environment
        self.readSecret = readSecret
    }

    /// The process's own standard streams, environment and terminal.
    public static var standard: Console {
        Console(out: { FileHandle.standardOutput.write($0) },
                err: { FileHandle.standardError.write($0) },
                readInput: { FileHandle.standardInput.readDataToEndOfFile() },
                inputIsTerminal: isatty(0) == 1, outputIsTerminal: isatty(1) == 1,
                environment: ProcessInfo.processInfo.environment,
                readSecret: Terminal.readSecret)
    }

    public func write(_ data: Data) { writeOut(data) }
    public func print(_ line: String) { writeOut(Data((line + "\n").utf8)) }
    public func printError(_ line: String) { writeErr(Data((line + "\n").utf8)) }
}
