import QRSealKit

/// `qrseal capacity`: how many bytes fit in each QR version at one level.
struct CapacityCommand {
    let level: ErrorCorrection
    let armor: Armor
    let sealed: Bool

    init(_ args: ParsedArguments) throws(CLIError) {
        guard args.positionals.isEmpty else { throw .usage("capacity takes no arguments") }
        level = try args.errorCorrection()
        armor = try args.armor()
        sealed = args.has("seal")
    }

    func run(console: Console) -> ExitStatus {
        if sealed {
            console.print("Sealed content per QR version at error correction \(level.rawValue), "
                          + "\(armor.rawValue) armor (bytes of text, before compression):")
            console.print(Self.row(["version", "modules", "passphrase", "key file"]))
            for v in QRCapacity.versions {
                let room = armor.maxEnvelopeBytes(version: v, level: level)
                let withPassphrase = max(0, room - Encoder.sealOverhead(passphrase: true))
                let withKey = max(0, room - Encoder.sealOverhead(passphrase: false))
                console.print(Self.row(["\(v)", "\(17 + 4 * v)", "\(withPassphrase)", "\(withKey)"]))
            }
        } else {
            console.print("Content per QR version at error correction \(level.rawValue) (one segment of one mode):")
            console.print(Self.row(["version", "modules", "bytes", "alphanumeric", "digits"]))
            for v in QRCapacity.versions {
                let alnum = QRCapacity.characters(.alphanumeric, version: v, level: level)
                let digits = QRCapacity.characters(.numeric, version: v, level: level)
                console.print(Self.row(["\(v)", "\(17 + 4 * v)",
                                        "\(QRCapacity.byteCapacity(version: v, level: level))", "\(alnum)", "\(digits)"]))
            }
        }
        return .success
    }

    static func row(_ cells: [String]) -> String {
        cells.enumerated().map { i, c in
            let width = i == 0 ? 7 : 12
            return String(repeating: " ", count: max(0, width - c.count)) + c
        }.joined(separator: " ")
    }
}
