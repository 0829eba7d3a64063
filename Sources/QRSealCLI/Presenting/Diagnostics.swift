import FoundationEssentials
import Glibc
import QRSealKit

/// The one place that formats errors and hints for the user. Messages embed names from
/// outside (paths, file names carried by codes, pasted text), so what a person reads is
/// escaped with `DisplayText`; with `--json` each error is one JSON object on a line, except
/// usage errors, which are for the person who typed the command line.
enum Diagnostics {
    /// Reports `error`. `source` is the input the error is about, as given on the command
    /// line; a message that starts with it has it in a field of its own in JSON.
    static func report(_ error: CLIError, console: Console, source: String? = nil) {
        guard console.jsonDiagnostics, error.status != .usage else {
            console.printError("qrseal: error: " + DisplayText.escape(error.message))
            for line in error.hints { hint(line, console: console) }
            return
        }
        var message = error.message
        if let source, message.hasPrefix(source + ": ") { message.removeFirst(source.count + 2) }
        var fields: [(String, JSON.Value)] = [("error", .string(message))]
        if let source { fields.append(("source", .string(source))) }
        if !error.hints.isEmpty { fields.append(("hints", .array(error.hints.map { .string($0) }))) }
        console.printError(JSON.line(fields))
    }

    /// A `qrseal: warning:` line about `source`, or `{"warning":…,"source":…}` with `--json`.
    static func warning(_ text: String, source: String, console: Console) {
        if console.jsonDiagnostics {
            console.printError(JSON.line([("warning", .string(text)), ("source", .string(source))]))
        } else {
            console.printError("qrseal: warning: " + DisplayText.escape("\(source): \(text)"))
        }
    }

    /// Why a library in the engine gave no answer on `source`: a warning when the other
    /// readers went on, an error when the engine could not run at all; how many errors.
    @discardableResult
    static func report(_ failures: [EngineFailure], source: String, console: Console) -> Int {
        var errors = 0
        for failure in failures {
            if case .unavailable = failure.cause {
                errors += 1
                report(engineError(failure, source: source), console: console, source: source)
            } else {
                engineWarning(failure, source: source, console: console)
            }
        }
        return errors
    }

    /// The error an engine that could not run at all is, with what to do.
    static func engineError(_ failure: EngineFailure, source: String) -> CLIError {
        CLIError(message: "\(source): \(failure)", hints: [engineHint])
    }

    /// What to do when the engine's helper is missing.
    static var engineHint: String { "reinstall qrseal: its helper \(Engine.executable) is part of it" }

    /// The warning for a library that gave no answer while the other readers went on.
    static func engineWarning(_ failure: EngineFailure, source: String, console: Console) {
        warning("\(failure); the other readers went on, but a code only it reads may be missed", source: source, console: console)
    }

    /// Tells of a waiting message dropped to keep the inbox within its limits.
    static func dropped(_ dropped: Inbox.DroppedMessage, console: Console) {
        let why: String
        switch dropped.reason {
        case .expired: why = "no part of it came for \(Inbox.WaitingLimits().expiry / 86_400_000) days"
        case .tooManyMessages: why = "too many messages were waiting, and it was added to least recently"
        case .tooManyPieces: why = "too many parts were waiting, and it was added to least recently"
        }
        hint("message \(dropped.progress.idText) (\(dropped.progress.text)) was dropped from the inbox: \(why)", console: console)
    }

    /// A `qrseal: hint:` line, or `{"hint":…}` with `--json`.
    static func hint(_ text: String, console: Console) {
        if console.jsonDiagnostics {
            console.printError(JSON.line([("hint", .string(text))]))
        } else {
            console.printError("qrseal: hint: " + DisplayText.escape(text))
        }
    }
}

extension CLIError {
    /// A library opened on first use that is missing or broken: the package that installs it.
    init(_ error: LibraryError) {
        self.init(message: error.description, hints: ["install it: apt-get install \(error.library.package)"])
    }
}
