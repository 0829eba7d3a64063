/// age's payload encryption: STREAM over ChaCha20-Poly1305 in 64 KiB chunks. The nonce of
/// chunk i is i as 11 big-endian bytes, then 1 for the last chunk and 0 for the others.
enum AgeStream {
    static let chunkSize = 64 << 10
    static let sealedChunkSize = chunkSize + Crypto.tagLength
    static let nonceLength = 16

    /// The payload key: HKDF-SHA-256(file key, salt = the payload's 16-byte nonce, info "payload").
    static func payloadKey(fileKey: [UInt8], nonce: [UInt8]) -> [UInt8] {
        Crypto.hkdfSHA256(ikm: fileKey, salt: nonce, info: Array("payload".utf8))
    }

    static func chunkNonce(_ counter: UInt64, last: Bool) -> [UInt8] {
        [0, 0, 0] + (0..<8).map { UInt8(truncatingIfNeeded: counter >> (56 - 8 * $0)) } + [last ? 1 : 0]
    }

    /// The payload (nonce ‖ chunks) of `plaintext`; an empty plaintext is one empty last chunk.
    static func seal(_ plaintext: [UInt8], fileKey: [UInt8]) throws(SealError) -> [UInt8] {
        let nonce = try Crypto.randomBytes(nonceLength)
        let key = payloadKey(fileKey: fileKey, nonce: nonce)
        var out = nonce
        out.reserveCapacity(nonceLength + plaintext.count + (plaintext.count / chunkSize + 1) * Crypto.tagLength)
        var counter: UInt64 = 0, offset = 0
        repeat {
            let end = min(offset + chunkSize, plaintext.count)
            let last = end == plaintext.count
            out += try Crypto.chachaSeal(key: key, nonce: chunkNonce(counter, last: last),
                                         plaintext: Array(plaintext[offset..<end]))
            counter += 1
            offset = end
        } while offset < plaintext.count
        return out
    }

    /// Opens a payload fed in pieces of any size. A chunk is opened as soon as a byte after it
    /// is known (so it cannot be the last); whatever is left at `finish` must be the last chunk.
    /// Nothing it returns is unauthenticated, but a caller writing a file must still wait for
    /// `finish` before keeping any of it: a later chunk may fail.
    struct Opener {
        private var key: [UInt8]?
        private let fileKey: [UInt8]
        private var counter: UInt64 = 0
        private var buffer: [UInt8] = []
        private var start = 0

        init(fileKey: [UInt8]) {
            self.fileKey = fileKey
        }

        mutating func feed(_ bytes: [UInt8]) throws(SealError) -> [UInt8] {
            buffer += bytes
            if key == nil {
                guard buffer.count - start >= AgeStream.nonceLength else { return [] }
                key = AgeStream.payloadKey(fileKey: fileKey, nonce: Array(buffer[start..<start + AgeStream.nonceLength]))
                start += AgeStream.nonceLength
            }
            var out: [UInt8] = []
            while buffer.count - start > AgeStream.sealedChunkSize {
                let chunk = Array(buffer[start..<start + AgeStream.sealedChunkSize])
                guard let plain = try Crypto.chachaOpen(key: key!, nonce: AgeStream.chunkNonce(counter, last: false),
                                                        sealed: chunk) else {
                    throw .agePayload("chunk \(counter + 1) does not authenticate (altered, or bytes follow the last chunk)")
                }
                out += plain
                counter += 1
                start += AgeStream.sealedChunkSize
            }
            if start > AgeStream.sealedChunkSize {
                buffer.removeFirst(start)
                start = 0
            }
            return out
        }

        /// The last chunk's plaintext; throws when the payload is cut off or its end is wrong.
        mutating func finish() throws(SealError) -> [UInt8] {
            guard let key else { throw .ageHeader("the payload nonce is missing or cut off") }
            let chunk = Array(buffer[start...])
            guard !chunk.isEmpty else {
                throw .agePayload(counter == 0 ? "no chunks after the nonce" : "cut off after chunk \(counter)")
            }
            guard chunk.count >= Crypto.tagLength else { throw .agePayload("the last chunk is cut off") }
            guard let plain = try Crypto.chachaOpen(key: key, nonce: AgeStream.chunkNonce(counter, last: true),
                                                    sealed: chunk) else {
                if chunk.count == AgeStream.sealedChunkSize,
                   (try? Crypto.chachaOpen(key: key, nonce: AgeStream.chunkNonce(counter, last: false), sealed: chunk)) ?? nil != nil {
                    throw .agePayload("cut off: chunk \(counter + 1) is not marked as the last")
                }
                throw .agePayload("chunk \(counter + 1) does not authenticate (altered or cut off)")
            }
            guard !plain.isEmpty || counter == 0 else {
                throw .agePayload("the last chunk is empty, which only an empty payload may have")
            }
            buffer = []
            start = 0
            return plain
        }
    }
}
