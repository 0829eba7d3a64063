import Foundation
import QRSealKit

/// `qrseal keys add|list|rm`: the keyring of key files tried on sealed messages.
struct KeysCommand {
    let spec: CommandSpec
    let args: ParsedArguments
    let keyring: Keyring

    init(_ spec: CommandSpec, _ args: ParsedArguments, console: Console) throws(CLIError) {
        self.spec = spec
        self.args = args
        keyring = try Locations(console: console).keyring()
    }

    func run(console: Console) throws(CLIError) -> ExitStatus {
        do {
            switch spec.name {
            case "keys add":
                guard args.positionals.count == 1, let path = args.positionals.first else {
                    throw CLIError.usage("keys add takes one key FILE")
                }
                let text = String(decoding: try Files.read(path, console: console), as: UTF8.self)
                let key: SecretKey
                do { key = try SecretKey(text: text) } catch { throw CLIError(message: "\(path): \(error.description)") }
                let name = args.value("name") ?? Self.defaultName(path: path, key: key)
                try keyring.add(key, name: name)
                console.printError("qrseal: added key '\(DisplayText.escape(name))' to the keyring")
            case "keys list":
                guard args.positionals.isEmpty else { throw CLIError.usage("keys list takes no arguments") }
                let entries = try keyring.list()
                for entry in entries { console.print("\(DisplayText.escape(entry.name))  \(entry.fingerprint)") }
                return entries.isEmpty ? .nothingFound : .success
            default:
                guard args.positionals.count == 1, let name = args.positionals.first else {
                    throw CLIError.usage("keys rm takes one NAME")
                }
                try keyring.remove(name)
            }
        } catch let error as CLIError {
            throw error
        } catch let error as Keyring.Failure {
            throw CLIError(message: error.description)
        } catch {
            throw CLIError(message: "\(error)")
        }
        return .success
    }

    /// The file's name without `.key`; for standard input, `key-` and the key's fingerprint.
    static func defaultName(path: String, key: SecretKey) -> String {
        if path == "-" { return "key-" + Keyring.fingerprint(key) }
        let name = URL(fileURLWithPath: path).lastPathComponent
        return name.hasSuffix(".key") ? String(name.dropLast(4)) : name
    }
}
