/// One recipient stanza of an age header: `-> TYPE ARG…`, then its body in base64.
struct AgeStanza: Equatable {
    let type: String
    let arguments: [String]
    let body: [UInt8]

    /// The stanza's lines: arguments after `-> `, the body wrapped at 64 columns, always
    /// ending with a line shorter than 64 (empty when the last full line ends the body).
    var encoded: [UInt8] {
        var out = Array(("-> " + ([type] + arguments).joined(separator: " ") + "\n").utf8)
        let text = Array(Base64.encode(body, padded: false).utf8)
        var i = 0
        while i + 64 <= text.count {
            out += text[i..<i + 64] + [0x0A]
            i += 64
        }
        return out + text[i...] + [0x0A]
    }
}

/// The header of an age v1 file (C2SP age.md): the version line, the recipient stanzas and
/// the MAC line. Parsing enforces every rule of the spec that needs no key.
struct AgeHeader: Equatable {
    static let intro = Array("age-encryption.org/v1\n".utf8)
    static let versionPrefix = Array("age-encryption.org/".utf8)
    /// Headers longer than this are refused before they are read further: no real header comes
    /// near it (a post-quantum stanza is about 1.6 KB).
    static let maxLength = 1 << 20
    /// More recipient stanzas than this are refused: each costs an X25519 per identity.
    static let maxStanzas = 4096

    let stanzas: [AgeStanza]
    /// The 32-byte MAC of the line `--- `.
    let mac: [UInt8]
    /// The bytes the MAC covers: the header up to and including `---`.
    let macInput: [UInt8]
    /// The header's length in bytes, its final line break included: where the payload starts.
    let length: Int

    /// Parses the header at the start of `bytes` (which may go on with the payload); throws
    /// `.ageHeader` for a broken rule, `.unsupportedVersion`-like text for another version,
    /// and `.truncated` for a header cut off.
    init(parsing bytes: [UInt8]) throws(SealError) {
        var position = 0
        /// The next line without its line break; a CR before it is part of the line (and so refused).
        func nextLine() throws(SealError) -> ArraySlice<UInt8> {
            guard position < bytes.count else { throw .ageHeader("cut off before the MAC line") }
            let limit = min(bytes.count, Self.maxLength)
            guard let end = bytes[position..<limit].firstIndex(of: 0x0A) else {
                if limit == Self.maxLength { throw .ageHeader("longer than \(Self.maxLength) bytes") }
                throw .ageHeader("cut off before the MAC line")
            }
            defer { position = end + 1 }
            return bytes[position..<end]
        }
        guard bytes.starts(with: Self.intro) else {
            if bytes.starts(with: Self.versionPrefix) {
                let line = bytes.dropFirst(Self.versionPrefix.count).prefix { $0 != 0x0A }.prefix(32)
                throw .ageHeader("unsupported version '\(DisplayText.escape(String(decoding: line, as: UTF8.self)))' (this reader knows v1)")
            }
            throw .ageHeader("not an age file (no age-encryption.org/v1 line)")
        }
        position = Self.intro.count
        var stanzas: [AgeStanza] = []
        while true {
            let lineStart = position
            let line = try nextLine()
            if line.starts(with: Array("--- ".utf8)) {
                guard let mac = Base64.decode(line.dropFirst(4), padded: false), mac.count == 32 else {
                    throw .ageHeader("the MAC line does not hold 32 bytes in canonical base64")
                }
                guard !stanzas.isEmpty else { throw .ageHeader("no recipient stanza") }
                self.stanzas = stanzas
                self.mac = mac
                self.macInput = Array(bytes[..<(lineStart + 3)])
                self.length = position
                return
            }
            guard line.starts(with: Array("-> ".utf8)) else {
                throw .ageHeader("line \(Self.lineNumber(bytes, lineStart)): expected a stanza ('-> ') or the MAC line ('--- ')")
            }
            guard stanzas.count < Self.maxStanzas else { throw .ageHeader("more than \(Self.maxStanzas) recipient stanzas") }
            let fields = line.dropFirst(3).split(separator: 0x20, omittingEmptySubsequences: false)
            guard fields.allSatisfy({ !$0.isEmpty && $0.allSatisfy { (0x21...0x7E).contains($0) } }) else {
                throw .ageHeader("line \(Self.lineNumber(bytes, lineStart)): a stanza argument is empty or holds a character other than printable ASCII")
            }
            var body: [UInt8] = []
            while true {
                let bodyLine = try nextLine()
                guard bodyLine.count <= 64 else {
                    throw .ageHeader("a stanza body line is longer than 64 columns")
                }
                guard let decoded = Base64.decode(bodyLine, padded: false) else {
                    throw .ageHeader("a stanza body is not canonical base64 without padding")
                }
                body += decoded
                if bodyLine.count < 64 { break }
            }
            let strings = fields.map { String(decoding: $0, as: UTF8.self) }
            stanzas.append(AgeStanza(type: strings[0], arguments: Array(strings.dropFirst()), body: body))
        }
    }

    init(stanzas: [AgeStanza], fileKey: [UInt8]) {
        var bytes = Self.intro
        for stanza in stanzas { bytes += stanza.encoded }
        bytes += Array("---".utf8)
        let mac = Self.mac(fileKey: fileKey, over: bytes)
        self.stanzas = stanzas
        self.mac = mac
        self.macInput = bytes
        self.length = bytes.count + 1 + 43 + 1
    }

    /// The whole header: what the MAC covers, then ` `, the MAC and a line break.
    var bytes: [UInt8] { macInput + Array((" " + Base64.encode(mac, padded: false) + "\n").utf8) }

    /// HMAC-SHA-256 with HKDF-SHA-256(file key, salt "", info "header").
    static func mac(fileKey: [UInt8], over bytes: [UInt8]) -> [UInt8] {
        Crypto.hmacSHA256(key: Crypto.hkdfSHA256(ikm: fileKey, salt: [], info: Array("header".utf8)), message: bytes)
    }

    /// Whether the MAC verifies for `fileKey`.
    func verifies(fileKey: [UInt8]) -> Bool {
        Crypto.constantTimeEqual(Self.mac(fileKey: fileKey, over: macInput), mac)
    }

    private static func lineNumber(_ bytes: [UInt8], _ offset: Int) -> Int {
        bytes[..<offset].reduce(1) { $0 + ($1 == 0x0A ? 1 : 0) }
    }
}
