import Foundation
import QRSealKit

/// `qrseal open`: a sealed message from pasted text (as a phone shows it) or from an image.
struct OpenCommand {
    /// Pasted text on standard input is refused past this size before it is looked at: the
    /// largest sealed message is 7,089 digits, and this leaves room for a lot of white space.
    static let maxTextBytes = 64 << 10

    let source: String
    var reader: Reader
    let output: String?
    let writer: PayloadWriter
    let store: ItemStore?

    init(_ args: ParsedArguments, console: Console) throws(CLIError) {
        guard args.positionals.count <= 1 else { throw .usage("open takes one FILE (or - for standard input)") }
        source = args.positionals.first ?? "-"
        if source == "-" && console.inputIsTerminal {
            throw .usage("nothing to open", hint: "give an image or a text file, or pipe the text in: qrseal open - < note.txt")
        }
        let locations = Locations(console: console)
        reader = Reader(opener: try args.opener(),
                        keys: try KeySources(args, console: console).keys + locations.keyringKeys(console: console))
        store = args.has("no-store") ? nil : try ItemStore(args, locations: locations)
        writer = PayloadWriter(force: args.has("force"),
                               inputs: [source] + args.keyFiles + (store == nil ? [] : [try locations.inboxPath(args)]))
        output = try args.outputPath()
        try writer.check(output)
    }

    mutating func run(console: Console) throws(CLIError) -> ExitStatus {
        if source != "-", AgeFileOpening.isBinaryAgeFile(source) {
            return try AgeFileOpening(source: source, reader: reader, output: output, writer: writer).run(console: console)
        }
        let bytes = try read(console: console)
        guard !bytes.isEmpty else { throw CLIError(message: "nothing to open: \(source) is empty") }
        let messages = try sealedMessages(in: bytes, console: console)
        guard !messages.isEmpty else {
            throw CLIError(message: "\(source): no sealed message found", status: .nothingFound)
        }
        if output != nil && messages.count > 1 {
            throw CLIError(message: "\(source): holds \(messages.count) sealed messages, and -o names one file",
                           hints: ["open it without -o: texts are printed, files are written under their own names"])
        }
        // Only a message that passes every check without a key is worth asking for one.
        let kinds = Set(messages.compactMap { try? reader.opener.keyKind($0.get()) })
        if kinds.contains("passphrase"), !reader.keys.contains(where: \.isPassphrase),
           let key = try KeySources.prompt(console: console, confirm: false) {
            // Only a passphrase can be typed; the prompt reads the terminal, not standard input.
            reader.keys.append(key)
        }
        var tally = SealedTally()
        var locked = false
        var texts = 0
        for message in messages {
            let content: Reader.Content
            switch message {
            case .success(let envelope): content = reader.open(envelope: envelope)
            case .failure(let error): content = .failed(error)
            }
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
            case .sealed(let kind, _):
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
        if let failure = store?.failure {
            Diagnostics.report(failure, console: console)
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

    /// The sealed messages in an image's symbols, or in text, each an envelope or the reason it
    /// is not one; what was read is kept in the inbox.
    private func sealedMessages(in bytes: [UInt8], console: Console) throws(CLIError) -> [Result<[UInt8], SealError>] {
        // An age file, binary or armored (pasted armor may have white space around it).
        if AgeFile.isAgeFile(bytes) {
            if AgeArmor.isArmored(bytes), let text = String(validating: bytes, as: UTF8.self) {
                let from = source == "-" ? "pasted text" : source
                store?.deferringFailure { store throws(CLIError) in try store.keepText(text.trimmingCharacters(in: .whitespacesAndNewlines), source: from) }
            }
            return [.success(bytes)]
        }
        if ImageDecoder.sniff(bytes) != nil {
            let image: GrayImage
            do { image = try reader.decoder.decode(bytes) } catch {
                throw CLIError(message: "\(source): \(error.description)")
            }
            let report = reader.detector.examine(image)
            var detections = report.detections
            if detections.isEmpty, let missing = SharedLibrary.zbar.failure { throw CLIError(missing) }
            for failure in report.failures {
                if case .unavailable = failure.cause, detections.isEmpty { throw Diagnostics.engineError(failure, source: source) }
                Diagnostics.engineWarning(failure, source: source, console: console)
            }
            // A part of a larger message is no message yet: scan gathers parts.
            if let piece = detections.lazy.compactMap({ try? PartIntake.piece($0) }).first {
                detections.removeAll(where: PartIntake.isPiece)
                if !detections.contains(where: { Armor.isSealed($0.bytes) }) {
                    throw CLIError(message: "\(source): holds part \(piece.index + 1) of \(piece.totalParts) of message "
                                   + "\(piece.idText), not a whole message",
                                   hints: ["a message in parts is rebuilt by 'qrseal scan' from enough of its parts"])
                }
            }
            store?.deferringFailure { store throws(CLIError) in try store.keep(detections, source: source, kind: .file) }
            var found: [Result<[UInt8], SealError>] = []
            for d in detections where Armor.isSealed(d.bytes) || AgeFile.isAgeFile(d.bytes) {
                if AgeFile.isAgeFile(d.bytes) {
                    found.append(.success(d.bytes))
                    continue
                }
                do throws(SealError) {
                    if let envelope = try Armor.envelope(fromSymbol: d.bytes) { found.append(.success(envelope)) }
                } catch {
                    found.append(.failure(error))
                }
            }
            return found
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw CLIError(message: "\(source): neither an image nor sealed text")
        }
        do {
            let envelope = try Armor.envelope(fromText: text)
            let kept = Armor.text(for: envelope), from = source == "-" ? "pasted text" : source
            store?.deferringFailure { store throws(CLIError) in try store.keepText(kept, source: from) }
            return [.success(envelope)]
        } catch {
            throw CLIError(message: "\(source): \(error.description)", status: Self.status(for: error))
        }
    }

    /// 3 for a message that is intact in form but does not open; 2 for damaged or unsupported.
    static func status(for error: SealError) -> ExitStatus {
        switch error {
        case .authenticationFailed, .noKey, .noIdentityMatches: return .cannotOpen
        default: return .failure
        }
    }
}
