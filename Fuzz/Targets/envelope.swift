// Sealed envelopes and their inner header (`Opener.open`, `Envelope(parsing:)`,
// `InnerPlaintext.decode`) with fixed test keys.
//
// The first byte picks what the rest is. Even: an envelope, opened as it is (only the
// cleartext header is reachable without a valid tag). Odd: an inner plaintext, sealed here
// with the test key so that the opener authenticates it and parses flags, name and body.
// Whatever opens must stay within the content limit, carry a safe name, and seal again to
// something that opens to the same payload.
@testable import QRSealKit

let key = SecretKey(bytes: Array(0..<32))
let keys: [SealKey] = [.passphrase("fuzz"), .keyFile(key)]
let maxContent = 1 << 16
/// A fresh opener for each open, so that no budget is spent across inputs; scrypt limited to
/// N = 2, r = 8: enough to run the passphrase path on every input.
func opener() -> Opener {
    Opener(maxScryptLog2N: 1, budget: OpeningBudget(maxScryptWork: .max, maxContentBytes: maxContent))
}
let nonce = [UInt8](repeating: 7, count: Crypto.nonceLength)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzEnvelope(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = bytes(data, size)
    guard let mode = input.first else { return 0 }
    let rest = Array(input.dropFirst())
    let envelope = mode & 1 == 0 ? rest : sealed(inner: rest)
    if let description = try? Opener.describe(envelope) {
        require(description.bytes == envelope.count, "describe gives the wrong size")
    }
    guard let payload = try? opener().open(envelope, keys: keys) else { return 0 }
    require(payload.content.count <= maxContent, "content passes the limit")
    if case .file(let name, _) = payload {
        require(InnerPlaintext.isSafeName(name), "unsafe name \(name.debugDescription) accepted")
    }
    for compress in [false, true] {
        let again = try? InnerPlaintext.encode(payload, compress: compress)
        require(again.flatMap { try? opener().open(sealed(inner: $0), keys: keys) } == payload,
                "the payload does not seal and open again (compress: \(compress))")
    }
    return 0
}

/// `inner` sealed with the test key file, as a writer would.
func sealed(inner: [UInt8]) -> [UInt8] {
    let header = Envelope(kind: .keyFile, scrypt: nil, salt: [], nonce: nonce, sealed: []).header
    return header + (try! Crypto.seal(key: key.messageKey, nonce: nonce, aad: header, plaintext: inner))
}
