// Content kinds (`ContentClassifier.classify` and its parsers): any payload, as text or
// bytes under any symbology, gets exactly one kind; sealed only when the armor says so,
// binary only without text, and no field without a name.
@testable import QRSealKit

let symbologies = ["text"] + Symbology.allCases.map(\.rawValue)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzContent(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = bytes(data, size)
    guard let selector = input.first else { return 0 }
    let payload = Array(input.dropFirst())
    let symbology = symbologies[Int(selector) % symbologies.count]
    let text = String(validating: payload, as: UTF8.self)
    let summary = ContentClassifier.classify(bytes: payload, text: text, symbology: symbology)
    if summary.kind == .binary { require(text == nil, "text classified as binary") }
    if summary.kind == .sealed {
        let trimmed = text.map { Array($0.trimmingWhitespace().utf8) } ?? payload
        require(Armor.isSealed(payload) || Armor.isSealed(trimmed), "sealed without armor")
    }
    require(summary.fields.allSatisfy { !$0.name.isEmpty }, "a field without a name")
    return 0
}
