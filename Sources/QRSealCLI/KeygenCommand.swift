import Foundation
import QRSealKit

/// `qrseal keygen`: a new random key, to a file created with mode 0600 or to standard output.
struct KeygenCommand {
    let output: Output

    init(_ args: ParsedArguments) throws(CLIError) {
        guard args.positionals.isEmpty else { throw .usage("keygen takes no arguments") }
        output = Output(path: try args.outputPath() ?? "-", force: args.has("force"), isPrivate: true)
        try output.check()
    }

    func run(console: Console) throws(CLIError) -> ExitStatus {
        let key: SecretKey
        do { key = try SecretKey.generate() } catch { throw CLIError(message: error.description) }
        try output.write(Array((key.text + "\n").utf8), console: console)
        if output.path != "-" { console.printError("qrseal: wrote a new key to \(DisplayText.escape(output.path))") }
        return .success
    }
}
