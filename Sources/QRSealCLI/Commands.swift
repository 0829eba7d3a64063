import QRSealKit

/// Every command the tool has, with its options: the single source of help and man-page checks.
enum Commands {
    static let version = "0.1.0"

    static let encode = CommandSpec(
        name: "encode",
        abstract: "Write text or a file as a QR code (PNG, SVG or terminal text).",
        arguments: "[TEXT | -]",
        options: [
            OptionSpec(long: "input", short: "i", value: "FILE",
                       help: "Encode the bytes of FILE ('-' for standard input) instead of TEXT."),
            OptionSpec(long: "output", short: "o", value: "FILE",
                       help: "Write to FILE ('-' for standard output). Default: standard output."),
            OptionSpec(long: "format", value: "png|svg|terminal",
                       help: "Output format. Default: by the -o extension (.svg, .txt), else png; terminal on a tty."),
            OptionSpec(long: "ec", value: "L|M|Q|H",
                       help: "Error-correction level: L 7%, M 15% (default), Q 25%, H 30%."),
            OptionSpec(long: "min-version", value: "N",
                       help: "Use at least QR version N (1-40); a larger one is used when needed."),
            OptionSpec(long: "scale", value: "N",
                       help: "Pixels per module for png and svg (1-100, default 8)."),
            OptionSpec(long: "margin", value: "N",
                       help: "Quiet zone around the code, in modules (0-100, default 4)."),
        ])

    static let scan = CommandSpec(
        name: "scan",
        abstract: "Read every QR code and barcode in PNG, JPEG or PNM images.",
        arguments: "IMAGE... | -",
        options: [
            OptionSpec(long: "raw", help: "Print only the payloads, one per line."),
            OptionSpec(long: "json", help: "Print one JSON object per symbol per line."),
            OptionSpec(long: "symbology", value: "LIST",
                       help: "Read only these kinds, comma-separated: "
                           + Symbology.allCases.map(\.rawValue).joined(separator: ",")
                           + " (default: all but codabar)."),
            OptionSpec(long: "max-pixels", value: "N",
                       help: "Refuse images larger than N pixels (default 100000000)."),
        ])

    static let help = CommandSpec(
        name: "help", abstract: "Show help for the tool or for one command.",
        arguments: "[COMMAND]", options: [])

    static let all = [encode, scan, help]

    static func named(_ name: String) -> CommandSpec? { all.first { $0.name == name } }
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
        for c in Commands.all { lines.append("  " + c.name.padding(toLength: 9, withPad: " ", startingAt: 0) + c.abstract) }
        lines += [
            "",
            "options:",
            "  -h, --help     show this help ('qrseal COMMAND --help' for a command)",
            "      --version  print the version",
            "",
            "exit status: 0 done or read, 1 nothing found, 2 error, 64 usage error",
            "See qrseal(1) for more.",
        ]
        return lines.joined(separator: "\n")
    }

    static func command(_ spec: CommandSpec) -> String {
        var lines = [
            "usage: qrseal \(spec.name) [OPTIONS] \(spec.arguments)",
            "",
            spec.abstract,
        ]
        if !spec.allOptions.isEmpty {
            lines += ["", "options:"]
            for o in spec.allOptions {
                var left = o.short.map { "-\($0), " } ?? "    "
                left += "--\(o.long)" + (o.value.map { " \($0)" } ?? "")
                let pad = max(left.count + 2, 28)
                lines.append("  " + left.padding(toLength: pad, withPad: " ", startingAt: 0) + o.help)
            }
        }
        return lines.joined(separator: "\n")
    }
}
