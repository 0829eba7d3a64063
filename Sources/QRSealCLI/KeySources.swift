import Foundation
import QRSealKit

/// The keys a command was given: key files, a passphrase file, QRSEAL_PASSPHRASE, or a prompt.
/// Passphrases never come from the command line itself.
struct KeySources {
    static let options = [
        OptionSpec(long: "key-file", value: "FILE",
                   help: "A key made by 'qrseal keygen'; may be given more than once when opening."),
        OptionSpec(long: "passphrase-file", value: "FILE",
                   help: "Read the passphrase from FILE (one trailing line break is ignored)."),
    ]
    static let environmentVariable = "QRSEAL_PASSPHRASE"

    var keys: [SealKey] = []

    /// Whether any key source was named on the command line or in the environment.
    var isEmpty: Bool { keys.isEmpty }

    init(_ args: ParsedArguments, console: Console) throws(CLIError) {
        for path in args.values["key-file"] ?? [] {
            let text = String(decoding: try Files.read(path, console: console), as: UTF8.self)
            do {
                keys.append(.keyFile(try SecretKey(text: text)))
            } catch {
                throw CLIError(message: "\(path): \(error.description)")
            }
        }
        if let path = args.value("passphrase-file") {
            var bytes = try Files.read(path, console: console)
            // One trailing line break is the file's, not the passphrase's.
            if bytes.last == 0x0A { bytes.removeLast(); if bytes.last == 0x0D { bytes.removeLast() } }
            guard let passphrase = String(validating: bytes, as: UTF8.self) else {
                throw CLIError(message: "\(path): the passphrase is not UTF-8 text")
            }
            guard !passphrase.isEmpty else { throw CLIError(message: "\(path): the passphrase is empty") }
            keys.append(.passphrase(passphrase))
        } else if let passphrase = console.environment[Self.environmentVariable], !passphrase.isEmpty {
            keys.append(.passphrase(passphrase))
            fromEnvironment = true
        }
    }

    /// Whether the passphrase came from QRSEAL_PASSPHRASE rather than the command line.
    private(set) var fromEnvironment = false

    /// The one key to seal with: a key named on the command line wins over the environment.
    func sealingKey() throws(CLIError) -> SealKey? {
        let named = fromEnvironment ? Array(keys.dropLast()) : keys
        if named.count > 1 {
            throw .usage("seal with one key: give one --key-file or --passphrase-file")
        }
        return named.first ?? keys.first
    }

    /// Asks on the terminal (/dev/tty, so it works while standard input is a pipe) for a
    /// passphrase, twice when sealing; nil without a terminal or when the answer is empty.
    static func prompt(console: Console, confirm: Bool) throws(CLIError) -> SealKey? {
        guard let first = console.readSecret("Passphrase: ") else { return nil }
        guard !first.isEmpty else {
            if confirm { throw CLIError(message: "empty passphrase") }
            return nil
        }
        if confirm {
            guard console.readSecret("Passphrase (again): ") == first else {
                throw CLIError(message: "the passphrases do not match")
            }
        }
        return .passphrase(first)
    }

    static let hint = "pass --key-file FILE or --passphrase-file FILE, or set \(environmentVariable)"

    /// What to do for a message sealed with `kind` ("key file" or "passphrase").
    static func hint(for kind: String) -> String {
        kind == "key file" ? "pass the key with --key-file FILE, or keep it with 'qrseal keys add FILE'"
            : "pass --passphrase-file FILE or set \(environmentVariable)"
    }
}
