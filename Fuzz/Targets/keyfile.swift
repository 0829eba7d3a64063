// Key files (`SecretKey(text:)`): any text is refused or read as a key whose own text
// reads back as the same key.
@testable import QRSealKit

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzKeyFile(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let text = String(decoding: bytes(data, size), as: UTF8.self)
    guard let key = try? SecretKey(text: text) else { return 0 }
    require(key.bytes.count == 32, "a key of \(key.bytes.count) bytes")
    let again = try? SecretKey(text: key.text)
    require(again == key, "\(key.text) does not read back as the same key")
    require(Base32.decode(Base32.encode(key.bytes)) == key.bytes, "base32 does not round-trip")
    return 0
}
