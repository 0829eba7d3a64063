import Foundation
import QRSealKit

/// `qrseal open`: a sealed message from pasted text (as a phone shows it) or from an image.
struct OpenCommand {
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
        output = args.value("output")
        writer = PayloadWriter(force: args.has("force"))
    }

    mutating func run(console: Console) throws(CLIError) -> ExitStatus {
        let bytes = try Files.read(source, console: console)
        guard !bytes.isEmpty else { throw CLIError(message: "nothing to open: \(source) is empty") }
        let envelopes = try envelopes(in: bytes)
        guard !envelopes.isEmpty else {
            throw CLIError(message: "\(source): no sealed message found", status: .nothingFound)
        }
        let kinds = Set(envelopes.compactMap { try? Opener.describe($0).keyKind })
        if kinds.contains("passphrase"), !reader.keys.contains(where: \.isPassphrase),
           let key = try KeySources.prompt(console: console, confirm: false) {
            // Only a passphrase can be typed; the prompt reads the terminal, not standard input.
            reader.keys.append(key)
        }
        if reader.keys.isEmpty {
            throw CLIError(message: "\(source): no key given to open the sealed message",
                           hints: kinds.map(KeySources.hint(for:)).sorted(), status: .cannotOpen)
        }
        var status = ExitStatus.success
        for envelope in envelopes {
            switch reader.open(envelope: envelope) {
            case .opened(.text(let text)):
                console.write(Data(text.utf8))
                if !text.hasSuffix("\n") && console.outputIsTerminal { console.write(Data("\n".utf8)) }
            case .opened(.file(let name, let content)):
                let path = output ?? PayloadWriter.fileName(name)
                try writer.write(content, to: path, console: console)
                if path != "-" { console.printError("qrseal: wrote \(path) (\(content.count) bytes)") }
            case .failed(let error):
                Diagnostics.report(CLIError(message: "\(source): \(error.description)"), console: console)
                status = Self.status(for: error)
            case .sealed(let kind, _):
                Diagnostics.report(CLIError(message: "\(source): the message is sealed with a \(kind) and none was given",
                                            hints: [KeySources.hint(for: kind)]), console: console)
                status = .cannotOpen
            case .plain:
                break
            }
        }
        // What was read is shown whether or not the inbox could keep it.
        if let failure = store?.failure {
            Diagnostics.report(failure, console: console)
            if status == .success { status = .failure }
        }
        return status
    }

    /// Sealed envelopes in an image's symbols, or in text; what was read is kept in the inbox.
    private func envelopes(in bytes: [UInt8]) throws(CLIError) -> [[UInt8]] {
        if ImageDecoder.sniff(bytes) != nil {
            let image: GrayImage
            do { image = try reader.decoder.decode(bytes) } catch {
                throw CLIError(message: "\(source): \(error.description)")
            }
            var found: [[UInt8]] = []
            let detections = reader.detector.detect(in: image)
            store?.deferringFailure { store throws(CLIError) in try store.keep(detections, source: source, kind: .file) }
            for d in detections where Armor.isSealed(d.bytes) {
                do {
                    if let e = try Armor.envelope(fromSymbol: d.bytes) { found.append(e) }
                } catch {
                    throw CLIError(message: "\(source): \(error.description)")
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
            return [envelope]
        } catch {
            throw CLIError(message: "\(source): \(error.description)", status: Self.status(for: error))
        }
    }

    /// 3 for a message that is intact in form but does not open; 2 for damaged or unsupported.
    static func status(for error: SealError) -> ExitStatus {
        switch error {
        case .authenticationFailed, .noKey: return .cannotOpen
        default: return .failure
        }
    }
}
