import FoundationEssentials
import Glibc
import QRSealKit

/// `encode --to` and `encode --armor age|age-text`: recipients named on the command line, and
/// a standard age file in the symbol instead of a qrseal envelope.
enum AgeSymbol {
    enum Form { case binary, text }

    /// `--armor age` or `age-text`; nil for the envelope armors (or none).
    static func form(_ args: ParsedArguments) throws(CLIError) -> Form? {
        switch try args.choice("armor", of: ["digits", "binary", "age", "age-text"]) {
        case "age": return .binary
        case "age-text": return .text
        default: return nil
        }
    }

    /// The recipients of every `--to`: an `age1…` key as it is, anything else a contact's name;
    /// nil without `--to`.
    static func recipients(_ args: ParsedArguments, console: Console) throws(CLIError) -> [AgeRecipient]? {
        guard let values = args.values["to"] else { return nil }
        let contacts = try? Locations(console: console).contacts()
        var recipients: [AgeRecipient] = []
        for value in values {
            if value.lowercased().hasPrefix("age1") {
                do { recipients.append(try AgeRecipient(text: value)) } catch {
                    throw CLIError(message: "--to \(DisplayText.escape(value)): \(error.description)", status: .usage)
                }
                continue
            }
            guard let contacts else { throw CLIError(message: "--to \(DisplayText.escape(value)): no contacts folder") }
            do { recipients.append(try contacts.recipient(named: value)) } catch {
                var failure = CLIError(message: "--to \(DisplayText.escape(value)): \(error.description)")
                if case .missing = error { failure.hints.append("add it with 'qrseal contacts add \(DisplayText.escape(value)) age1…', or give the age1… key itself") }
                throw failure
            }
        }
        guard recipients.count <= 255 else { throw .usage("--to was given \(recipients.count) times; a message takes at most 255 recipients") }
        return recipients
    }

    /// The symbol holding `input` as an age file sealed with `key` (recipients or a passphrase).
    static func encode(_ input: [UInt8], with key: SealKey, form: Form, symbol: QREncoder) throws(CLIError) -> QRMatrix {
        let file: [UInt8]
        do {
            switch key {
            case .recipients(let recipients): file = try AgeFile.seal(input, to: recipients)
            case .passphrase(let passphrase): file = try AgeFile.seal(input, passphrase: passphrase)
            case .keyFile, .identity:
                throw CLIError.usage("an age file is sealed to recipients (--to) or a passphrase, not a key file")
            }
        } catch let error as CLIError {
            throw error
        } catch let error as SealError {
            throw CLIError(message: error.description)
        } catch {
            throw CLIError(message: "\(error)")
        }
        let content: QREncoder.Content = form == .binary ? .binary(file) : .text(AgeArmor.encode(file))
        do { return try symbol.encode(content) } catch {
            var failure = CLIError(message: "the age file is \(file.count) bytes"
                + (form == .text ? " (\(AgeArmor.encode(file).utf8.count) armored)" : "")
                + ", too much for one QR code: \(error.description)")
            if form == .text { failure.hints.append("--armor age (binary) fits about a third more") }
            failure.hints.append("qrseal's own armor (--armor digits or binary) is smaller still")
            throw failure
        }
    }
}
