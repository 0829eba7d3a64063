/// The kind of key that opens a sealed message, as messages and hints name it.
public enum KeyKind: String, Sendable, CaseIterable, CustomStringConvertible {
    /// A shared key file (`qrseal keygen`).
    case keyFile = "key file"
    /// A passphrase, stretched with scrypt (ours and age's).
    case passphrase
    /// An X25519 identity, the secret half of a recipient's public key (ours and age's).
    case publicKey = "public key"

    public var description: String { rawValue }
}
