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
        // O_EXCL: never replace an existing file, even one made between check and open.
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            if errno == EEXIST {
                throw CLIError(message: "\(path): file exists; a key file is never overwritten",
                               hints: ["choose another name, or remove the old key if you are sure it is not needed"])
            }
            throw CLIError(message: "\(path): cannot create: \(Files.errnoText())")
        }
        let written = line.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        let synced = fsync(fd) == 0
        close(fd)
        guard written == line.count, synced else {
            unlink(path)
            throw CLIError(message: "\(path): cannot write: \(Files.errnoText())")
        }
        console.printError("qrseal: wrote a new key to \(path)")
        return .success
    }
}
