import Foundation
import QRSealKit

/// `qrseal keygen`: a new random key, to a file created with mode 0600 or to standard output.
struct KeygenCommand {
    let output: String?

    init(_ args: ParsedArguments) throws(CLIError) {
        guard args.positionals.isEmpty else { throw .usage("keygen takes no arguments") }
        output = args.value("output")
    }

    func run(console: Console) throws(CLIError) -> ExitStatus {
        let key: SecretKey
        do { key = try SecretKey.generate() } catch { throw CLIError(message: error.description) }
        let line = Array((key.text + "\n").utf8)
        guard let path = output, path != "-" else {
            console.write(Data(line))
            return .success
        }
        do {
            try key.save(to: path)
        } catch {
            switch error {
            case .exists:
                throw CLIError(message: "\(path): file exists; a key file is never overwritten",
                               hints: ["choose another name, or remove the old key if you are sure it is not needed"])
            case .io(let reason):
                throw CLIError(message: "\(path): cannot create: \(reason)")
            }
        }
        console.printError("qrseal: wrote a new key to " + DisplayText.escape(path))
        return .success
    }
}
