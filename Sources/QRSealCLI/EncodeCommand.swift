import Foundation
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
        try StandardInput.read(console, limit: maxInputBytes, what: "more than a code can carry, even sealed")
    }

    /// The most input read: the most content a sealed message may carry once opened, far
    /// more than any plain code holds (2,953 bytes, or 7,089 digits).
    static let maxInputBytes = OpeningBudget.defaultContentBytes

    /// Refuses a regular file larger than `maxInputBytes` by its size, before reading it.
    private static func refuseOversized(_ file: String) throws(CLIError) {
        var info = stat()
        guard RawBytes.withCString(file, { stat($0, &info) }) == 0, (info.st_mode & S_IFMT) == S_IFREG,
              Int(info.st_size) > maxInputBytes else { return }
        throw CLIError(message: "\(file): input is \(info.st_size) bytes, too much for one QR code",
                       hints: ["a code holds at most \(QRCapacity.byteCapacity(version: 40, level: .low)) bytes "
                               + "or \(QRCapacity.mostBytes(level: .low)) digits; sealed input that compresses "
                               + "well may be up to \(maxInputBytes >> 20) MiB"])
    }

    func run(console: Console) throws(CLIError) -> ExitStatus {
        let matrix: QRMatrix
        if let key = sealKey, let form = ageArmor {
            matrix = try AgeSymbol.encode(input, with: key, form: form, symbol: encoder.symbol)
        } else if let key = sealKey {
            matrix = try sealed(with: key)
        } else {
            matrix = try plain()
        }
        let message = EncodedMessage.single(matrix, content: input)
        if outputs.animate { return try outputs.show(message, margin: margin, invert: invert, console: console) }
        let bytes: [UInt8]
        switch format {
        case .pdf, .gif:
            bytes = try outputs.file(message, format: format, name: inputName, key: sealKey, scale: scale, margin: margin,
                                     invert: invert)
        case .png:
            do {
                bytes = try PNGEncoder.encode(matrix.image(scale: scale, margin: margin, invert: invert), dpi: dpi)
            } catch {
                throw CLIError(message: error.description)
            }
        case .svg:
            bytes = Array(matrix.svg(scale: scale, margin: margin, invert: invert).utf8)
        case .terminal:
            bytes = Array(matrix.terminalText(margin: margin, invert: invert).utf8)
        case .ansi:
            bytes = Array(matrix.ansiText(margin: margin, invert: invert).utf8)
        }
        try target.write(bytes, console: console)
        return .success
    }

    /// UTF-8 input is text (densest segments); anything else is binary (one byte segment).
    private var plainContent: QREncoder.Content {
        isText ? .text(String(decoding: input, as: UTF8.self)) : .binary(input)
    }

    private func plain() throws(CLIError) -> QRMatrix {
        do {
            return try encoder.encode(plainContent)
        } catch {
            var failure = CLIError(message: error.description)
            if case .tooLarge = error {
                if let level = lowerLevelThatFits() {
                    failure.hints.append("it fits with --ec \(level.rawValue)")
                } else if encoder.symbol.level > .low, let fitsAtLow = largestAtLow() {
                    failure.hints.append("lower --ec (at L, up to \(fitsAtLow) bytes of this input fit)")
                } else {
                    failure.hints.append("shorten or compress the input")
                }
            }
            throw failure
        }
    }

    private func sealed(with key: SealKey) throws(CLIError) -> QRMatrix {
        // A named file travels with its name; text stays text; other bytes are a nameless file.
        let payload: Payload = inputName.map { .file(name: $0, bytes: input) }
            ?? (isText ? .text(String(decoding: input, as: UTF8.self)) : .file(name: "", bytes: input))
        do {
            return try encoder.encodeSealed(payload, with: key).0
        } catch {
            switch error {
            case .seal(let e): throw CLIError(message: e.description)
            case .symbol(let e): throw CLIError(message: e.description)
            case let .tooLarge(envelope, maxEnvelope, level):
                var failure = CLIError(message: "sealed message is \(envelope) bytes (input \(input.count) bytes), "
                    + "too much for one QR code: at most \(maxEnvelope) sealed bytes fit at error correction "
                    + "\(level.rawValue) with \(encoder.armor.rawValue) armor")
                if level > .low { failure.hints.append("lower --ec to fit more (L holds the most)") }
                if encoder.armor == .digits { failure.hints.append("--armor binary fits a little more") }
                throw failure
            }
        }
    }

    /// The most robust level below the one asked for at which the input fits, if any.
    private func lowerLevelThatFits() -> ErrorCorrection? {
        ErrorCorrection.allCases.reversed().first { level in
            var e = encoder.symbol
            e.level = level
            return level < encoder.symbol.level && (try? e.encode(plainContent)) != nil
        }
    }

    private func largestAtLow() -> Int? {
        var low = encoder.symbol
        low.level = .low
        do { _ = try low.encode(plainContent); return nil } catch {
            if case let .tooLarge(_, fits, _) = error { return fits }
            return nil
        }
    }
}
