/// The key wrapping of a recipients envelope (key type 0x02, docs/FORMAT.md section 2.3): a
/// 16-byte message key, wrapped for each recipient under a key derived from the X25519 secret
/// of the message's ephemeral key and the recipient's public key.
enum RecipientSlots {
    static let messageKeyLength = 16
    static let wrapLabel = Array("qrseal v1 recipient".utf8)
    static let bodyLabel = Array("qrseal v1 body".utf8)
    static let zeroNonce = [UInt8](repeating: 0, count: Crypto.nonceLength)

    /// W = HKDF-SHA-256(ikm = shared secret, salt = share ‖ recipient, info "qrseal v1 recipient").
    static func wrapKey(shared: [UInt8], share: [UInt8], recipient: AgeRecipient) -> [UInt8] {
        Crypto.hkdfSHA256(ikm: shared, salt: share + recipient.publicKey, info: wrapLabel)
    }

    /// The slot: AES-256-GCM(W, zero nonce, no associated data, message key), 32 bytes. W is
    /// used once: the ephemeral key is new for every message.
    static func wrap(_ messageKey: [UInt8], shared: [UInt8], share: [UInt8], recipient: AgeRecipient) throws(SealError) -> [UInt8] {
        try Crypto.seal(key: wrapKey(shared: shared, share: share, recipient: recipient), nonce: zeroNonce, aad: [],
                        plaintext: messageKey)
    }

    /// The message key in `slot`, nil when the slot is not this recipient's.
    static func unwrap(_ slot: [UInt8], shared: [UInt8], share: [UInt8], recipient: AgeRecipient) throws(SealError) -> [UInt8]? {
        guard let key = try Crypto.open(key: wrapKey(shared: shared, share: share, recipient: recipient),
                                        nonce: zeroNonce, aad: [], sealed: slot),
              key.count == messageKeyLength else { return nil }
        return key
    }

    /// K = HKDF-SHA-256(ikm = message key, salt empty, info "qrseal v1 body"): the body's AES key.
    static func bodyKey(_ messageKey: [UInt8]) -> [UInt8] {
        Crypto.hkdfSHA256(ikm: messageKey, salt: [], info: bodyLabel)
    }
}
