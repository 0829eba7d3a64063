import QRSealKit

/// One option of a command, declared as data: parsing, help and the man-page check use it.
struct OptionSpec: Sendable {
    let long: String
    var short: Character? = nil
    /// The placeholder of the option's value (`FILE`, `N`); nil for a flag.
    var value: String? = nil
    let help: String
    /// What a shell completes for the value, when `value` alone does not say (see `ValueCompletion`).
    var completes: ValueCompletion? = nil
}

/// A command: its name, what it does, its positional arguments and its options.
struct CommandSpec: Sendable {
    let name: String
    let abstract: String
    /// The positional part of the usage line, e.g. `[TEXT | -]`.
    let arguments: String
    let options: [OptionSpec]
    /// What a shell completes for the positional arguments, when `arguments` alone does not
    /// say (see `argumentCompletion`).
    var completes: ValueCompletion? = nil

    static let helpOption = OptionSpec(long: "help", short: "h", help: "Show help for this command.")

    var allOptions: [OptionSpec] { options + [Self.helpOption] }

    func option(long name: String) -> OptionSpec? { allOptions.first { $0.long == name } }
    func option(short c: Character) -> OptionSpec? { allOptions.first { $0.short == c } }
}

/// A parsed command line: option values by long name (in order given) and positionals.
struct ParsedArguments {
    var values: [String: [String]] = [:]
    var flags: Set<String> = []
    var positionals: [String] = []

    func has(_ flag: String) -> Bool { flags.contains(flag) }

    /// The last value given for `option`, if any.
    func value(_ option: String) -> String? { values[option]?.last }

    /// `option`'s value as one of `names`, whatever its case (`--format PNG`), spelled as in
    /// `names`; nil when the option is absent.
    func choice(_ option: String, of names: [String]) throws(CLIError) -> String? {
        guard let text = value(option) else { return nil }
        if let name = names.first(where: { $0.lowercased() == text.lowercased() }) { return name }
        let list = names.count > 1 ? names.dropLast().joined(separator: ", ") + " or " + names.last! : names.joined()
        var error = CLIError.usage("--\(option) must be \(list), not '\(text)'")
        if let near = Suggestion.nearest(text, among: names) { error.hints.append("did you mean \(near)?") }
        throw error
    }

    /// `option`'s value as a case of `T`, whatever its case; nil when the option is absent.
    func choice<T: CaseIterable & RawRepresentable>(_ option: String, of type: T.Type) throws(CLIError) -> T?
    where T.RawValue == String {
        try choice(option, of: T.allCases.map(\.rawValue)).flatMap(T.init(rawValue:))
    }

    /// `option`'s value as an integer within `range`, or `fallback` when absent.
    func integer(_ option: String, in range: ClosedRange<Int>, default fallback: Int) throws(CLIError) -> Int {
        guard let text = value(option) else { return fallback }
        guard let n = Int(text), range.contains(n) else {
            throw .usage("--\(option) must be a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
        }
        return n
    }
}

extension CommandSpec {
    /// Splits `arguments` by this command's options. `--` ends options; `-` alone is positional.
    func parse(_ arguments: [String]) throws(CLIError) -> ParsedArguments {
        var parsed = ParsedArguments()
        var rest = arguments[...]
        while let arg = rest.popFirst() {
            if arg == "--" {
                parsed.positionals += rest
                break
            }
            if arg.hasPrefix("--") {
                var name = String(arg.dropFirst(2))
                var inline: String? = nil
                if let eq = name.firstIndex(of: "=") {
                    inline = String(name[name.index(after: eq)...])
                    name = String(name[..<eq])
                }
                guard let spec = option(long: name) else { throw unknownOption("--" + name) }
                try take(spec, inline: inline, from: &rest, into: &parsed)
            } else if arg.hasPrefix("-"), arg.count > 1 {
                let letter = arg[arg.index(after: arg.startIndex)]
                guard let spec = option(short: letter) else { throw unknownOption("-" + String(letter)) }
                let tail = String(arg.dropFirst(2))
                if spec.value == nil && !tail.isEmpty {
                    throw .usage("option -\(letter) takes no value")
                }
                try take(spec, inline: tail.isEmpty ? nil : tail, from: &rest, into: &parsed)
            } else {
                parsed.positionals.append(arg)
            }
        }
        return parsed
    }

    /// `unknown option --outptu for 'encode'`, with the nearest option and the help to read.
    private func unknownOption(_ typed: String) -> CLIError {
        var error = CLIError.usage("unknown option \(typed) for '\(name)'")
        if typed.hasPrefix("--"), let near = Suggestion.nearest(String(typed.dropFirst(2)), among: allOptions.map(\.long)) {
            error.hints.append("did you mean --\(near)?")
        }
        error.hints.append("see 'qrseal \(name) --help'")
        return error
    }

    private func take(_ spec: OptionSpec, inline: String?, from rest: inout ArraySlice<String>,
                      into parsed: inout ParsedArguments) throws(CLIError) {
        guard spec.value != nil else {
            if inline != nil { throw .usage("option --\(spec.long) takes no value") }
            parsed.flags.insert(spec.long)
            return
        }
        guard let value = inline ?? rest.popFirst() else {
            throw .usage("option --\(spec.long) needs a value (\(spec.value!))")
        }
        parsed.values[spec.long, default: []].append(value)
    }
}

extension ParsedArguments {
    /// `--ec` as a level, medium when absent.
    func errorCorrection() throws(CLIError) -> ErrorCorrection {
        try choice("ec", of: ErrorCorrection.self) ?? .medium
    }

    /// `--armor`, digits when absent.
    func armor() throws(CLIError) -> Armor {
        try choice("armor", of: Armor.self) ?? .digits
    }

    /// An `Opener` with `--max-scrypt` applied.
    func opener() throws(CLIError) -> Opener {
        Opener(maxScryptLog2N: try integer("max-scrypt", in: 10...30, default: 18))
    }
}
