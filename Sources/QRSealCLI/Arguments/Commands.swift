import QRSealKit

/// Every command the tool has, with its options: the single source of help and man-page checks.
enum Commands {
    static let version = "0.1.0"

    static let encode = CommandSpec(
        name: "encode",
        abstract: "Write text or a file as a QR code (PNG, SVG, terminal text, PDF sheet or GIF).",
        arguments: "[TEXT | -]",
        options: [
            OptionSpec(long: "input", short: "i", value: "FILE",
                       help: "Encode the bytes of FILE ('-' for standard input) instead of TEXT."),
            OptionSpec(long: "output", short: "o", value: "FILE",
                       help: "Write to FILE ('-' for standard output). Default: standard output."),
            forceOption,
            OptionSpec(long: "format", short: "t", value: "png|svg|terminal|ansi|pdf|gif",
                       help: "Output format; ansi is terminal text in black and white colours, pdf a printable "
                           + "sheet, gif an animated image of the codes. "
                           + "Default: by the -o extension (.png, .svg, .txt, .ans, .pdf, .gif), else png; terminal on a tty."),
            OptionSpec(long: "ec", short: "l", value: "L|M|Q|H",
                       help: "Error-correction level: L 7%, M 15% (default), Q 25%, H 30%."),
            OptionSpec(long: "min-version", short: "v", value: "N",
                       help: "Use at least QR version N (1-40); a larger one is used when needed."),
            OptionSpec(long: "max-version", value: "N",
                       help: "A message larger than one code is split into parts of QR version N at most (1-40, default 40)."),
            OptionSpec(long: "parts", value: "N",
                       help: "Split the message into N parts (2-65535), data and parity, even when it fits one code."),
            OptionSpec(long: "redundancy", value: "PCT",
                       help: "Parity parts as a percentage of the data parts (0-1000, default 50): "
                           + "with 50, any third of the parts may be lost."),
            OptionSpec(long: "scale", short: "s", value: "N",
                       help: "Pixels per module for png, svg and gif (1-100, default 8)."),
            OptionSpec(long: "margin", short: "m", value: "N",
                       help: "Quiet zone around the code, in modules (0-100, default 4)."),
            OptionSpec(long: "invert",
                       help: "Swap dark and light: for terminal text, on a terminal with dark text on a light "
                           + "background; for the other formats, a light code on a dark ground."),
            OptionSpec(long: "dpi", value: "N",
                       help: "Record N dots per inch in the PNG (a pHYs chunk), for printing at a known size."),
            OptionSpec(long: "paper", value: "a4|letter",
                       help: "Paper of the pdf sheet (default a4)."),
            OptionSpec(long: "per-page", value: "N",
                       help: "Codes on each pdf page (default: as many as print with modules of at least 0.5 mm)."),
            OptionSpec(long: "animate",
                       help: "Show the codes one after another, full-screen on the terminal, until Ctrl-C."),
            OptionSpec(long: "fps", value: "F",
                       help: "Frames per second for --animate and gif (0.1-50, default 5)."),
            OptionSpec(long: "loop", value: "N",
                       help: "Stop --animate after N times through the codes (default 0: until Ctrl-C or SIGTERM)."),
            OptionSpec(long: "seal",
                       help: "Seal (encrypt and authenticate) the message; asks for a passphrase "
                           + "unless a key source is given."),
        ] + KeySources.options.filter { $0.long != "identity" } + [
            OptionSpec(long: "to", value: "NAME|age1…",
                       help: "Seal to a public key: a contact's NAME or an age1… recipient; give it again for "
                           + "each recipient. Only their identities open it.",
                       completes: .names(.contacts)),
            OptionSpec(long: armorOption.long, value: "digits|binary|age|age-text",
                       help: "How a sealed message sits in the code: digits (default; survives phone apps), binary, "
                           + "or a standard age file, binary (age) or in age's armor (age-text), that "
                           + "'age -d' opens. Seals the message, as --seal does."),
            OptionSpec(long: "no-compress", help: "Do not try Brotli compression; seals the message, as --seal does."),
        ])

    static let armorOption = OptionSpec(
        long: "armor", value: "digits|binary",
        help: "How a sealed message sits in the code: digits (default; survives phone apps) or binary.")
    static let maxScryptOption = OptionSpec(
        long: "max-scrypt", value: "N",
        help: "Open passphrase messages costing up to scrypt N=2^N (default 18, at most 30).")
    static let forceOption = OptionSpec(
        long: "force",
        help: "Replace an output file that exists (a symbolic link there is replaced, not followed); never an input.")

    static let scan = CommandSpec(
        name: "scan",
        abstract: "Read every QR code and barcode in images (PNG, JPEG, PNM, BMP, GIF, TIFF, WebP; PDF and SVG drawn; every page and frame), a YUV4MPEG2 stream or a camera.",
        arguments: "IMAGE... | - | --stream FILE | --camera",
        options: [
            OptionSpec(long: "raw", help: "Print only the payloads: text one per line, binary data byte for byte, nothing added."),
            OptionSpec(long: "json", help: "Print one JSON object per symbol per line, and one per file with nothing found."),
            OptionSpec(long: "symbology", value: "LIST",
                       help: "Read only these kinds, comma-separated: "
                           + Symbology.allCases.map(\.rawValue).joined(separator: ",")
                           + " (default: all, a book's number named EAN-13 unless isbn10 or isbn13 is asked for).",
                       completes: .list(Symbology.allCases.map(\.rawValue))),
            OptionSpec(long: "max-pixels", value: "N",
                       help: "Refuse images larger than N pixels, and make no copy larger (default 100000000)."),
            OptionSpec(long: "output", short: "o", value: "DIR",
                       help: "Write files carried by sealed messages into DIR."),
            forceOption,
        ] + TextScan.options + KeySources.options + [maxScryptOption] + storeOptions + DetectOptions.options + LiveScan.options)

    static let storeOptions = [
        OptionSpec(long: "no-store", help: "Do not keep what is read in the inbox."),
        Locations.inboxOption,
        OptionSpec(long: "dedupe", value: "consecutive|always|never",
                   help: "Skip repeats: of the same source's last item (default), of anything kept, or none."),
    ]

    static let open = CommandSpec(
        name: "open",
        abstract: "Open a sealed message from pasted text or an image.",
        arguments: "[FILE | -]",
        options: [
            OptionSpec(long: "output", short: "o", value: "PATH",
                       help: "Write the opened text or file to PATH (default: text to standard output, "
                           + "a file under its own name, here)."),
            forceOption,
        ] + KeySources.options + [maxScryptOption] + storeOptions)

    static let keygen = CommandSpec(
        name: "keygen",
        abstract: "Make a new random key for sealing.",
        arguments: "",
        options: [
            OptionSpec(long: "output", short: "o", value: "FILE",
                       help: "Write the key to FILE, created with mode 0600 (default: standard output)."),
            forceOption,
            OptionSpec(long: "x25519",
                       help: "Make an age identity (AGE-SECRET-KEY-1…) instead, and print its public key (age1…) "
                           + "and fingerprint: others seal to the public key with --to."),
        ])

    static let capacity = CommandSpec(
        name: "capacity",
        abstract: "Print how many bytes fit in each QR version.",
        arguments: "",
        options: [
            OptionSpec(long: "ec", short: "l", value: "L|M|Q|H", help: "Error-correction level (default M)."),
            armorOption,
            OptionSpec(long: "seal", help: "Give the room for sealed messages' content."),
        ])

    static let help = CommandSpec(
        name: "help", abstract: "Show help for the tool or for one command.",
        arguments: "[COMMAND]", options: [])

    /// Every command, with the type that runs it: the one table of commands.
    static let table: [(spec: CommandSpec, type: any Command.Type)] =
        [(encode, EncodeCommand.self), (scan, ScanCommand.self), (open, OpenCommand.self), (keygen, KeygenCommand.self),
         (capacity, CapacityCommand.self)]
        + InboxCommandSpecs.inbox.map { ($0, InboxCommand.self) } + InboxCommandSpecs.keys.map { ($0, KeysCommand.self) }
        + RecipientCommandSpecs.all.map { ($0, RecipientCommand.self) } + [(DoctorCommand.spec, DoctorCommand.self)]

    static let all = table.map(\.spec) + [help]

    /// Commands with subcommands: `qrseal inbox list`, `qrseal keys add`, `qrseal contacts add`.
    static let groups: Set<String> = ["inbox", "keys", "contacts"]

    static func named(_ name: String) -> CommandSpec? { all.first { $0.name == name } }

    /// The type that runs the command `name`.
    static func type(named name: String) -> (any Command.Type)? { table.first { $0.spec.name == name }?.type }
}

/// Help text derived from the command specs.
enum HelpText {
    static var tool: String {
        var lines = [
            "qrseal \(Commands.version): pass messages through QR codes",
            "",
            "usage: qrseal COMMAND [OPTIONS] [ARGUMENTS]",
            "",
            "commands:",
        ]
        // `completions` is run by `make install`, and by a user setting up a shell by hand.
        for c in Commands.table.map(\.spec) + [Completions.spec, Commands.help] {
            lines.append("  " + c.name.padded(to: 14) + c.abstract)
        }
        lines += [
            "",
            "options:",
            "  -h, --help     show this help ('qrseal COMMAND --help' for a command)",
            "      --version  print the version",
            "",
            "exit status: 0 done or read, 1 nothing found, 2 error, 3 sealed message not opened,",
            "             64 usage error",
            "See qrseal(1) for more.",
        ]
        return lines.joined(separator: "\n")
    }

    /// The subcommands of `inbox` or `keys`.
    static func group(_ name: String) -> String {
        var lines = ["usage: qrseal \(name) COMMAND [OPTIONS]", "", "commands:"]
        for c in Commands.all where c.name.hasPrefix(name + " ") {
            lines.append("  " + c.name.padded(to: 14) + c.abstract)
        }
        return lines.joined(separator: "\n")
    }

    static func command(_ spec: CommandSpec) -> String {
        var lines = [
            "usage: qrseal \(spec.name) [OPTIONS]" + (spec.arguments.isEmpty ? "" : " \(spec.arguments)"),
            "",
            spec.abstract,
        ]
        if !spec.allOptions.isEmpty {
            lines += ["", "options:"]
            for o in spec.allOptions {
                var left = o.short.map { "-\($0), " } ?? "    "
                left += "--\(o.long)" + (o.value.map { " \($0)" } ?? "")
                // Options too long for the column put their help on the next line.
                if left.count + 2 > 30 {
                    lines.append("  " + left)
                    lines.append(String(repeating: " ", count: 32) + o.help)
                } else {
                    lines.append("  " + left.padded(to: 30) + o.help)
                }
            }
        }
        return lines.joined(separator: "\n")
    }
}
