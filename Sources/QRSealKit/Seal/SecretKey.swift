import FoundationEssentials
import Glibc

/// A 256-bit key from a key file, in the text form `QRSEAL-KEY-1-…` (docs/FORMAT.md, section 5).
public struct SecretKey: Equatable, Sendable {
    public static let prefix = "QRSEAL-KEY-1-"
    static let checksumContext = Array("qrseal key 1".utf8)

    /// The 32 secret bytes.
    let bytes: [UInt8]

    init(bytes: [UInt8]) {
        precondition(bytes.count == 32, "a key is 32 bytes")
        self.bytes = bytes
    }

    /// A new random key.
    public static func generate() throws(SealError) -> SecretKey {
        SecretKey(bytes: try Crypto.randomBytes(32))
    }

    /// Parses a key line; white space around it is ignored and lower case accepted.
    public init(text: String) throws(SealError) {
        let line = text.trimmingWhitespace().uppercased()
        guard line.hasPrefix(Self.prefix) else {
            throw .badKey("a key starts with \(Self.prefix)")
        }
        let encoded = line.dropFirst(Self.prefix.count)
        guard encoded.count == 58, let decoded = Base32.decode(String(encoded)), decoded.count == 36 else {
            throw .badKey("expected 58 base32 characters after the prefix")
        }
        let secret = Array(decoded[..<32])
        guard Array(decoded[32...]) == Self.checksum(secret) else {
            throw .badKey("checksum mismatch (mistyped or damaged key)")
        }
        self.bytes = secret
    }

    /// Why `save(to:)` failed.
    public enum SaveFailure: Error, Equatable, Sendable {
        /// A file is already there; it was left alone.
        case exists
        /// The file could not be created or written; the text is the system's reason.
        case io(String)
    }

    /// Writes the key's line to a new file with mode 0600 (`SecretFile.writeNew`).
    public func save(to path: String) throws(SaveFailure) {
        try SecretFile.writeNew(Array((text + "\n").utf8), to: path)
    }

    /// The key's line of text, without a line break.
    public var text: String { Self.prefix + Base32.encode(bytes + Self.checksum(bytes)) }

    static func checksum(_ secret: [UInt8]) -> [UInt8] {
        Array(Crypto.sha256(checksumContext + secret).prefix(4))
    }

    /// The AES key for messages sealed to this key file.
    var messageKey: [UInt8] { Crypto.hmacSHA256(key: bytes, message: Array("qrseal v1 key file".utf8)) }
}

/// Files that hold secrets: keys and identities.
public enum SecretFile {
    /// Writes `bytes` to a new file with mode 0600. `O_EXCL` makes sure no file is ever
    /// replaced, even one made between a check and the open; a half-written file is removed.
    public static func writeNew(_ bytes: [UInt8], to path: String) throws(SecretKey.SaveFailure) {
        let fd = RawBytes.withCString(path) { open($0, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600) }
        guard fd >= 0 else {
            if errno == EEXIST { throw .exists }
            throw .io(SystemFiles.reason())
        }
        var failure = bytes.withUnsafeBytes { SystemFiles.writeAll($0, to: fd) }
        if failure == 0 && fsync(fd) != 0 { failure = errno }
        close(fd)
        guard failure == 0 else {
            SystemFiles.remove(path)
            throw .io("cannot write: " + SystemFiles.reason(failure))
        }
    }
}

/// RFC 4648 base32, upper case, no padding.
enum Base32 {
    static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".utf8)

    static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        var buffer = 0, bits = 0
        for b in bytes {
            buffer = buffer << 8 | Int(b)
            bits += 8
            while bits >= 5 {
                out.append(alphabet[(buffer >> (bits - 5)) & 31])
                bits -= 5
            }
        }
        if bits > 0 { out.append(alphabet[(buffer << (5 - bits)) & 31]) }
        return String(decoding: out, as: UTF8.self)
    }

    static func decode(_ text: String) -> [UInt8]? {
        var out: [UInt8] = []
        var buffer = 0, bits = 0
        for c in text.utf8 {
            guard let v = alphabet.firstIndex(of: c) else { return nil }
            buffer = (buffer << 5 | v) & 0xFFFF
            bits += 5
            if bits >= 8 {
                out.append(UInt8((buffer >> (bits - 8)) & 0xFF))
                bits -= 8
            }
        }
        // Leftover bits must be zero padding.
        guard buffer & ((1 << bits) - 1) == 0 else { return nil }
        return out
    }
}

extension String {
    func trimmingWhitespace() -> String {
        let scalars = unicodeScalars
        guard let start = scalars.firstIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        let end = scalars.lastIndex(where: { !$0.properties.isWhitespace })!
        return String(scalars[start...end])
    }
}
