// Outside text shown to people and bytes carried in strings (`DisplayText.escape`,
// `RawBytes`): whatever the bytes, the escaped text is safe for a terminal and leaves safe
// text as it is, and bytes carried in a string come back exactly.
@testable import QRSealKit

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDisplay(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = bytes(data, size)
    let text = RawBytes.string(input)
    require(RawBytes.bytes(text) == input, "bytes \(input) come back as \(RawBytes.bytes(text))")
    if !RawBytes.hasRawBytes(text) {
        require(String(validating: input, as: UTF8.self) == text, "invalid UTF-8 carried without raw bytes")
    }
    let shown = DisplayText.escape(text)
    require(DisplayText.isSafe(shown), "escaped text is not safe: \(shown.debugDescription)")
    if DisplayText.isSafe(text) { require(shown == text, "safe text changed by escaping") }
    let decoded = String(decoding: input, as: UTF8.self)
    require(DisplayText.isSafe(DisplayText.escape(decoded)), "escaped UTF-8 is not safe")
    return 0
}
