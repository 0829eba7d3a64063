// Armor and pasted text (`Armor.envelope(fromSymbol:)`, `(fromText:)`, `isSealed`): what is
// accepted is a canonical digit string or binary armor, and writing the envelope out again
// gives back what was read.
@testable import QRSealKit

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzArmor(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = bytes(data, size)
    let envelope: [UInt8]??
    do { envelope = .some(try Armor.envelope(fromSymbol: input)) } catch { envelope = nil }
    if let found = envelope ?? nil {
        require(Armor.isSealed(input), "an envelope in a symbol that is not sealed")
        if input.starts(with: Armor.magic) {
            require(Armor.magic + found == input, "binary armor does not round-trip")
        } else {
            let text = Armor.text(for: found)
            require(Array(text.utf8.dropFirst(Armor.digitsPrefix.count)) == Array(input.drop { $0 != 0x3A }.dropFirst()),
                    "digits armor does not round-trip")
            require((try? Armor.envelope(fromText: text)) == found, "armor text does not read back")
        }
    } else if envelope == nil {
        require(Armor.isSealed(input), "refused armor that is not counted as sealed")
    }
    let text = String(decoding: input, as: UTF8.self)
    if let pasted = try? Armor.envelope(fromText: text) {
        require(Digits.count(forBytes: pasted.count) <= Digits.maxDigits, "more digits than a code holds")
        require((try? Armor.envelope(fromText: Armor.text(for: pasted))) == pasted, "pasted armor does not round-trip")
    }
    return 0
}
