import FoundationEssentials
import Glibc
import QRSealKit

/// The keys a command was given: key files, a passphrase file, QRSEAL_PASSPHRASE, or a prompt.
/// Passphrases never come from the command line itself.
struct KeySources {
    static let options = [
        OptionSpec(long: "key-file", value: "FILE",
                   help: "A key made by 'qrseal keygen'; may be given more than once when opening."),
        OptionSpec(long: "identity", value: "FILE",
                   help: "An age identity file (qrseal keygen --x25519, age-keygen) to open messages sealed to "
                       + "its public key; may be given more than once."),
        OptionSpec(long: "passphrase-file", value: "FILE",
                   help: "Read the passphrase from FILE (one trailing line break is ignored)."),
    ]
    static let environmentVariable = "QRSEAL_PASSPHRASE"

    /// Key files, in the order given.
    private var keyFiles: [SealKey] = []
    /// The passphrase of --passphrase-file.
    private var filePassphrase: SealKey?
    /// The passphrase of QRSEAL_PASSPHRASE.
    private var environmentPassphrase: SealKey?

    /// Every key given, to try when opening: key files, then the passphrase file's, then
    /// QRSEAL_PASSPHRASE's.
    var keys: [SealKey] { keyFiles + [filePassphrase, environmentPassphrase].compactMap { $0 } }

    /// Reads every source named on the command line or in the environment. A source that is
    /// there but holds no key (an empty file, an empty QRSEAL_PASSPHRASE) is an error, never
    /// the same as no source: it must not turn a sealed message into a plain one.
    init(_ args: ParsedArguments, console: Console) throws(CLIError) {
        for path in (args.values["key-file"] ?? []) + (args.values["identity"] ?? []) {
            let text = String(decoding: try Self.readKeyFile(path, console: console), as: UTF8.self)
            do {
                keyFiles += try Keyring.parse(text)
            } catch {
                throw CLIError(message: "\(path): \(error.description)")
            }
        }
        if let path = args.value("passphrase-file") {
            var bytes = try Files.read(path, console: console)
            // One trailing line break is the file's, not the passphrase's.
            if bytes.last == 0x0A { bytes.removeLast(); if bytes.last == 0x0D { bytes.removeLast() } }
            guard let passphrase = String(validating: bytes, as: UTF8.self) else {
                throw CLIError(message: "\(path): the passphrase is not UTF-8 text")
            }
            guard !passphrase.isEmpty else { throw CLIError(message: "\(path): the passphrase is empty") }
            filePassphrase = .passphrase(passphrase)
        }
        if let passphrase = console.environment[Self.environmentVariable] {
            guard !passphrase.isEmpty else {
                throw CLIError(message: "\(Self.environmentVariable) is set but empty",
                               hints: ["set it to the passphrase, or unset it: unset \(Self.environmentVariable)"],
                               status: .usage)
            }
            guard !RawBytes.hasRawBytes(passphrase) else {
                throw CLIError(message: "\(Self.environmentVariable): the passphrase is not UTF-8 text", status: .usage)
            }
            environmentPassphrase = .passphrase(passphrase)
        }
    }

    /// The most a key or identity file may hold: a key file is one line, an identity file a few.
    static let maxKeyFileBytes = 64 << 10

    /// The bytes of a key or identity file (`-`: standard input): a regular file of at most
    /// `maxKeyFileBytes`, or a pipe that gives that much and ends (`--identity <(pass show
    /// key)`) without a pause of 10 s; never a device, which could be endless.
    /// One that other users may read or change is read, with a warning, as ssh gives one.
    static func readKeyFile(_ path: String, console: Console) throws(CLIError) -> [UInt8] {
        if path == "-" { return try StandardInput.read(console, limit: maxKeyFileBytes, what: "more than any key file") }
        do {
            let (bytes, mode) = try SystemFiles.readRegular(path, limit: maxKeyFileBytes)
            if mode & 0o077 != 0 {
                let octal = String(mode & 0o777, radix: 8)
                console.printError("qrseal: warning: " + DisplayText.escape("\(path): the key file is open to other users (mode 0\(octal))"))
                Diagnostics.hint("keep it private: chmod 600 \(path)", console: console)
            }
            return bytes
        } catch {
            switch error {
            case .notRegular:
                throw CLIError(message: "\(path): not a regular file, so not a key file",
                               hints: ["name the file 'qrseal keygen' or age-keygen wrote"])
            case .tooLarge(let size):
                throw CLIError(message: "\(path): file is \(size) bytes, more than any key file (at most \(maxKeyFileBytes >> 10) KiB)",
                               hints: ["name the file 'qrseal keygen' or age-keygen wrote"])
            case .timedOut(let seconds):
                throw CLIError(message: "\(path): no key came through this pipe for \(seconds) s",
                               hints: ["a FIFO needs a writer: cat KEYFILE > \(path), or name the key file itself"])
            default:
                throw CLIError(message: "\(path): \(error.description)")
            }
        }
    }

    /// The one key to seal with, nil when no source was given. --passphrase-file takes the
    /// place of QRSEAL_PASSPHRASE; any other two sources are a usage error.
    func sealingKey() throws(CLIError) -> SealKey? {
        let passphrase = filePassphrase ?? environmentPassphrase
        if keyFiles.contains(where: { if case .identity = $0 { return true } else { return false } }) {
            throw .usage("an identity opens messages; it does not seal them",
                         hint: "seal to its owner's public key with --to age1… or --to NAME")
        }
        if keyFiles.count > 1 {
            throw .usage("seal with one key: --key-file was given \(keyFiles.count) times")
        }
        if let keyFile = keyFiles.first {
            guard passphrase == nil else {
                let other = filePassphrase != nil ? "--passphrase-file" : Self.environmentVariable
                throw .usage("seal with one key: --key-file and \(other) were both given",
                             hint: filePassphrase != nil ? "drop one of them"
                                 : "drop --key-file, or run with \(Self.environmentVariable) unset")
            }
            return keyFile
        }
        return passphrase
    }

    /// Asks on the terminal (/dev/tty, so it works while standard input is a pipe) for a
    /// passphrase, twice when sealing, asking again when the two differ (`promptTries` times
    /// in all), and warning of a weak one (`PassphraseStrength`); nil without a terminal or
    /// when the answer is empty.
    static func prompt(console: Console, confirm: Bool) throws(CLIError) -> SealKey? {
        for attempt in 1...promptTries {
            guard let first = console.readSecret("Passphrase: ") else { return nil }
            guard !first.isEmpty else {
                if confirm { throw CLIError(message: "empty passphrase") }
                return nil
            }
            guard confirm else { return .passphrase(first) }
            guard console.readSecret("Passphrase (again): ") == first else {
                if attempt == promptTries { break }
                console.printError("qrseal: the passphrases do not match; try again")
                continue
            }
            if PassphraseStrength.isWeak(first) {
                console.printError("qrseal: warning: this passphrase is weak (about \(Int(PassphraseStrength.bits(first))) bits): "
                                   + "anyone who copies the code can guess it offline; several random words are safer")
            }
            return .passphrase(first)
        }
        throw CLIError(message: "the passphrases do not match (\(promptTries) tries)")
    }

    /// How many times a sealing passphrase is asked for, and again, before giving up.
    static let promptTries = 3

    static let hint = "pass --key-file FILE or --passphrase-file FILE, or set \(environmentVariable)"

    /// What to do for a message sealed for a key of `kind`.
    static func hint(for kind: KeyKind) -> String {
        switch kind {
        case .keyFile: return "pass the key with --key-file FILE, or keep it with 'qrseal keys add FILE'"
        case .publicKey: return "pass your identity with --identity FILE, or keep it with 'qrseal keys add FILE'"
        case .passphrase: return "pass --passphrase-file FILE or set \(environmentVariable)"
        }
    }
}
