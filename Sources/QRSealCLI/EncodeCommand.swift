import Foundation
import QRSealKit

/// `qrseal encode`: text or a file to a QR code.
struct EncodeCommand {
    enum Format: String { case png, svg, terminal }

    let content: QREncoder.Content
    let output: String?
    let format: Format
    let encoder: QREncoder
    let scale: Int
    let margin: Int

    /// Validates the parsed arguments and reads the input.
    init(_ args: ParsedArguments, console: Console) throws(CLIError) {
        guard args.positionals.count <= 1 else {
            throw .usage("encode takes one TEXT argument; quote text with spaces",
                         hint: "for example: qrseal encode 'hello world'")
        }
        let level: ErrorCorrection
        if let letter = args.value("ec") {
            guard let l = ErrorCorrection(letter: letter) else {
                throw .usage("--ec must be L, M, Q or H, not '\(letter)'")
            }
            level = l
        } else {
            level = .medium
        }
        encoder = QREncoder(level: level, minVersion: try args.integer("min-version", in: 1...40, default: 1))
        scale = try args.integer("scale", in: 1...100, default: 8)
        margin = try args.integer("margin", in: 0...100, default: 4)
        output = args.value("output")

        if let name = args.value("format") {
            guard let f = Format(rawValue: name) else {
                throw .usage("--format must be png, svg or terminal, not '\(name)'")
            }
            format = f
        } else if let out = output, out != "-" {
            let ext = URL(fileURLWithPath: out).pathExtension.lowercased()
            format = ext == "svg" ? .svg : (ext == "txt" ? .terminal : .png)
        } else {
            format = output == nil && console.outputIsTerminal ? .terminal : .png
        }
        if format == .png && console.outputIsTerminal && (output == nil || output == "-") {
            throw .usage("will not write a PNG image to the terminal",
                         hint: "pass -o FILE.png, or --format terminal to see the code here")
        }

        content = try Self.readContent(args, console: console)
        if content.byteCount == 0 {
            throw CLIError(message: "nothing to encode: the input is empty")
        }
    }

    private static func readContent(_ args: ParsedArguments, console: Console) throws(CLIError) -> QREncoder.Content {
        let text = args.positionals.first
        if let file = args.value("input") {
            if text != nil { throw .usage("give TEXT or --input FILE, not both") }
            return content(of: try Files.read(file, console: console))
        }
        if let text, text != "-" { return .text(text) }
        if text == nil && console.inputIsTerminal {
            throw .usage("nothing to encode", hint: "give TEXT, --input FILE, or pipe data in")
        }
        return content(of: try Files.read("-", console: console))
    }

    /// UTF-8 input is text (densest segments); anything else is binary (one byte segment).
    private static func content(of bytes: [UInt8]) -> QREncoder.Content {
        if let text = String(validating: bytes, as: UTF8.self) { return .text(text) }
        return .binary(bytes)
    }

    func run(console: Console) throws(CLIError) -> ExitStatus {
        let matrix: QRMatrix
        do {
            matrix = try encoder.encode(content)
        } catch {
            var failure = CLIError(message: error.description)
            if case .tooLarge = error {
                if let level = lowerLevelThatFits() {
                    failure.hints.append("it fits with --ec \(level.rawValue)")
                } else if encoder.level > .low, let fitsAtLow = largestAtLow() {
                    failure.hints.append("lower --ec (at L, up to \(fitsAtLow) bytes of this input fit)")
                } else {
                    failure.hints.append("shorten or compress the input")
                }
            }
            throw failure
        }
        let bytes: [UInt8]
        switch format {
        case .png:
            do { bytes = try PNGEncoder.encode(matrix.image(scale: scale, margin: margin)) } catch {
                throw CLIError(message: error.description)
            }
        case .svg:
            bytes = Array(matrix.svg(scale: scale, margin: margin).utf8)
        case .terminal:
            bytes = Array(matrix.terminalText(margin: margin).utf8)
        }
        try Files.write(bytes, to: output ?? "-", console: console)
        return .success
    }

    /// The most robust level below the one asked for at which the input fits, if any.
    private func lowerLevelThatFits() -> ErrorCorrection? {
        ErrorCorrection.allCases.reversed().first { level in
            var e = encoder
            e.level = level
            return level < encoder.level && (try? e.encode(content)) != nil
        }
    }

    private func largestAtLow() -> Int? {
        var low = encoder
        low.level = .low
        do { _ = try low.encode(content); return nil } catch {
            if case let .tooLarge(_, fits, _) = error { return fits }
            return nil
        }
    }
}

extension QREncoder.Content {
    var byteCount: Int {
        switch self {
        case .text(let s): return s.utf8.count
        case .binary(let b): return b.count
        }
    }
}
