import CLibCrypto

/// The cryptographic primitives of the format, each a call into OpenSSL's libcrypto.
///
/// libcrypto is opened on first use (`SharedLibrary.crypto`): the throwing primitives open it
/// first and throw `.crypto` naming it when it cannot be; the CLI opens it before any command
/// that may hash, so that the non-throwing ones (hashes, HMAC) find it open.
enum Crypto {
    static let keyLength = 32, nonceLength = 12, tagLength = 16

    /// Opens libcrypto (once), as a `SealError`.
    static func load() throws(SealError) {
        do { try SharedLibrary.crypto.load() } catch { throw .crypto(error.description) }
    }

    /// `count` bytes from RAND_bytes.
    static func randomBytes(_ count: Int) throws(SealError) -> [UInt8] {
        try load()
        var bytes = [UInt8](repeating: 0, count: count)
        guard RAND_bytes(&bytes, Int32(count)) == 1 else { throw .crypto(drainErrors()) }
        return bytes
    }

    /// SHA-256 via EVP_Digest.
    static func sha256(_ data: [UInt8]) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        let ok = data.withUnsafeBufferPointer {
            EVP_Digest($0.baseAddress, $0.count, &digest, &length, EVP_sha256(), nil)
        }
        precondition(ok == 1 && length == 32, SharedLibrary.crypto.failure?.description ?? "EVP_Digest(SHA-256) failed")
        return digest
    }

    /// HMAC-SHA-256 via HMAC().
    static func hmacSHA256(key: [UInt8], message: [UInt8]) -> [UInt8] {
        var mac = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        let result = key.withUnsafeBufferPointer { k in
            message.withUnsafeBufferPointer { m in
                HMAC(EVP_sha256(), k.baseAddress, Int32(k.count), m.baseAddress, m.count, &mac, &length)
            }
        }
        precondition(result != nil && length == 32, SharedLibrary.crypto.failure?.description ?? "HMAC(SHA-256) failed")
        return mac
    }

    /// A 32-byte key from `password` with EVP_PBE_scrypt.
    static func scrypt(password: [UInt8], salt: [UInt8], log2N: Int, r: Int, p: Int) throws(SealError) -> [UInt8] {
        try load()
        var key = [UInt8](repeating: 0, count: keyLength)
        let n = UInt64(1) << UInt64(log2N)
        // OpenSSL needs 128·r·(N + 2) bytes for V plus 128·r·p for B; allow exactly that.
        let maxmem = 128 * UInt64(r) * (n + 2 + UInt64(p)) + 4096
        let ok = password.withUnsafeBufferPointer { pw in
            pw.withMemoryRebound(to: CChar.self) { pwc in
                EVP_PBE_scrypt(pwc.baseAddress, pwc.count, salt, salt.count,
                               n, UInt64(r), UInt64(p), maxmem, &key, key.count)
            }
        }
        guard ok == 1 else { throw .crypto("scrypt: " + drainErrors()) }
        return key
    }

    /// AES-256-GCM encryption with EVP_aes_256_gcm: ciphertext ‖ 16-byte tag.
    static func seal(key: [UInt8], nonce: [UInt8], aad: [UInt8], plaintext: [UInt8]) throws(SealError) -> [UInt8] {
        try aeadSeal(EVP_aes_256_gcm(), key: key, nonce: nonce, aad: aad, plaintext: plaintext)
    }

    /// AES-256-GCM decryption; nil when the tag does not verify (wrong key or altered data).
    static func open(key: [UInt8], nonce: [UInt8], aad: [UInt8], sealed: [UInt8]) throws(SealError) -> [UInt8]? {
        try aeadOpen(EVP_aes_256_gcm(), key: key, nonce: nonce, aad: aad, sealed: sealed)
    }

    /// ChaCha20-Poly1305 (RFC 8439) encryption with EVP_chacha20_poly1305: ciphertext ‖ 16-byte tag.
    static func chachaSeal(key: [UInt8], nonce: [UInt8], aad: [UInt8] = [], plaintext: [UInt8]) throws(SealError) -> [UInt8] {
        try aeadSeal(EVP_chacha20_poly1305(), key: key, nonce: nonce, aad: aad, plaintext: plaintext)
    }

    /// ChaCha20-Poly1305 decryption; nil when the tag does not verify.
    static func chachaOpen(key: [UInt8], nonce: [UInt8], aad: [UInt8] = [], sealed: [UInt8]) throws(SealError) -> [UInt8]? {
        try aeadOpen(EVP_chacha20_poly1305(), key: key, nonce: nonce, aad: aad, sealed: sealed)
    }

    /// An AEAD with a 32-byte key, 12-byte nonce and 16-byte tag (EVP_EncryptInit_ex,
    /// EVP_CTRL_AEAD_GET_TAG): ciphertext ‖ tag.
    private static func aeadSeal(_ cipher: OpaquePointer?, key: [UInt8], nonce: [UInt8], aad: [UInt8],
                                 plaintext: [UInt8]) throws(SealError) -> [UInt8] {
        try load()
        precondition(key.count == keyLength && nonce.count == nonceLength, "bad AEAD key or nonce size")
        guard let ctx = EVP_CIPHER_CTX_new() else { throw .crypto(drainErrors()) }
        defer { EVP_CIPHER_CTX_free(ctx) }
        var out = [UInt8](repeating: 0, count: plaintext.count + tagLength)
        var length: Int32 = 0
        guard EVP_EncryptInit_ex(ctx, cipher, nil, key, nonce) == 1 else { throw .crypto(drainErrors()) }
        if !aad.isEmpty {
            guard EVP_EncryptUpdate(ctx, nil, &length, aad, Int32(aad.count)) == 1 else { throw .crypto(drainErrors()) }
        }
        var written = 0
        if !plaintext.isEmpty {
            let ok = out.withUnsafeMutableBufferPointer {
                EVP_EncryptUpdate(ctx, $0.baseAddress, &length, plaintext, Int32(plaintext.count))
            }
            guard ok == 1 else { throw .crypto(drainErrors()) }
            written = Int(length)
        }
        let finished = out.withUnsafeMutableBufferPointer {
            EVP_EncryptFinal_ex(ctx, $0.baseAddress! + written, &length)
        }
        guard finished == 1 else { throw .crypto(drainErrors()) }
        written += Int(length)
        var tag = [UInt8](repeating: 0, count: tagLength)
        guard EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, Int32(tagLength), &tag) == 1 else {
            throw .crypto(drainErrors())
        }
        return Array(out[..<written]) + tag
    }

    /// The AEAD's decryption (EVP_DecryptInit_ex, EVP_CTRL_AEAD_SET_TAG); nil when the tag does
    /// not verify.
    private static func aeadOpen(_ cipher: OpaquePointer?, key: [UInt8], nonce: [UInt8], aad: [UInt8],
                                 sealed: [UInt8]) throws(SealError) -> [UInt8]? {
        try load()
        precondition(key.count == keyLength && nonce.count == nonceLength, "bad AEAD key or nonce size")
        guard sealed.count >= tagLength else { return nil }
        let ciphertext = Array(sealed.dropLast(tagLength))
        var tag = Array(sealed.suffix(tagLength))
        guard let ctx = EVP_CIPHER_CTX_new() else { throw .crypto(drainErrors()) }
        defer { EVP_CIPHER_CTX_free(ctx) }
        var out = [UInt8](repeating: 0, count: ciphertext.count + tagLength)
        var length: Int32 = 0
        guard EVP_DecryptInit_ex(ctx, cipher, nil, key, nonce) == 1 else { throw .crypto(drainErrors()) }
        if !aad.isEmpty {
            guard EVP_DecryptUpdate(ctx, nil, &length, aad, Int32(aad.count)) == 1 else { throw .crypto(drainErrors()) }
        }
        var written = 0
        if !ciphertext.isEmpty {
            let ok = out.withUnsafeMutableBufferPointer {
                EVP_DecryptUpdate(ctx, $0.baseAddress, &length, ciphertext, Int32(ciphertext.count))
            }
            guard ok == 1 else { throw .crypto(drainErrors()) }
            written = Int(length)
        }
        guard EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, Int32(tagLength), &tag) == 1 else {
            throw .crypto(drainErrors())
        }
        let verified = out.withUnsafeMutableBufferPointer {
            EVP_DecryptFinal_ex(ctx, $0.baseAddress! + written, &length)
        }
        // A failed tag leaves nothing on the error queue worth reporting, but drain it anyway.
        guard verified > 0 else { _ = drainErrors(); return nil }
        return Array(out[..<(written + Int(length))])
    }

    /// HKDF-SHA-256 (RFC 5869) of at most 255 blocks, built on `hmacSHA256`: extract with
    /// `salt` (an empty salt is HashLen zero bytes, as the RFC says), then expand with `info`.
    static func hkdfSHA256(ikm: [UInt8], salt: [UInt8], info: [UInt8], length: Int = 32) -> [UInt8] {
        precondition(length > 0 && length <= 255 * 32, "HKDF-SHA-256 output too long")
        let prk = hmacSHA256(key: salt.isEmpty ? [UInt8](repeating: 0, count: 32) : salt, message: ikm)
        var output: [UInt8] = [], block: [UInt8] = []
        var counter: UInt8 = 1
        while output.count < length {
            block = hmacSHA256(key: prk, message: block + info + [counter])
            output += block
            counter &+= 1
        }
        return Array(output.prefix(length))
    }

    /// The X25519 public key of a 32-byte private scalar (EVP_PKEY_new_raw_private_key with
    /// EVP_PKEY_X25519, then EVP_PKEY_get_raw_public_key).
    static func x25519PublicKey(privateKey: [UInt8]) throws(SealError) -> [UInt8] {
        try load()
        precondition(privateKey.count == 32, "an X25519 private key is 32 bytes")
        guard let key = EVP_PKEY_new_raw_private_key(EVP_PKEY_X25519, nil, privateKey, 32) else {
            throw .crypto(drainErrors())
        }
        defer { EVP_PKEY_free(key) }
        var out = [UInt8](repeating: 0, count: 32)
        var length = 32
        guard EVP_PKEY_get_raw_public_key(key, &out, &length) == 1, length == 32 else { throw .crypto(drainErrors()) }
        return out
    }

    /// The X25519 shared secret of `privateKey` and `publicKey` (EVP_PKEY_derive); nil when it
    /// is all zeros (a low-order or identity share), which RFC 7748 says to refuse. OpenSSL
    /// itself fails the derivation then; either way no zero secret is ever returned.
    static func x25519(privateKey: [UInt8], publicKey: [UInt8]) throws(SealError) -> [UInt8]? {
        try load()
        precondition(privateKey.count == 32 && publicKey.count == 32, "X25519 keys are 32 bytes")
        guard let mine = EVP_PKEY_new_raw_private_key(EVP_PKEY_X25519, nil, privateKey, 32),
              let theirs = EVP_PKEY_new_raw_public_key(EVP_PKEY_X25519, nil, publicKey, 32) else {
            throw .crypto(drainErrors())
        }
        defer { EVP_PKEY_free(mine); EVP_PKEY_free(theirs) }
        guard let ctx = EVP_PKEY_CTX_new(mine, nil) else { throw .crypto(drainErrors()) }
        defer { EVP_PKEY_CTX_free(ctx) }
        guard EVP_PKEY_derive_init(ctx) == 1, EVP_PKEY_derive_set_peer(ctx, theirs) == 1 else {
            throw .crypto(drainErrors())
        }
        var secret = [UInt8](repeating: 0, count: 32)
        var length = 32
        guard EVP_PKEY_derive(ctx, &secret, &length) == 1, length == 32 else {
            _ = drainErrors()
            return nil
        }
        return secret.allSatisfy { $0 == 0 } ? nil : secret
    }

    /// Whether two byte strings are equal, in time that depends only on their length (CRYPTO_memcmp).
    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        a.count == b.count && CRYPTO_memcmp(a, b, a.count) == 0
    }

    /// Empties OpenSSL's error queue and returns its first message, lowercased.
    static func drainErrors() -> String {
        var first: String?
        while case let code = ERR_get_error(), code != 0 {
            if first == nil {
                var buffer = [CChar](repeating: 0, count: 256)
                ERR_error_string_n(code, &buffer, buffer.count)
                first = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            }
        }
        return first ?? "unknown libcrypto error"
    }
}
