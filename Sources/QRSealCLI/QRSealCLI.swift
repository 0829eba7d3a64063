import FoundationEssentials
import Glibc
import QRSealKit

/// The command-line tool as one function: arguments and a console in, an exit status out.
public enum QRSealCLI {
    /// A write that failed anywhere in the run makes the status 2 (see `Console`).
    public static func run(arguments: [String], console: Console) -> Int32 {
        let status: ExitStatus
        do {
            status = try dispatch(arguments, console: console)
        } catch {
            Diagnostics.report(error, console: console)
            status = error.status
        }
        return console.writeFailed ? ExitStatus.failure.rawValue : status.rawValue
    }

    private static func dispatch(_ arguments: [String], console: Console) throws(CLIError) -> ExitStatus {
        guard let first = arguments.first else {
            console.printError(HelpText.tool)
            return .usage
        }
        let rest = Array(arguments.dropFirst())
        switch first {
        case "-h", "--help":
            console.print(HelpText.tool)
            return .success
        case "--version":
            console.print("qrseal \(Commands.version)")
            return .success
        case "help":
            guard let name = rest.first else { console.print(HelpText.tool); return .success }
            if name == "-h" || name == "--help" { console.print(HelpText.command(Commands.help)); return .success }
            if name.hasPrefix("-") { _ = try Commands.help.parse([name]) }
            let full = rest.prefix(2).joined(separator: " ")
            if let spec = Commands.named(full) ?? Commands.named(name) {
                console.print(HelpText.command(spec))
            } else if Commands.groups.contains(name) {
                console.print(HelpText.group(name))
            } else {
                throw unknownCommand(rest.joined(separator: " "))
            }
            return .success
        case Completions.spec.name:
            let args = try Completions.spec.parse(rest)
            if args.has("help") { console.print(HelpText.command(Completions.spec)); return .success }
            guard args.positionals.count == 1, let shell = Completions.Shell(rawValue: args.positionals[0]) else {
                throw .usage("completions needs one shell: bash, zsh or fish")
            }
            console.write(Data(Completions.script(for: shell).utf8))
            return .success
        case _ where first.hasPrefix("-") && first != "-":
            var error = CLIError.usage("unknown option \(first)")
            if first.hasPrefix("--"), let near = Suggestion.nearest(String(first.dropFirst(2)), among: ["help", "version"]) {
                error.hints.append("did you mean --\(near)?")
            }
            error.hints.append("options of a command go after it: qrseal COMMAND [OPTIONS]; see 'qrseal --help'")
            throw error
        default:
            break
        }
        var name = first
        var tail = rest
        if Commands.groups.contains(first) {
            guard let sub = rest.first else {
                console.printError(HelpText.group(first))
                return .usage
            }
            if sub == "-h" || sub == "--help" {
                console.print(HelpText.group(first))
                return .success
            }
            if sub.hasPrefix("-") { throw groupOption(sub, group: first) }
            name = first + " " + sub
            tail = Array(rest.dropFirst())
        }
        guard let spec = Commands.named(name) else { throw unknownCommand(name) }
        let args = try spec.parse(tail)
        console.jsonDiagnostics = args.has("json")
        if args.has("help") {
            console.print(HelpText.command(spec))
            return .success
        }
        // libcrypto opens on first use; hashes are not allowed to fail, so it is opened here,
        // before any command that may hash or seal, and a missing one is this error.
        if spec.name != "doctor" && !EncodeCommand.isPlain(spec, args) {
            do { try SharedLibrary.crypto.load() } catch { throw CLIError(error) }
        }
        guard let type = Commands.type(named: spec.name) else { throw unknownCommand(first) }
        var command = try type.init(spec, args, console: console)
        return try command.run(console: console)
    }

    private static func unknownCommand(_ name: String) -> CLIError {
        var error = CLIError.usage("unknown command '\(name)'")
        if let near = Suggestion.nearest(name, among: Commands.all.map(\.name)) {
            error.hints.append("did you mean '\(near)'?")
        }
        error.hints.append("commands: " + Commands.all.map(\.name).joined(separator: ", "))
        return error
    }

    /// An option before a group's subcommand (`qrseal inbox --json list`): misplaced when a
    /// subcommand has it, else unknown.
    private static func groupOption(_ option: String, group: String) -> CLIError {
        let long = option.hasPrefix("--") ? String(option.dropFirst(2).prefix { $0 != "=" }) : nil
        let subcommands = Commands.all.filter { $0.name.hasPrefix(group + " ") }
        let known = subcommands.contains { spec in
            long.map { spec.option(long: $0) != nil } ?? option.dropFirst().first.map { spec.option(short: $0) != nil } ?? false
        }
        var error = CLIError.usage(known ? "options go after the subcommand: qrseal \(group) COMMAND [OPTIONS]"
                                         : "unknown option \(option) for '\(group)'")
        error.hints.append("see 'qrseal \(group) --help'")
        return error
    }
}
