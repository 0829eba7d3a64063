import FoundationEssentials
import Glibc
import QRSealKit

/// `encode`'s outputs of a whole message, of one code or many: the printable sheet
/// (`--format pdf`, `--paper`, `--per-page`), the animated GIF (`--format gif`, `--fps`) and
/// the terminal animation (`--animate`, `--fps`, `--loop`).
struct MessageOutputs {
    /// The sheet's paper and codes per page (nil: by the codes' version).
    let paper: Paper
    let perPage: Int?
    /// `--animate`: the codes shown one after another on the terminal.
    let animate: Bool
    /// Frames per second of the animation or the GIF, and the terminal animation's loops.
    let fps: Double
    let loops: Int

    static let defaultFrameRate = 5.0

    /// Validates the options against the format and where the output goes.
    init(_ args: ParsedArguments, format: EncodeCommand.Format, output: String?, invert: Bool,
         console: Console) throws(CLIError) {
        paper = try args.choice("paper", of: Paper.self) ?? .a4
        perPage = args.value("per-page") == nil ? nil : try args.integer("per-page", in: 1...Sheet.maximumSymbols, default: 1)
        for option in ["paper", "per-page"] where args.value(option) != nil && format != .pdf {
            throw .usage("--\(option) applies to pdf output, not \(format.rawValue)")
        }
        if invert && format == .pdf {
            throw .usage("--invert does not apply to pdf output: a sheet is printed dark on light")
        }
        animate = args.has("animate")
        if animate {
            guard console.outputIsTerminal, output == nil || output == "-" else {
                throw .usage("--animate draws on a terminal, and standard output is not one",
                             hint: "--format gif -o NAME.gif writes the animation to a file")
            }
            guard format == .terminal else {
                throw .usage("--animate shows the codes as terminal text, not as \(format.rawValue)",
                             hint: "--format gif -o NAME.gif writes an animated image")
            }
        }
        fps = try Self.frameRate(args)
        if args.value("fps") != nil && !animate && format != .gif {
            throw .usage("--fps applies to --animate and gif output")
        }
        loops = try args.integer("loop", in: 0...1_000_000, default: 0)
        if args.value("loop") != nil && !animate { throw .usage("--loop applies to --animate") }
    }

    /// `--fps F`: frames per second, a decimal number within what a GIF can show.
    private static func frameRate(_ args: ParsedArguments) throws(CLIError) -> Double {
        guard let text = args.value("fps") else { return defaultFrameRate }
        let range = AnimatedGIF.frameRates
        guard let fps = Double(text), fps.isFinite, range.contains(fps),
              text.allSatisfy({ $0.isNumber || $0 == "." }) else {
            throw .usage("--fps must be a number of frames per second from "
                         + "\(NumberText.brief(range.lowerBound)) to \(NumberText.brief(range.upperBound)), not '\(text)'")
        }
        return fps
    }

    /// The bytes of the pdf sheet or the gif of `message`; `name` is the input file's name,
    /// `key` the key it was sealed with, if it was, which the sheet says is needed to open it.
    func file(_ message: EncodedMessage, format: EncodeCommand.Format, name: String?, key: SealKey?, scale: Int,
              margin: Int, invert: Bool, console: Console) throws(CLIError) -> [UInt8] {
        do {
            if format == .pdf {
                let progress = ProgressLine("drawing the sheet:", console: console)
                defer { progress.finish() }
                return try Sheet(message, paper: paper, perPage: perPage, name: name, note: key?.sheetNote, quietZone: margin)
                    .pdf(progress: progress.update)
            }
            return try AnimatedGIF.encode(message, scale: scale, margin: margin, fps: fps, invert: invert)
        } catch .library(let error) {
            throw CLIError(error)
        } catch {
            throw CLIError(message: error.description)
        }
    }

    /// `--animate`: the codes on the terminal; one code is shown still, as `--format terminal` shows it.
    func show(_ message: EncodedMessage, margin: Int, invert: Bool, console: Console) throws(CLIError) -> ExitStatus {
        guard message.symbols.count > 1 else {
            console.printError("qrseal: the message fits one code: nothing to animate, shown as is")
            console.write(Data(message.symbols[0].matrix.terminalText(margin: margin, invert: invert).utf8))
            return .success
        }
        return try TerminalAnimation(message: message, fps: fps, loops: loops, margin: margin, invert: invert)
            .run(console: console)
    }
}
