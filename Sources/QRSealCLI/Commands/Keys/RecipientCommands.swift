import FoundationEssentials
import Glibc
import QRSealKit

/// `qrseal contacts add|list|rm|show` and `qrseal keys show`: public keys (age recipients) by
/// name, shown as text, with a fingerprint to compare by voice, or as a QR code.
enum RecipientCommandSpecs {
    static let qrOptions = [
        OptionSpec(long: "qr", help: "Show the public key as a QR code (upper case, so QR alphanumeric mode holds it)."),
        OptionSpec(long: "output", short: "o", value: "FILE",
                   help: "With --qr, write the code to FILE: .png, .svg, or terminal text for any other name."),
        Commands.forceOption,
    ]

    static let keysShow = CommandSpec(
        name: "keys show", abstract: "Show an identity's public key (age1…) and fingerprint, or its QR code.",
        arguments: "NAME", options: qrOptions, completes: .names(.keys))
    static let contactsAdd = CommandSpec(
        name: "contacts add", abstract: "Keep someone's public key (age1…) under a name, to seal to with --to NAME.",
        arguments: "NAME [age1… | -]",
        options: [
            OptionSpec(long: "from-inbox", value: "ID", help: "Take the public key from inbox item ID (a scanned recipient code)."),
            Locations.inboxOption,
        ])
    static let contactsList = CommandSpec(
        name: "contacts list", abstract: "List contacts: name, fingerprint and public key.", arguments: "",
        options: [InboxCommandSpecs.namesOption])
    static let contactsRemove = CommandSpec(
        name: "contacts rm", abstract: "Remove a contact.", arguments: "NAME", options: [], completes: .names(.contacts))
    static let contactsShow = CommandSpec(
        name: "contacts show", abstract: "Show a contact's public key and fingerprint, or its QR code.",
        arguments: "NAME", options: qrOptions, completes: .names(.contacts))

    static let all = [keysShow, contactsAdd, contactsList, contactsRemove, contactsShow]
}

struct RecipientCommand {
    let spec: CommandSpec
    let args: ParsedArguments
    let locations: Locations

    init(_ spec: CommandSpec, _ args: ParsedArguments, console: Console) {
        self.spec = spec
        self.args = args
        locations = Locations(console: console)
    }

    func run(console: Console) throws(CLIError) -> ExitStatus {
        let contacts = try locations.contacts()
        do {
            switch spec.name {
            case "keys show":
                let name = try oneName()
                let identities = try locations.keyring().identities(named: name)
                try show(identities[0].recipient, console: console)
            case "contacts show":
                try show(try contacts.recipient(named: try oneName()), console: console)
            case "contacts list":
                guard args.positionals.isEmpty else { throw CLIError.usage("contacts list takes no arguments") }
                if args.has("names") { return Self.printNames(contacts.names(), console: console) }
                let entries = try contacts.list()
                let rows = entries.map { [DisplayText.escape($0.name), $0.recipient.fingerprint, $0.recipient.text] }
                for line in Columns.lines(rows) { console.print(line) }
                return entries.isEmpty ? .nothingFound : .success
            case "contacts rm":
                try contacts.remove(try oneName())
            default:
                return try add(contacts, console: console)
            }
        } catch let error as CLIError {
            throw error
        } catch let error as Contacts.Failure {
            throw CLIError(message: error.description)
        } catch let error as Keyring.Failure {
            throw CLIError(message: error.description)
        } catch {
            throw CLIError(message: "\(error)")
        }
        return .success
    }

    /// `keys list --names`, `contacts list --names`: one name a line, escaped as the tables
    /// escape them, so that each is one line whatever its file is called.
    static func printNames(_ names: [String], console: Console) -> ExitStatus {
        for name in names { console.print(DisplayText.escape(name)) }
        return names.isEmpty ? .nothingFound : .success
    }

    private func oneName() throws(CLIError) -> String {
        guard args.positionals.count == 1, let name = args.positionals.first else {
            throw .usage("\(spec.name) takes one NAME")
        }
        return name
    }

    /// `contacts add NAME age1…`, `contacts add NAME -` (the key on standard input) or
    /// `contacts add NAME --from-inbox ID`.
    private func add(_ contacts: Contacts, console: Console) throws(CLIError) -> ExitStatus {
        let name: String, text: String, from: String
        if let id = args.value("from-inbox") {
            guard args.positionals.count == 1 else {
                throw .usage("contacts add takes NAME and --from-inbox ID, or NAME and a public key")
            }
            name = args.positionals[0]
            guard let number = Int64(id), number > 0 else { throw .usage("--from-inbox needs an item id, not '\(id)'") }
            let inbox = try locations.openInbox(args, create: false, access: .readOnly)
            let item: InboxItem
            do { item = try inbox.item(number) } catch { throw CLIError(message: error.description) }
            guard item.kind == .recipient else {
                throw CLIError(message: "item \(number) is not a public key (it is \(item.kind.rawValue))",
                               hints: ["scan someone's recipient code (age1…) first: qrseal scan IMAGE"])
            }
            text = String(decoding: item.bytes, as: UTF8.self)
            from = "item \(number)"
        } else {
            guard args.positionals.count == 2 else {
                throw .usage("contacts add takes NAME and a public key (age1…), or NAME --from-inbox ID")
            }
            name = args.positionals[0]
            if args.positionals[1] == "-" {
                text = String(decoding: try StandardInput.read(console, limit: 4096, what: "more than a public key"), as: UTF8.self)
                from = "standard input"
            } else {
                text = args.positionals[1]
                from = "the public key"
            }
        }
        let recipient: AgeRecipient
        do { recipient = try AgeRecipient(text: text) } catch {
            throw CLIError(message: "\(from): \(error.description)", hints: ["a public key looks like age1 followed by 58 letters and digits"])
        }
        do { try contacts.add(recipient, name: name) } catch { throw CLIError(message: error.description) }
        console.printError("qrseal: added contact '\(DisplayText.escape(name))', fingerprint \(recipient.fingerprint)")
        return .success
    }

    /// The recipient and its fingerprint, or with --qr its code on the terminal or in a file.
    private func show(_ recipient: AgeRecipient, console: Console) throws(CLIError) {
        guard args.has("qr") else {
            if args.value("output") != nil { throw .usage("-o writes the QR code: add --qr") }
            console.print(recipient.text)
            console.print("fingerprint: \(recipient.fingerprint)")
            return
        }
        let matrix: QRMatrix
        do {
            matrix = try recipient.qrMatrix()
        } catch {
            throw CLIError(message: error.description)
        }
        let path = try args.outputPath() ?? "-"
        let output = Output(path: path, force: args.has("force"))
        try output.check()
        let bytes: [UInt8]
        switch URL(fileURLWithPath: path).pathExtension.lowercased() {
        case "png" where path != "-":
            do { bytes = try matrix.png(scale: 8, margin: 4) } catch {
                throw CLIError(message: error.description)
            }
        case "svg" where path != "-":
            bytes = Array(matrix.svg(scale: 8, margin: 4).utf8)
        default:
            bytes = Array(matrix.terminalText(margin: 2).utf8)
        }
        try output.write(bytes, console: console)
        console.printError("qrseal: \(recipient.text)\nqrseal: fingerprint: \(recipient.fingerprint)")
    }
}
