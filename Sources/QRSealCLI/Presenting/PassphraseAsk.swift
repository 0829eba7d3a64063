import QRSealKit

/// Asks on the terminal, once in a run, for the passphrase a sealed message needs when none
/// was given, then has the intake open again what it left locked.
struct PassphraseAsk {
    private var asked = false

    mutating func reopen(_ outcomes: [Outcome], intake: Intake, console: Console) throws(CLIError) -> [Outcome] {
        guard !asked, !intake.hasPassphrase, outcomes.contains(where: { $0.isLocked(.passphrase) }) else { return outcomes }
        asked = true
        guard let key = try KeySources.prompt(console: console, confirm: false) else { return outcomes }
        intake.add(key)
        return outcomes.map { $0.isLocked(.passphrase) ? intake.reopen($0) : $0 }
    }
}

extension Locations {
    /// Where a command that reads keeps what it reads: nowhere with --no-store, else the
    /// inbox, opened (and its folder made) at the first thing to keep.
    func keeping(_ args: ParsedArguments) throws(CLIError) -> Intake.Keeping {
        guard !args.has("no-store") else { return .nothing }
        let policy = try dedupePolicy(args)
        let path = try inboxPath(args)
        return .inbox(open: { () throws(InboxError) in
            do throws(CLIError) { try Files.makeDirectories(SystemFiles.directory(of: path), mode: 0o700) } catch {
                throw .cannotOpen(path: path, reason: error.message)
            }
            return try Inbox(path: path)
        }, dedupe: policy)
    }
}
