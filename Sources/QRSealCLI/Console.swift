import Foundation
import QRSealKit

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
    /// The next line of standard input without its line break, nil at the end; reads no
    /// further than it must, so long inputs stream.
    public let readInputLine: () -> String?
    /// The terminal's width in columns, for tables.
    public let columns: Int

    public init(out: @escaping (Data) -> Void, err: @escaping (Data) -> Void,
                readInput: @escaping () -> Data, inputIsTerminal: Bool, outputIsTerminal: Bool,
                environment: [String: String] = [:], readSecret: @escaping (String) -> String? = { _ in nil },
                readInputLine: (() -> String?)? = nil, columns: Int = 100) {
        self.writeOut = out
        self.writeErr = err
        self.readInput = readInput
        self.inputIsTerminal = inputIsTerminal
        self.outputIsTerminal = outputIsTerminal
        self.environment = environment
        self.readSecret = readSecret
        self.columns = columns
        if let readInputLine {
            self.readInputLine = readInputLine
        } else {
            // Lines of readInput's data, read once on first use.
            let lines = LineBuffer(readInput)
            self.readInputLine = { lines.next() }
        }
    }

    /// The process's own standard streams, environment and terminal.
    public static var standard: Console {
        Console(out: { FileHandle.standardOutput.write($0) },
                err: { FileHandle.standardError.write($0) },
                readInput: { FileHandle.standardInput.readDataToEndOfFile() },
                inputIsTerminal: isatty(0) == 1, outputIsTerminal: isatty(1) == 1,
                environment: ProcessInfo.processInfo.environment,
                readSecret: Terminal.readSecret,
                readInputLine: { Terminal.readStandardInputLine() },
                columns: Terminal.columns())
    }

    public func write(_ data: Data) { writeOut(data) }
    public func print(_ line: String) { writeOut(Data((line + "\n").utf8)) }
    public func printError(_ line: String) { writeErr(Data((line + "\n").utf8)) }
    /// Writes to standard error as is, without a line break (the bell of `scan --beep`).
    public func writeError(_ data: Data) { writeErr(data) }
}

/// Splits data read on demand into lines.
final class LineBuffer: @unchecked Sendable {
    private let read: () -> Data
    private var lines: [ArraySlice<UInt8>]?
    private var index = 0

    init(_ read: @escaping () -> Data) { self.read = read }

    func next() -> String? {
        if lines == nil {
            var split = [UInt8](read()).split(separator: 0x0A, omittingEmptySubsequences: false)
            if split.last?.isEmpty == true { split.removeLast() }
            lines = split
        }
        guard let lines, index < lines.count else { return nil }
        defer { index += 1 }
        return RawBytes.string(lines[index])
    }
}
