import FoundationEssentials
import Glibc
import QRSealKit

/// Where the tool's output goes: the process's streams, or buffers in tests.
///
/// A write that fails is never fatal: the first failure on standard output is reported on
/// standard error (`cannot write standard output: REASON`), later output to that stream is
/// dropped, and `writeFailed` makes the command end with status 2.
public final class Console: @unchecked Sendable {
    /// Why a write failed: the errno of write(2).
    public struct WriteFailure: Error {
        public let code: Int32
        public init(code: Int32) { self.code = code }
        /// strerror's text, lowercased as our messages are.
        var reason: String { SystemFiles.reason(code) }
    }

    private let writeOut: (Data) throws(WriteFailure) -> Void
    private let writeErr: (Data) throws(WriteFailure) -> Void
    private let lock = Lock()
    private var outFailed = false, errFailed = false
    /// Standard input, read whole on demand.
    public let readInput: () -> Data
    /// Up to the given number of further bytes of standard input, fewer only at its end, so
    /// that an endless input can be refused without holding it.
    public let readInputPart: (Int) -> Data
    /// Whether standard input is a terminal (no pipe or file behind it).
    public let inputIsTerminal: Bool
    /// Whether standard output is a terminal.
    public let outputIsTerminal: Bool
    /// Whether standard error is a terminal: where long work shows its progress.
    public let errorIsTerminal: Bool
    /// The environment variables the tool reads (QRSEAL_PASSPHRASE, TMPDIR, COLUMNS, …): the
    /// process's own, or in tests, those a test gives; nothing reads the process's otherwise.
    public let environment: [String: String]
    /// Asks for a secret on the terminal without echo; nil when there is no terminal.
    public let readSecret: (String) -> String?
    /// Asks a question on the terminal and reads the answer, echoed as typed; nil when there
    /// is no terminal to ask on (or it ended before a line).
    public let ask: (String) -> String?
    /// The next line of standard input without its line break, nil at the end; reads no
    /// further than it must, so long inputs stream.
    public let readInputLine: () -> String?
    /// The terminal's width in columns, for tables: as given, else `COLUMNS`, else 100.
    public let columns: Int
    /// The terminal's height in lines, for full-screen output (`encode --animate`): as
    /// given, else `LINES`, else 40.
    public let rows: Int
    /// The terminal's size now, asked again as a window may be resized (`encode --animate`).
    public let terminalSize: () -> (columns: Int, rows: Int)
    /// Whether errors and hints go to standard error as JSON lines (set for `--json`).
    var jsonDiagnostics = false

    public init(out: @escaping (Data) throws(WriteFailure) -> Void, err: @escaping (Data) throws(WriteFailure) -> Void,
                readInput: @escaping () -> Data, inputIsTerminal: Bool, outputIsTerminal: Bool,
                environment: [String: String] = [:], readSecret: @escaping (String) -> String? = { _ in nil },
                readInputLine: (() -> String?)? = nil, columns: Int? = nil,
                readInputPart: ((Int) -> Data)? = nil, rows: Int? = nil,
                terminalSize: (() -> (columns: Int, rows: Int))? = nil, errorIsTerminal: Bool = false,
                ask: @escaping (String) -> String? = { _ in nil }) {
        self.writeOut = out
        self.writeErr = err
        self.readInput = readInput
        self.readInputPart = readInputPart ?? InputParts(readInput).next
        self.inputIsTerminal = inputIsTerminal
        self.outputIsTerminal = outputIsTerminal
        self.errorIsTerminal = errorIsTerminal
        self.environment = environment
        self.readSecret = readSecret
        self.ask = ask
        let columns = columns ?? Terminal.count(environment["COLUMNS"]) ?? 100
        let rows = rows ?? Terminal.count(environment["LINES"]) ?? 40
        self.columns = columns
        self.rows = rows
        self.terminalSize = terminalSize ?? { (columns, rows) }
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
        let environment = StandardStreams.environment()
        return Console(out: { data throws(WriteFailure) in try StandardStreams.write(data, to: 1) },
                err: { data throws(WriteFailure) in try StandardStreams.write(data, to: 2) },
                readInput: { StandardStreams.readAll() },
                inputIsTerminal: isatty(0) == 1, outputIsTerminal: isatty(1) == 1,
                environment: environment,
                readSecret: Terminal.readSecret,
                readInputLine: { StandardStreams.readLine() },
                columns: Terminal.columns(environment: environment),
                readInputPart: { StandardStreams.read(upTo: $0) },
                rows: Terminal.rows(environment: environment),
                terminalSize: { (Terminal.columns(environment: environment), Terminal.rows(environment: environment)) },
                errorIsTerminal: isatty(2) == 1,
                ask: Terminal.ask)
    }

    public func write(_ data: Data) { send(data, toError: false) }
    public func print(_ line: String) { send(Data((line + "\n").utf8), toError: false) }
    public func printError(_ line: String) { send(Data((line + "\n").utf8), toError: true) }
    /// Writes to standard error as is, without a line break (the bell of `scan --beep`).
    public func writeError(_ data: Data) { send(data, toError: true) }

    /// Whether a write to standard output or standard error failed.
    public var writeFailed: Bool {
        lock.lock(); defer { lock.unlock() }
        return outFailed || errFailed
    }

    private func send(_ data: Data, toError: Bool) {
        lock.lock()
        defer { lock.unlock() }
        guard !(toError ? errFailed : outFailed) else { return }
        do {
            try (toError ? writeErr : writeOut)(data)
        } catch {
            if toError { errFailed = true; return }
            outFailed = true
            // Standard error may still work; if it does not, the status says it.
            let message = "qrseal: error: cannot write standard output: \(error.reason)\n"
            do { try writeErr(Data(message.utf8)) } catch { errFailed = true }
        }
    }
}

/// Hands out data read on demand in parts of a given size.
final class InputParts: @unchecked Sendable {
    private let read: () -> Data
    private var data: Data?
    private var offset = 0

    init(_ read: @escaping () -> Data) { self.read = read }

    func next(_ count: Int) -> Data {
        if data == nil { data = read() }
        let part = data!.dropFirst(offset).prefix(count)
        offset += part.count
        return Data(part)
    }
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
