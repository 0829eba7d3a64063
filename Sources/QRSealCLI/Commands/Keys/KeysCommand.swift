import FoundationEssentials
import Glibc
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
                let text = String(decoding: try KeySources.readKeyFile(path, console: console), as: UTF8.self)
                let keys: [SealKey]
                do { keys = try Keyring.parse(text) } catch { throw CLIError(message: "\(path): \(error.description)") }
                let created = Timestamp.iso8601(Int64(Date().timeIntervalSince1970 * 1000))
                switch try keyring.add(keys, name: args.value("name"), path: path, created: created) {
                case .key(let name, _):
                    console.printError("qrseal: added key '\(DisplayText.escape(name))' to the keyring")
                case .identity(let name, let recipient):
                    console.printError("qrseal: added identity '\(DisplayText.escape(name))' to the keyring; "
                                       + "public key \(recipient.text), fingerprint \(recipient.fingerprint)")
                }
            case "keys list":
                guard args.positionals.isEmpty else { throw CLIError.usage("keys list takes no arguments") }
                if args.has("names") { return RecipientCommand.printNames(keyring.names(), console: console) }
                let entries = try keyring.list()
                let rows = entries.map { [DisplayText.escape($0.name), $0.fingerprint] + ($0.recipient.map { [$0.text] } ?? []) }
                for line in Columns.lines(rows) { console.print(line) }
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
}
