import FoundationEssentials
import Glibc
import QRSealKit

/// `qrseal encode`: text or a file to a QR code, sealed when asked.
struct EncodeCommand {
    enum Format: String, CaseIterable { case png, svg, terminal, ansi, pdf, gif }

    /// What to encode: the bytes as given, and whether they came from a named file.
    let input: [UInt8]
    let inputName: String?
    let isText: Bool
    let output: String?
    let target: Output
    let format: Format
    let encoder: Encoder
    let sealKey: SealKey?
    /// `--armor age` (false) or `age-text` (true): an age file in the symbol instead of an envelope.
    let ageArmor: AgeSymbol.Form?
    let scale: Int
    let margin: Int
    let invert: Bool
    /// Dots per inch recorded in a PNG, if asked.
    let dpi: Int?
    /// How a message larger than one code is split.
    let split: SplitOptions
    /// The options of the outputs of a whole message: the sheet, the GIF, --animate.
    let outputs: MessageOutputs

    /// Validates the parsed arguments, reads the input and gathers the key.
    init(_ args: ParsedArguments, console: Console) throws(CLIError) {
        guard args.positionals.count <= 1 else {
            throw .usage("encode takes one TEXT argument; quote text with spaces",
                         hint: "for example: qrseal encode 'hello world'")
        }
        let symbol = QREncoder(level: try args.errorCorrection(),
                               minVersion: try args.integer("min-version", in: 1...40, default: 1))
        ageArmor = try AgeSymbol.form(args)
        encoder = Encoder(symbol: symbol, armor: ageArmor == nil ? try args.armor() : .digits,
                          sealer: Sealer(compress: !args.has("no-compress")))
        split = SplitOptions(maxVersion: try args.integer("max-version", in: 1...40, default: 40),
                             redundancy: try args.integer("redundancy", in: 0...1000, default: SplitOptions.defaultRedundancy),
                             parts: args.value("parts") == nil ? nil : try args.integer("parts", in: 2...Part.maxParts, default: 2))
        if symbol.minVersion > split.maxVersion {
            throw .usage("--min-version \(symbol.minVersion) is above --max-version \(split.maxVersion)")
        }
        scale = try args.integer("scale", in: 1...100, default: 8)
        margin = try args.integer("margin", in: 0...100, default: 4)
        output = try args.outputPath()
        format = try Self.format(args, output: output, console: console)
        invert = args.has("invert")
        dpi = args.value("dpi") == nil ? nil : try args.integer("dpi", in: 1...100_000, default: 0)
        if dpi != nil && format != .png {
            throw .usage("--dpi applies to png output, not \(format.rawValue)")
        }
        outputs = try MessageOutputs(args, format: format, output: output, invert: invert, console: console)
        // Refused before the input is read or a passphrase asked for.
        target = Output(path: output ?? "-", force: args.has("force"),
                        inputs: (args.value("input").map { [$0] } ?? []) + args.keyFiles)
        try target.check()

        let (bytes, name) = try Self.readInput(args, console: console)
        guard !bytes.isEmpty else { throw CLIError(message: "nothing to encode: the input is empty") }
        input = bytes
        inputName = name
        isText = String(validating: bytes, as: UTF8.self) != nil

        let sources = try KeySources(args, console: console)
        // --armor and --no-compress only mean something for a sealed message: they ask for one.
        let asked = ["seal", "armor", "no-compress"].first { args.has($0) || args.value($0) != nil }
        if let recipients = try AgeSymbol.recipients(args, console: console) {
            guard try sources.sealingKey() == nil else {
                throw .usage("seal with --to or with a key, not both",
                             hint: "drop --key-file or --passphrase-file, or run with \(KeySources.environmentVariable) unset")
            }
            sealKey = .recipients(recipients)
        } else if let key = try sources.sealingKey() {
            sealKey = key
        } else if let asked {
            guard let key = try KeySources.prompt(console: console, confirm: true) else {
                throw CLIError(message: "--\(asked) seals the message, which needs a key, and there is no "
                               + "terminal to ask for a passphrase", hints: [KeySources.hint])
            }
            sealKey = key
        } else {
            sealKey = nil
        }
    }

    private static func format(_ args: ParsedArguments, output: String?, console: Console) throws(CLIError) -> Format {
        let format: Format
        if let f = try args.choice("format", of: Format.self) {
            format = f
        } else if let out = output, out != "-" {
            format = try byExtension(out)
        } else {
            format = output == nil && console.outputIsTerminal ? .terminal : .png
        }
        if [.png, .pdf, .gif].contains(format) && console.outputIsTerminal && (output == nil || output == "-") {
            throw .usage("will not write a \(format.rawValue.uppercased()) \(format == .pdf ? "document" : "image") to the terminal",
                         hint: "pass -o FILE.\(format.rawValue), or --format terminal to see the code here")
        }
        return format
    }

    /// The format `-o FILE`'s extension names: .png (or none), .svg, .txt for terminal text,
    /// .ans for ANSI colours, .pdf for a printable sheet, .gif for an animated image; another
    /// image format's is refused rather than written as something else.
    private static func byExtension(_ path: String) throws(CLIError) -> Format {
        let ext = URL(fileURLWithPath: path).pathExtension.lowercased()
        switch ext {
        case "svg": return .svg
        case "txt": return .terminal
        case "ans": return .ansi
        case "pdf": return .pdf
        case "gif": return .gif
        default:
            // An image format other than ours would be a PNG under a name that says otherwise;
            // any other name (code.out, a name without an extension) gets the default, png.
            guard let name = otherImageFormats[ext] else { return .png }
            throw .usage("\(DisplayText.escape(path)): cannot write \(name): use .png, .svg, .txt, .ans, .pdf or .gif, or --format")
        }
    }

    /// Extensions of image formats encode does not write, with the formats' names.
    private static let otherImageFormats = [
        "jpg": "JPEG", "jpeg": "JPEG", "jpe": "JPEG", "jfif": "JPEG", "webp": "WEBP",
        "tif": "TIFF", "tiff": "TIFF", "bmp": "BMP", "eps": "EPS", "ps": "PostScript",
        "heic": "HEIC", "heif": "HEIF", "avif": "AVIF", "jxl": "JPEG XL", "ico": "ICO",
        "pnm": "PNM", "pbm": "PBM", "pgm": "PGM", "ppm": "PPM",
    ]

    /// The input's bytes and, for `--input FILE`, the file's name.
    private static func readInput(_ args: ParsedArguments, console: Console) throws(CLIError) -> ([UInt8], String?) {
        let text = args.positionals.first
        if let file = args.value("input") {
            if text != nil { throw .usage("give TEXT or --input FILE, not both") }
            let name = file == "-" ? nil : SystemFiles.lastComponent(of: file)
            guard file != "-" else { return (try readStandardInput(console), nil) }
            try refuseOversized(file)
            return (try Files.read(file, console: console), name)
        }
        if let text, text != "-" { return (RawBytes.bytes(text), nil) }
        if text == nil && console.inputIsTerminal {
            throw .usage("nothing to encode", hint: "give TEXT, --input FILE, or pipe data in")
        }
        return (try readStandardInput(console), nil)
    }

    /// Standard input, refused once it passes `maxInputBytes`, without reading further.
    private static func readStandardInput(_ console: Console) throws(CLIError) -> [UInt8] {
        try StandardInput.read(console, limit: maxInputBytes, what: "more than a message in parts carries")
    }

    /// The most input read: the most content a sealed message may carry once opened, and
    /// about what a message in parts carries (16 MiB less one byte, with its inner header).
    static let maxInputBytes = OpeningBudget.defaultContentBytes

    /// Refuses a regular file larger than `maxInputBytes` by its size, before reading it.
    private static func refuseOversized(_ file: String) throws(CLIError) {
        var info = stat()
        guard RawBytes.withCString(file, { stat($0, &info) }) == 0, (info.st_mode & S_IFMT) == S_IFREG,
              Int(info.st_size) > maxInputBytes else { return }
        throw CLIError(message: "\(file): input is \(info.st_size) bytes, more than a message in parts carries",
                       hints: ["a message is split into parts of up to \(maxInputBytes >> 20) MiB in all"])
    }

    /// Whether `args` are those of an encode that needs no libcrypto while it stays one
    /// symbol: nothing sealed, no parts asked for, no sheet (which prints the content's hash).
    /// The sheet counts whether `--format pdf` asks for it or `-o FILE.pdf` does.
    static func isPlain(_ spec: CommandSpec, _ args: ParsedArguments) -> Bool {
        let sheet = args.value("format").map { $0.lowercased() == Format.pdf.rawValue }
            ?? args.value("output").map { (try? byExtension($0)) == .pdf } ?? false
        return spec.name == Commands.encode.name && !sheet
            && !["seal", "key-file", "passphrase-file", "to", "armor", "parts"].contains { args.has($0) || args.value($0) != nil }
    }

    func run(console: Console) throws(CLIError) -> ExitStatus {
        let message = try encodedMessage()
        if outputs.animate { return try outputs.show(message, margin: margin, invert: invert, console: console) }
        try write(message, console: console)
        return .success
    }

    /// The message as symbols: today's one symbol when it fits (and no --parts asks
    /// otherwise), else its parts. A sealed message is sealed once, as a whole, then split.
    func encodedMessage() throws(CLIError) -> EncodedMessage {
        if let key = sealKey, let form = ageArmor {
            // An age file is one symbol: parts carry qrseal's own envelope or plain content.
            return EncodedMessage(single: try AgeSymbol.encode(input, with: key, form: form, symbol: encoder.symbol),
                                  content: input)
        }
        do {
            return try encoder.message(EncodeInput(bytes: input, name: inputName), key: sealKey, split: split)
        } catch {
            switch error {
            case .seal(let error): throw CLIError(message: error.description)
            case .symbol(let error): throw CLIError(message: error.description)
            case .library(let error): throw CLIError(error)
            case .split(let error):
                var failure = CLIError(message: "cannot split the message: " + error.description)
                if case .cannotSplit = error, split.parts != nil { failure.hints.append("give more --parts, or a larger --max-version") }
                throw failure
            }
        }
    }

    /// UTF-8 input is text (densest segments); anything else is binary (one byte segment).
    private var plainContent: QREncoder.Content { EncodeInput(bytes: input, name: inputName).plainContent }

    /// One symbol to the output; parts to one file each (`NAME-01-of-12.png`) for png and
    /// svg, or one after another, each under its label, for terminal text. Every file is
    /// checked before any is written, and a failure removes the parts already written.
    private func write(_ message: EncodedMessage, console: Console) throws(CLIError) {
        if format == .pdf || format == .gif {
            // A sheet or an animated image holds the whole message in one file.
            try target.write(try outputs.file(message, format: format, name: inputName, key: sealKey, scale: scale,
                                              margin: margin, invert: invert, console: console), console: console)
        } else if message.symbols.count == 1 {
            return try target.write(try render(message.symbols[0].matrix), console: console)
        }
        let count = message.symbols.count
        switch format {
        case .pdf, .gif:
            guard count > 1 else { return }
        case .png, .svg:
            guard let output, output != "-" else {
                throw CLIError(message: "the message needs \(count) codes, one \(format.rawValue) file each",
                               hints: ["pass -o NAME.\(format.rawValue) to write NAME-01-of-\(EncodedMessage.partNumber(count, count)).\(format.rawValue) and the others"])
            }
            let targets = EncodedMessage.partPaths(output, count: count).map {
                Output(path: $0, force: target.force, inputs: target.inputs)
            }
            for part in targets { try part.check() }
            // Every part is drawn before any is written, and they are written all or none.
            var drawn: [[UInt8]] = []
            do {
                let progress = ProgressLine("drawing", console: console)
                defer { progress.finish() }
                for symbol in message.symbols {
                    drawn.append(try render(symbol.matrix))
                    progress.update(drawn.count, of: count)
                }
            }
            try Output.writeAllOrNone(targets, drawn, console: console)
        case .terminal, .ansi:
            var text = ""
            for symbol in message.symbols {
                text += DisplayText.escape(symbol.label ?? "") + "\n" + String(decoding: try render(symbol.matrix), as: UTF8.self)
            }
            try target.write(Array(text.utf8), console: console)
        }
        let first = message.symbols[0].matrix
        console.printError("qrseal: split into \(count) parts (\(message.dataParts) needed), version "
                           + "\(first.version)-\(first.level.rawValue), message id \(message.id ?? "")")
        if split.parts == nil, sealKey == nil, let level = lowerLevelThatFits() {
            Diagnostics.hint("it fits one code with --ec \(level.rawValue)", console: console)
        }
    }

    /// The most robust level below the one asked for at which the plain input fits one code.
    private func lowerLevelThatFits() -> ErrorCorrection? {
        ErrorCorrection.allCases.reversed().first { level in
            var e = encoder.symbol
            e.level = level
            return level < encoder.symbol.level && (try? e.encode(plainContent)) != nil
        }
    }

    /// One symbol in the chosen format.
    private func render(_ matrix: QRMatrix) throws(CLIError) -> [UInt8] {
        switch format {
        case .png:
            do {
                return try matrix.png(scale: scale, margin: margin, invert: invert, dpi: dpi)
            } catch {
                throw CLIError(message: error.description)
            }
        case .svg: return Array(matrix.svg(scale: scale, margin: margin, invert: invert).utf8)
        case .terminal: return Array(matrix.terminalText(margin: margin, invert: invert).utf8)
        case .ansi: return Array(matrix.ansiText(margin: margin, invert: invert).utf8)
        case .pdf, .gif: preconditionFailure("write(_:console:) hands a sheet or a GIF the whole message")
        }
    }
}
