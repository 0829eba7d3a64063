import QRSealKit

/// `qrseal scan --camera` / `--stream`: live scanning (being written).
struct LiveScan {
    /// The options that only live scanning takes.
    static let options: [OptionSpec] = []

    /// A live scan when the arguments ask for one, else nil.
    static func make(_ args: ParsedArguments, console: Console) throws(CLIError) -> LiveScan? { nil }

    func run(console: Console) -> ExitStatus { .success }
}
