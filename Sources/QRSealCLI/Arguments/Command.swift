/// A command of the tool: made from its parsed arguments, which it validates, then run.
/// `Commands.table` pairs each command's spec with its type.
protocol Command: SendableMetatype {
    init(_ spec: CommandSpec, _ args: ParsedArguments, console: Console) throws(CLIError)
    mutating func run(console: Console) throws(CLIError) -> ExitStatus
}

extension EncodeCommand: Command {
    init(_ spec: CommandSpec, _ args: ParsedArguments, console: Console) throws(CLIError) { try self.init(args, console: console) }
}

extension ScanCommand: Command {
    init(_ spec: CommandSpec, _ args: ParsedArguments, console: Console) throws(CLIError) { try self.init(args, console: console) }
}

extension OpenCommand: Command {
    init(_ spec: CommandSpec, _ args: ParsedArguments, console: Console) throws(CLIError) { try self.init(args, console: console) }
}

extension KeygenCommand: Command {
    init(_ spec: CommandSpec, _ args: ParsedArguments, console: Console) throws(CLIError) { try self.init(args) }
}

extension CapacityCommand: Command {
    init(_ spec: CommandSpec, _ args: ParsedArguments, console: Console) throws(CLIError) { try self.init(args) }
}

extension DoctorCommand: Command {
    init(_ spec: CommandSpec, _ args: ParsedArguments, console: Console) throws(CLIError) { try self.init(args, console: console) }
}

extension InboxCommand: Command {}
extension KeysCommand: Command {}
extension RecipientCommand: Command {}
