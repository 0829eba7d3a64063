import FoundationEssentials
import Glibc
import QRSealKit

/// `qrseal open`: a sealed message from pasted text (as a phone shows it) or from an image.
struct OpenCommand {
    /// Pasted text on standard input is refused past this size before it is looked at: the
    /// largest sealed message is 7,089 digits, and this leaves room for a lot of white space.
    static let maxTextBytes = 64 << 10

    let source: String
    let intake: Intake
    let output: String?
    let writer: PayloadWriter

    init(_ args: ParsedArguments, console: Console) throws(CLIError) {
        guard args.positionals.count <= 1 else { throw .usage("open takes one FILE (or - for standard input)") }
        source = args.positionals.first ?? "-"
        if source == "-" && console.inputIsTerminal {
            throw .usage("nothing to open", hint: "give an image or a text file, or pipe the text in: qrseal open - < note.txt")
        }
        let locations = Locations(console: console)
        let reader = Reader(opener: try args.opener(),
                            keys: try KeySources(args, console: console).keys + locations.keyringKeys(console: console))
        intake = Intake(reader: reader, keeping: try locations.keeping(args))
        writer = PayloadWriter(force: args.has("force"),
                               inputs: [source] + args.keyFiles + (args.has("no-store") ? [] : [try locations.inboxPath(args)]))
        output = try args.outputPath()
        try writer.check(output)
    }

    mutating func run(console: Console) throws(CLIError) -> ExitStatus {
        if source != "-", AgeFileOpening.isBinaryAgeFile(source) {
            return try AgeFileOpening(source: source, reader: intake.reader, output: output, writer: writer).run(console: console)
        }
        let bytes = try read(console: console)
        guard !bytes.isEmpty else { throw CLIError(message: "nothing to open: \(source) is empty") }
        var ask = PassphraseAsk()
        let outcomes = try ask.reopen(try received(bytes, console: console), intake: intake, console: console)
        let messages = try Self.messages(in: outcomes, source: source, partsAreKept: intake.keepsItems)
        if output != nil && messages.count > 1 {
            throw CLIError(message: "\(source): holds \(messages.count) sealed messages, and -o names one file",
                           hints: ["open it without -o: texts are printed, files are written under their own names"])
        }
        var tally = SealedTally()
        var locked = false
        var texts = 0
        for content in messages {
            switch content {
            case .opened(.text(let text)):
                if let output {
                    try writer.writeReporting(Array(text.utf8), named: "", to: output, console: console)
                } else {
                    Self.printText(text, after: texts, of: messages.count, console: console)
                    texts += 1
                }
            case .opened(.file(let name, let content)):
                try writer.writeReporting(content, named: name, to: output, console: console)
            case .failed:
                tally.count(content, source: source, console: console)
            case .locked(let kind, _):
                Diagnostics.report(CLIError(message: "\(source): the message is sealed with a \(kind) and none was given",
                                            hints: [KeySources.hint(for: kind)]), console: console)
                locked = true
            case .plain:
                break
            }
        }
        tally.printHints(console: console)
        var status = tally.status(otherwise: locked ? .cannotOpen : .success)
        // What was read is shown whether or not the inbox could keep it.
        if let failure = outcomes.lazy.compactMap(\.inboxFailure).first {
            Diagnostics.report(CLIError(failure), console: console)
            if status == .success { status = .failure }
        }
        return status
    }

    /// The input: a file, or standard input up to `maxTextBytes` unless it is an image.
    private func read(console: Console) throws(CLIError) -> [UInt8] {
        guard source == "-" else { return try Files.read(source, console: console) }
        let (start, more) = StandardInput.prefix(console, limit: Self.maxTextBytes)
        guard more else { return start }
        guard ImageDecoder.sniff(start) != nil else {
            throw StandardInput.tooLarge(limit: Self.maxTextBytes, what: "more than any sealed message")
        }
        return start + (try StandardInput.read(console, limit: Files.maxInputBytes - start.count,
                                                what: "the most this tool reads"))
    }

    /// A text message on standard output: as sealed when it is the only one (a line break is
    /// added on a terminal); among several, each ends with a line break and a blank line
    /// comes between them. On a terminal, control characters other than line breaks and tabs
    /// are shown escaped, as for any text from outside; a pipe or file gets the exact bytes.
    static func printText(_ text: String, after printed: Int = 0, of count: Int = 1, console: Console) {
        if printed > 0 { console.write(Data("\n".utf8)) }
        console.write(Data((console.outputIsTerminal ? DisplayText.escapeKeepingLines(text) : text).utf8))
        if !text.hasSuffix("\n") && (count > 1 || console.outputIsTerminal) { console.write(Data("\n".utf8)) }
    }

    /// What the input holds, through the intake (which keeps what was read): an image's
    /// symbols, or what a file or pasted text is.
    private func received(_ bytes: [UInt8], console: Console) throws(CLIError) -> [Outcome] {
        if ImageDecoder.sniff(bytes) != nil {
            let image: GrayImage
            do { image = try intake.reader.decoder.decode(bytes) } catch {
                throw CLIError(message: "\(source): \(error.description)")
            }
            let report = intake.reader.detector.examine(image)
            if report.detections.isEmpty, let missing = SharedLibrary.zbar.failure { throw CLIError(missing) }
            for failure in report.failures {
                if case .unavailable = failure.cause, report.detections.isEmpty { throw Diagnostics.engineError(failure, source: source) }
                Diagnostics.engineWarning(failure, source: source, console: console)
            }
            return intake.take(report.detections, from: .file(source))
        }
        let pasted = IntakeSource(name: source, recorded: source == "-" ? "pasted text" : source, kind: .text)
        guard let outcome = intake.take(given: bytes, from: pasted) else {
            throw CLIError(message: "\(source): neither an image nor sealed text")
        }
        if case .damagedSealed(let error) = outcome.classification {
            throw CLIError(message: "\(source): \(error.description)", status: Self.status(for: error))
        }
        return [outcome]
    }

    /// The contents of the sealed messages among `outcomes`, and of messages a piece
    /// completed; a piece of a message still incomplete, with no message beside it, is an error.
    static func messages(in outcomes: [Outcome], source: String, partsAreKept: Bool) throws(CLIError) -> [Reader.Content] {
        var contents: [Reader.Content] = []
        var waiting: PieceEvent?
        for outcome in outcomes {
            switch outcome.event {
            case .message(let content) where outcome.classification.isSealed: contents.append(content)
            case .piece(let piece):
                if let message = piece.completed { contents.append(message.content) } else { waiting = waiting ?? piece }
            case .message, .damagedPiece: break
            }
        }
        if contents.isEmpty, let piece = waiting {
            throw CLIError(message: "\(source): holds part \(piece.index + 1) of \(piece.progress.totalParts) of message "
                           + "\(piece.progress.idText), not a whole message",
                           hints: [(partsAreKept ? "it waits in the inbox; " : "")
                                   + "a message in parts is rebuilt by 'qrseal scan' from enough of its parts"])
        }
        guard !contents.isEmpty else {
            throw CLIError(message: "\(source): no sealed message found", status: .nothingFound)
        }
        return contents
    }

    /// 3 for a message that is intact in form but does not open; 2 for damaged or unsupported.
    static func status(for error: SealError) -> ExitStatus {
        switch error {
        case .authenticationFailed, .noKey, .noIdentityMatches: return .cannotOpen
        default: return .failure
        }
    }
}
