import FoundationEssentials
import Glibc
import QRSealKit

/// `qrseal keygen`: a new random key, to a file created with mode 0600 or to standard output.
struct KeygenCommand {
    let output: Output
    let x25519: Bool

    init(_ args: ParsedArguments) throws(CLIError) {
        guard args.positionals.isEmpty else { throw .usage("keygen takes no arguments") }
        output = Output(path: try args.outputPath() ?? "-", force: args.has("force"), isPrivate: true)
        x25519 = args.has("x25519")
        try output.check()
    }

    func run(console: Console) throws(CLIError) -> ExitStatus {
        if x25519 { return try identity(console: console) }
        let key: SecretKey
        do { key = try SecretKey.generate() } catch { throw CLIError(message: error.description) }
        try output.write(Array((key.text + "\n").utf8), console: console)
        if output.path != "-" { console.printError("qrseal: wrote a new key to \(DisplayText.escape(output.path))") }
        return .success
    }

    /// An identity file as age-keygen writes it; the public key goes to standard error, as
    /// age-keygen does, so that standard output holds the file alone.
    private func identity(console: Console) throws(CLIError) -> ExitStatus {
        let identity: AgeIdentity
        do { identity = try AgeIdentity.generate() } catch { throw CLIError(message: error.description) }
        let text = identity.fileText(created: Timestamp.iso8601(Int64(Date().timeIntervalSince1970 * 1000)))
        try output.write(Array(text.utf8), console: console)
        if output.path != "-" { console.printError("qrseal: wrote a new identity to \(DisplayText.escape(output.path))") }
        console.printError("Public key: \(identity.recipient.text)")
        console.printError("Fingerprint: \(identity.recipient.fingerprint)")
        return .success
    }
}
