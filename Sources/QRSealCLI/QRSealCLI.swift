import Foundation
import QRSealKit

/// The command-line tool as one function: arguments and a console in, an exit status out.
public enum QRSealCLI {
    public static func run(arguments: [String], console: Console) -> Int32 {
        do {
            return try dispatch(arguments, console: console).rawValue
        } catch {
            Diagnostics.report(error, console: console)
            return error.status.rawValue
        }
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
            let full = rest.prefix(2).joined(separator: " ")
            if let spec = Commands.named(full) ?? Commands.named(name) {
                console.print(HelpText.command(spec))
            } else if Commands.groups.contains(name) {
                console.print(HelpText.group(name))
            } else {
                throw unknownCommand(rest.joined(separator: " "))
            }
            return .success
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
            if sub.hasPrefix("-") {
                throw .usage("options go after the subcommand: qrseal \(first) COMMAND [OPTIONS]",
                             hint: "see 'qrseal \(first) --help'")
            }
            name = first + " " + sub
            tail = Array(rest.dropFirst())
        }
        guard let spec = Commands.named(name) else { throw unknownCommand(name) }
        let args = try spec.parse(tail)
        if args.has("help") {
            console.print(HelpText.command(spec))
            return .success
        }
        switch spec.name {
        case "encode": return try EncodeCommand(args, console: console).run(console: console)
        case "scan":
            var command = try ScanCommand(args, console: console)
            return command.run(console: console)
        case "open":
            var command = try OpenCommand(args, console: console)
            return try command.run(console: console)
        case "keygen": return try KeygenCommand(args).run(console: console)
        case "capacity": return try CapacityCommand(args).run(console: console)
        case "doctor": return try DoctorCommand(args, console: console).run(console: console)
        case _ where spec.name.hasPrefix("inbox "):
            return try InboxCommand(spec, args, console: console).run(console: console)
        case _ where spec.name.hasPrefix("keys "):
            return try KeysCommand(spec, args, console: console).run(console: console)
        default: throw unknownCommand(first)
        }
    }

    private static func unknownCommand(_ name: String) -> CLIError {
        .usage("unknown command '\(name)'",
               hint: "commands: " + Commands.all.map(\.name).joined(separator: ", "))
    }
}

/// The one place that formats errors for the user.
enum Diagnostics {
    static func report(_ error: CLIError, console: Console) {
        console.printError("qrseal: error: \(error.message)")
        for hint in error.hints { console.printError("qrseal: hint: \(hint)") }
    }
}
