import Foundation
import Testing
@testable import QRSealKit

/// Writes vectors/seal/*.txt. Runs only with QRSEAL_WRITE_VECTORS=1; every byte it writes is
/// derived from fixed labels, so running it again gives the same files.
@Suite("Seal test vector generator")
struct VectorGenerator {
    static let enabled = ProcessInfo.processInfo.environment["QRSEAL_WRITE_VECTORS"] == "1"
    static let small = ScryptParameters(log2N: 10, r: 8, p: 1)

    /// `count` bytes that look random, fixed by `label`.
    static func bytes(_ label: String, _ count: Int) -> [UInt8] {
        var out: [UInt8] = []
        var block = 0
        while out.count < count {
            out += Crypto.sha256(Array("qrseal test vector \(label) \(block)".utf8))
            block += 1
        }
        return Array(out.prefix(count))
    }

    static func keyFile(_ label: String) -> SecretKey { SecretKey(bytes: bytes("key file " + label, 32)) }

    static func keyHeader(_ key: SealKey) -> (key: String, value: String) {
        switch key {
        case .passphrase(let p): return ("passphrase", p)
        case .keyFile(let k): return ("key", k.text)
        case .identity(let i): return ("identity", i.text)
        case .recipients: preconditionFailure("recipients are not a key to open with")
        }
    }

    /// The payload line and its header for `envelope` in `armor`.
    static func render(_ envelope: [UInt8], armor: Armor) -> (header: [(key: String, value: String)], payload: String) {
        switch armor {
        case .digits: return ([("armor", "digits")], Armor.text(for: envelope))
        case .binary: return ([("armor", "binary"), ("payload", "hex")], Hex.encode(Armor.magic + envelope))
        }
    }

    /// The envelope of `inner` (an inner plaintext, valid or not) sealed with `key`: a valid tag
    /// over bytes a writer would never produce.
    static func craft(_ inner: [UInt8], key: SealKey, label: String, scrypt: ScryptParameters = small) throws -> [UInt8] {
        let nonce = bytes("nonce " + label, 12)
        switch key {
        case .keyFile(let secret):
            let draft = Envelope(kind: .keyFile, scrypt: nil, salt: [], nonce: nonce, sealed: [])
            return draft.header + (try Crypto.seal(key: secret.messageKey, nonce: nonce, aad: draft.header, plaintext: inner))
        case .passphrase(let passphrase):
            let salt = bytes("salt " + label, 16)
            let draft = Envelope(kind: .passphrase, scrypt: scrypt, salt: salt, nonce: nonce, sealed: [])
            let aesKey = try Crypto.scrypt(password: Sealer.passphraseBytes(passphrase), salt: salt,
                                           log2N: scrypt.log2N, r: scrypt.r, p: scrypt.p)
            return draft.header + (try Crypto.seal(key: aesKey, nonce: nonce, aad: draft.header, plaintext: inner))
        case .identity, .recipients:
            preconditionFailure("craft recipients envelopes with the sealer")
        }
    }

    static func identity(_ label: String) throws -> AgeIdentity { try AgeIdentity(secret: bytes("identity " + label, 32)) }

    /// A success vector sealed to `recipients` (fixed ephemeral key and message key), opened
    /// with `identities`; returns the envelope.
    @discardableResult
    mutating func recipientSuccess(_ name: String, _ comment: String, identities: [AgeIdentity], recipients: [AgeRecipient],
                                   payload: Payload, armor: Armor = .digits, ephemeral: [UInt8]? = nil,
                                   messageKey: [UInt8]? = nil, nonce: [UInt8]? = nil) throws -> [UInt8] {
        var sealer = Sealer()
        let nonce = nonce ?? Self.bytes("nonce " + name, 12)
        let ephemeral = ephemeral ?? Self.bytes("ephemeral " + name, 32)
        let messageKey = messageKey ?? Self.bytes("message key " + name, 16)
        sealer.fixedRandom = (salt: [], nonce: nonce)
        sealer.fixedEphemeral = (secret: ephemeral, messageKey: messageKey)
        let envelope = try sealer.seal(payload, with: .recipients(recipients))
        var headers: [(key: String, value: String)] = [("expect", "success"), ("comment", comment)]
        headers += identities.map { ("identity", $0.text) }
        headers += recipients.map { ("recipient", $0.text) }
        let (armorHeader, text) = Self.render(envelope, armor: armor)
        headers += armorHeader
        switch payload {
        case .text: headers.append(("content", "text"))
        case .file(let fileName, _): headers += [("content", "file"), ("name", fileName)]
        }
        headers.append(("plaintext", Hex.encode(payload.content)))
        headers.append(("compress", "yes"))
        headers += [("nonce", Hex.encode(nonce)), ("ephemeral", Hex.encode(ephemeral)), ("message-key", Hex.encode(messageKey))]
        write(name, headers, payload: text)
        return envelope
    }

    /// The vectors of key type 0x02, recipients (docs/FORMAT.md section 2.3).
    mutating func generateRecipients() throws {
        let carol = try Self.identity("carol"), dave = try Self.identity("dave"), erin = try Self.identity("erin")
        // The worked example of FORMAT.md section 7.2: simple patterns for every random value.
        let exampleIdentity = try AgeIdentity(secret: (0..<32).map { UInt8(0x40 + $0) })
        try recipientSuccess("example-recipient.txt",
            "the worked example of docs/FORMAT.md section 7.2: text \"hi\" to one recipient; identity 40 41 … 5f, "
                + "ephemeral secret 80 81 … 9f, message key c0 … cf, nonce a0 … ab",
            identities: [exampleIdentity], recipients: [exampleIdentity.recipient], payload: .text("hi"),
            ephemeral: (0..<32).map { UInt8(0x80 + $0) }, messageKey: (0..<16).map { UInt8(0xC0 + $0) },
            nonce: (0xA0...0xAB).map { UInt8($0) })
        let one = try recipientSuccess("recipient-text.txt", "text sealed to one recipient (key type 0x02)",
            identities: [carol], recipients: [carol.recipient], payload: .text("Meet at the north gate at 7."))
        let several = try recipientSuccess("recipients-several.txt",
            "text sealed to three recipients; the reader holds only the third's identity, and a wrong one before it",
            identities: [try Self.identity("stranger"), erin], recipients: [carol.recipient, dave.recipient, erin.recipient],
            payload: .text("Three can read this."))
        try recipientSuccess("recipient-file-binary-armor.txt", "a file sealed to one recipient, binary armor",
            identities: [dave], recipients: [dave.recipient], payload: .file(name: "notes.txt", bytes: Array(Self.prose.utf8)),
            armor: .binary)
        failure("recipient-wrong-identity.txt", "no match",
                "sealed to carol; the reader holds dave's identity only: no slot unwraps, which is not damage",
                keys: [.identity(dave)], envelope: one)
        var slot = one
        slot[40] ^= 0x01
        failure("recipient-altered-slot.txt", "no match",
                "one bit of the only slot flipped: the slot no longer unwraps for anyone", keys: [.identity(carol)], envelope: slot)
        var body = one
        body[body.count - 20] ^= 0x01
        failure("recipient-altered-ciphertext.txt", "authentication failure",
                "the slot unwraps, but one bit of the ciphertext is flipped: the body's tag fails", keys: [.identity(carol)],
                envelope: body)
        var share = one
        share[2] ^= 0x01
        failure("recipient-altered-share.txt", "no match",
                "one bit of the ephemeral key flipped: the shared secret changes, so no slot unwraps",
                keys: [.identity(carol)], envelope: share)
        var zeroShare = one
        zeroShare.replaceSubrange(2..<34, with: [UInt8](repeating: 0, count: 32))
        failure("recipient-low-order-share.txt", "format failure",
                "the ephemeral key is the all-zero point: the X25519 secret would be zero, which readers refuse",
                keys: [.identity(carol)], envelope: zeroShare)
        var noSlots = Array(one[..<34]) + [0] + Array(one[(35 + 32)...])
        noSlots = Array(noSlots)
        failure("recipient-no-slots.txt", "format failure", "a recipient count of 0", keys: [.identity(carol)],
                envelope: noSlots)
        var moreSlots = one
        moreSlots[34] = 2
        failure("recipient-count-too-large.txt", "format failure",
                "the count says 2 slots and the envelope is too short for them: truncated", keys: [.identity(carol)],
                envelope: Array(moreSlots.prefix(35 + 64 + 12 + 10)), armor: .binary)
        _ = several
    }

    /// Files written so far: name → text.
    var files: [String: String] = [:]

    mutating func write(_ name: String, _ headers: [(key: String, value: String)], payload: String) {
        precondition(files[name] == nil, "two vectors named \(name)")
        files[name] = SealVector(headers: headers, payload: payload).text
    }

    /// A success vector: `payload` sealed with the last of `keys`; returns the envelope.
    @discardableResult
    mutating func success(_ name: String, _ comment: String, keys: [SealKey], payload: Payload,
                          armor: Armor = .digits, compress: Bool = true, scrypt: ScryptParameters = small,
                          nonce: [UInt8]? = nil, maxScrypt: Int? = nil) throws -> [UInt8] {
        var sealer = Sealer(scrypt: scrypt, compress: compress)
        let salt = Self.bytes("salt " + name, 16)
        let nonce = nonce ?? Self.bytes("nonce " + name, 12)
        sealer.fixedRandom = (salt: salt, nonce: nonce)
        let envelope = try sealer.seal(payload, with: keys.last!)
        var headers: [(key: String, value: String)] = [("expect", "success"), ("comment", comment)]
        headers += keys.map(Self.keyHeader)
        let (armorHeader, text) = Self.render(envelope, armor: armor)
        headers += armorHeader
        switch payload {
        case .text: headers.append(("content", "text"))
        case .file(let fileName, _): headers += [("content", "file"), ("name", fileName)]
        }
        headers += [("plaintext", Hex.encode(payload.content)), ("compress", compress ? "yes" : "no")]
        if case .passphrase = keys.last! {
            headers += [("salt", Hex.encode(salt)), ("scrypt", "\(scrypt.log2N) \(scrypt.r) \(scrypt.p)")]
        }
        headers.append(("nonce", Hex.encode(nonce)))
        if let maxScrypt { headers.append(("max-scrypt", String(maxScrypt))) }
        write(name, headers, payload: text)
        return envelope
    }

    /// A failure vector holding `envelope` in `armor` (or the literal `text`).
    mutating func failure(_ name: String, _ expect: String, _ comment: String, keys: [SealKey],
                          envelope: [UInt8] = [], armor: Armor = .digits, text: String? = nil, maxScrypt: Int? = nil) {
        var headers: [(key: String, value: String)] = [("expect", expect), ("comment", comment)]
        headers += keys.map(Self.keyHeader)
        let rendered = Self.render(envelope, armor: armor)
        headers += rendered.header
        if let maxScrypt { headers.append(("max-scrypt", String(maxScrypt))) }
        write(name, headers, payload: text ?? rendered.payload)
    }

    /// Vectors of digits cut off: file name, what the rest looks like, and a test on the
    /// envelope bytes the remaining digits stand for.
    static let cutOffShapes: [(String, String, @Sendable ([UInt8]) -> Bool)] = [
        ("digits-cut-off-version.txt", "format version 0 or 2", { $0[0] >> 4 != 1 }),
        ("digits-cut-off-frame-type.txt", "version 1 with a frame type other than 0", { $0[0] >> 4 == 1 && $0[0] & 0x0F != 0 }),
        ("digits-cut-off-key-type.txt", "version 1, frame type 0 and an unknown key type", { $0[0] == 0x10 && $0[1] > 2 }),
    ]

    /// The digits of `envelope` with the fewest digits cut off the end whose rest is a
    /// canonical digit string, at least 30 bytes long, whose bytes satisfy `test`.
    static func cutOff(_ envelope: [UInt8], where test: ([UInt8]) -> Bool) -> (String, Int) {
        let digits = Array(Armor.text(for: envelope).utf8.dropFirst(Armor.digitsPrefix.count))
        for cut in 1..<digits.count - 80 {
            let rest = Array(digits.dropLast(cut))
            guard let bytes = try? Digits.decode(rest), bytes.count >= 30, test(bytes) else { continue }
            return (String(decoding: rest, as: UTF8.self), cut)
        }
        preconditionFailure("no cut of the digits has that shape")
    }

    /// The decimal digits of 256^n.
    static func powerOf256(_ n: Int) -> [UInt8] {
        var digits: [UInt8] = [1]  // least significant first, values 0–9
        for _ in 0..<n {
            var carry = 0
            for i in digits.indices {
                let v = Int(digits[i]) * 256 + carry
                digits[i] = UInt8(v % 10)
                carry = v / 10
            }
            while carry > 0 { digits.append(UInt8(carry % 10)); carry /= 10 }
        }
        return digits
    }

    /// Adds 256^n to the decimal number `text` (digits, most significant first).
    static func addPowerOf256(_ text: String, n: Int) -> String {
        var a = text.utf8.reversed().map { $0 - 0x30 }
        let b = powerOf256(n)
        var carry: UInt8 = 0
        for i in 0..<max(a.count, b.count) {
            if i == a.count { a.append(0) }
            let v = a[i] + (i < b.count ? b[i] : 0) + carry
            a[i] = v % 10
            carry = v / 10
        }
        if carry > 0 { a.append(carry) }
        return String(decoding: a.reversed().map { $0 + 0x30 }, as: UTF8.self)
    }

    static let prose = """
        The lighthouse keeper wrote the same line in the log every night: lamp lit at dusk, \
        lens cleaned, weather noted. In forty years the line changed only when the weather did. \
        Fog, the log says, more often than anything else; then wind from the west; then, rarely, \
        a clear night with the stars so thick that the beam seemed to push through them. \
        When the light was automated the keeper left the log on the desk, open at a blank page, \
        with the pen beside it, in case the lamp wanted to keep writing on its own. \
        Visitors still read it. Most of them turn back to the first page and read the line \
        again, lamp lit at dusk, and look out of the window as if to check.
        """

    mutating func generateAll() throws {
        try generateRecipients()
        let alice = Self.keyFile("alice"), bob = Self.keyFile("bob")

        // --- success -------------------------------------------------------------------------
        // The worked example of docs/FORMAT.md section 7: simple bytes a reader can follow by hand.
        let exampleKey = SecretKey(bytes: (0..<32).map { UInt8($0) })
        let example = try success("example-key-file.txt",
            "the worked example of docs/FORMAT.md section 7: text \"hi\", key file 00 01 … 1f, nonce a0 … ab",
            keys: [.keyFile(exampleKey)], payload: .text("hi"), nonce: (0xA0...0xAB).map { UInt8($0) })
        let right = try success("text-passphrase.txt", "short text sealed with a passphrase; too short for Brotli to help, so stored",
                    keys: [.passphrase("correct horse battery staple")], payload: .text("Meet at the north gate at 7."))
        let withKey = try success("text-key-file.txt", "short text sealed with a key file",
                                  keys: [.keyFile(alice)], payload: .text("The spare key is under the blue pot."))
        let fileEnvelope = try success("file-binary-armor.txt",
            "a file with its name, binary armor, passphrase; Brotli makes the body smaller so it is compressed",
            keys: [.passphrase("tide tables")],
            payload: .file(name: "harbour-fees.csv", bytes: Array("""
                month,berths,fee_eur
                2024-01,12,1440
                2024-02,11,1320
                2024-03,14,1680
                2024-04,19,2280
                2024-05,23,2760
                2024-06,27,3240
                2024-07,31,3720
                2024-08,31,3720
                2024-09,24,2880
                2024-10,18,2160
                2024-11,13,1560
                2024-12,12,1440

                """.utf8)), armor: .binary)
        let prose = try success("compressed-prose.txt", "English prose: the body is Brotli-compressed (flag 0x02)",
                                keys: [.keyFile(alice)], payload: .text(Self.prose))
        try success("prose-not-compressed.txt", "the same prose with compression turned off: stored as it is",
                    keys: [.keyFile(alice)], payload: .text(Self.prose), compress: false)
        try success("random-bytes-stored.txt",
            "a file of random-looking bytes and no name: Brotli does not make it smaller, so it is stored",
            keys: [.keyFile(bob)], payload: .file(name: "", bytes: Self.bytes("random file", 200)))
        let nfc = "Crème brûlée in Zürich, ñandú, 한국"
        try success("passphrase-non-ascii.txt", "a passphrase with non-ASCII characters, written in NFC",
                    keys: [.passphrase(nfc)], payload: .text("Grüße aus Köln ☕"))
        try success("passphrase-nfd.txt",
            "the passphrase is written decomposed (NFD); a reader normalises it to NFC before scrypt, so it opens",
            keys: [.passphrase(nfc.decomposedStringWithCanonicalMapping)], payload: .text("Grüße aus Köln ☕"))
        try success("scrypt-standard.txt", "the parameters writers use: log2N 17, r 8, p 1 (128 MiB)",
                    keys: [.passphrase("standard cost")], payload: .text("sealed at the standard cost"),
                    scrypt: .standard)
        try success("several-key-files.txt", "two key files: a reader tries the first (wrong), then the second",
                    keys: [.keyFile(bob), .keyFile(alice)], payload: .text("for the second key"))
        try success("several-passphrases.txt",
            "a key file (not of this message's kind) and two passphrases; the second passphrase is right",
            keys: [.keyFile(alice), .passphrase("not this one"), .passphrase("this one")],
            payload: .text("for the second passphrase"))
        try success("text-empty.txt", "empty text: the inner plaintext is the flags byte alone, which is valid",
                    keys: [.keyFile(alice)], payload: .text(""))
        try success("file-empty.txt", "an empty file with no name: flags 0x01, name length 0, no body",
                    keys: [.keyFile(alice)], payload: .file(name: "", bytes: []), armor: .binary)
        try success("scrypt-at-reader-limit.txt",
            "log2N 10 with a reader limit of 10: exactly at the limit, so it is allowed",
            keys: [.passphrase("at the limit")], payload: .text("just allowed"), maxScrypt: 10)

        // --- authentication failure ----------------------------------------------------------
        // `right`: the envelope of text-passphrase.txt, sealed with "correct horse battery staple".
        failure("wrong-passphrase.txt", "authentication failure", "the envelope of text-passphrase.txt, tried with another passphrase",
                keys: [.passphrase("wrong passphrase")], envelope: right)
        failure("wrong-key-file.txt", "authentication failure", "the envelope of text-key-file.txt, tried with another key",
                keys: [.keyFile(bob)], envelope: withKey)
        var altered = withKey
        altered[14] ^= 0x01
        failure("altered-ciphertext.txt", "authentication failure", "text-key-file.txt with the first ciphertext byte's low bit flipped",
                keys: [.keyFile(alice)], envelope: altered)
        altered = withKey
        altered[altered.count - 1] ^= 0x80
        failure("altered-tag.txt", "authentication failure", "text-key-file.txt with the last tag byte's high bit flipped",
                keys: [.keyFile(alice)], envelope: altered)
        altered = withKey
        altered[2] ^= 0x01
        failure("altered-nonce.txt", "authentication failure", "text-key-file.txt with the first nonce byte changed",
                keys: [.keyFile(alice)], envelope: altered)
        altered = right
        altered[5] ^= 0x01
        failure("altered-salt.txt", "authentication failure", "a passphrase message with the first salt byte changed (header bytes are authenticated)",
                keys: [.passphrase("correct horse battery staple")], envelope: altered)
        altered = right
        altered[2] = 11
        failure("altered-scrypt-parameters.txt", "authentication failure", "a passphrase message sealed at log2N 10, relabelled 11",
                keys: [.passphrase("correct horse battery staple")], envelope: altered)

        // --- format failure ------------------------------------------------------------------
        failure("truncated.txt", "format failure", "text-key-file.txt cut to 29 bytes, one short of a key-file envelope's minimum",
                keys: [.keyFile(alice)], envelope: Array(withKey.prefix(29)))
        failure("truncated-passphrase.txt", "format failure", "file-binary-armor.txt cut to 48 bytes, one short of a passphrase envelope's minimum",
                keys: [.passphrase("tide tables")], envelope: Array(fileEnvelope.prefix(48)), armor: .binary)
        failure("truncated-lead-byte-only.txt", "format failure", "an envelope of one byte, the lead byte 0x10",
                keys: [.keyFile(alice)], envelope: [0x10])
        let exampleDigits = String(Armor.text(for: example).dropFirst(Armor.digitsPrefix.count))
        var letter = Array(exampleDigits)
        letter[40] = "A"
        failure("bad-digit-armor.txt", "format failure", "example-key-file.txt with the 41st digit replaced by the letter A",
                keys: [.keyFile(exampleKey)], text: Armor.digitsPrefix + String(letter))
        precondition(Digits.byteCount(forDigits: exampleDigits.count + 1) == nil)
        failure("digits-count-not-canonical.txt", "format failure",
                "example-key-file.txt with one more leading zero: 81 digits, which is D(n) for no n",
                keys: [.keyFile(exampleKey)], text: Armor.digitsPrefix + "0" + exampleDigits)
        let tooLarge = Self.addPowerOf256(exampleDigits, n: example.count)
        precondition(tooLarge.count == exampleDigits.count)
        failure("digits-value-too-large.txt", "format failure",
                "example-key-file.txt plus 256^33: still 80 digits, but the value does not fit 33 bytes",
                keys: [.keyFile(exampleKey)], text: Armor.digitsPrefix + tooLarge)
        let mk = SealKey.keyFile(alice)
        failure("empty-plaintext.txt", "format failure", "an authenticated empty inner plaintext (no flags byte)",
                keys: [mk], envelope: try Self.craft([], key: mk, label: "empty"))
        failure("inner-unknown-flags.txt", "format failure", "inner flags 0x04, a reserved bit, then the text \"x\"",
                keys: [mk], envelope: try Self.craft([0x04, 0x78], key: mk, label: "flags"))
        failure("text-not-utf8.txt", "format failure", "text content (flags 0x00) that is not UTF-8: bytes c3 28",
                keys: [mk], envelope: try Self.craft([0x00, 0xC3, 0x28], key: mk, label: "utf8"))
        failure("file-name-traversal.txt", "format failure", "a file named \"../evil.sh\": a name with a slash",
                keys: [mk], envelope: try Self.craft([0x01, 10] + Array("../evil.sh".utf8) + Array("echo\n".utf8),
                                                     key: mk, label: "traversal"))
        failure("file-name-dot-dot.txt", "format failure", "a file named \"..\"",
                keys: [mk], envelope: try Self.craft([0x01, 2] + Array("..".utf8) + [0x41], key: mk, label: "dotdot"))
        failure("file-name-control.txt", "format failure", "a file name with a line feed: \"a\\nb\"",
                keys: [mk], envelope: try Self.craft([0x01, 3, 0x61, 0x0A, 0x62, 0x41], key: mk, label: "control"))
        failure("file-name-bidi.txt", "format failure",
                "a file named \"invoice\" U+202E \"gnp.exe\": a right-to-left override shows it as invoiceexe.png",
                keys: [mk], envelope: try Self.craft([0x01, 17] + Array("invoice\u{202E}gnp.exe".utf8) + [0x41],
                                                     key: mk, label: "bidi"))
        failure("file-name-c1.txt", "format failure", "a file name with the C1 control U+009B (CSI on some terminals)",
                keys: [mk], envelope: try Self.craft([0x01, 5] + Array("a\u{9B}1m".utf8) + [0x41], key: mk, label: "c1"))
        failure("file-name-not-utf8.txt", "format failure", "a file name of the bytes ff fe",
                keys: [mk], envelope: try Self.craft([0x01, 2, 0xFF, 0xFE, 0x41], key: mk, label: "nameutf8"))
        failure("file-name-too-long.txt", "format failure", "a name length of 200 with only 5 bytes after it",
                keys: [mk], envelope: try Self.craft([0x01, 200] + Array("short".utf8), key: mk, label: "namelength"))
        let hello = Compression.compress(Array("hello hello hello hello".utf8), text: true)!
        failure("compressed-trailing-bytes.txt", "format failure", "a complete Brotli body followed by one extra byte 00",
                keys: [mk], envelope: try Self.craft([0x02] + hello + [0x00], key: mk, label: "trailing"))
        failure("compressed-truncated.txt", "format failure", "a Brotli body missing its last byte",
                keys: [mk], envelope: try Self.craft([0x02] + hello.dropLast(), key: mk, label: "brotlicut"))
        failure("compressed-invalid.txt", "format failure", "flag 0x02 on a body that is not Brotli: bytes ff ff ff ff",
                keys: [mk], envelope: try Self.craft([0x02, 0xFF, 0xFF, 0xFF, 0xFF], key: mk, label: "notbrotli"))
        var badParams = try Self.craft([0x00] + Array("x".utf8), key: .passphrase("p"), label: "params")
        badParams[2] = 0
        failure("scrypt-invalid-parameters.txt", "format failure", "scrypt log2N 0 (N = 1), outside 1 to 63",
                keys: [.passphrase("p")], envelope: badParams)

        // A paste cut short: the digits that remain read as another number, whose first bytes
        // look like another version, frame type or key type. The QRSEAL1: prefix says which
        // version the digits hold, so these are damage, not something unsupported.
        for (name, what, looksLike) in Self.cutOffShapes {
            let (digits, cut) = Self.cutOff(right, where: looksLike)
            failure(name, "format failure",
                    "text-passphrase.txt with its last \(cut) digits cut off: the rest reads as \(what)",
                    keys: [.passphrase("correct horse battery staple")], text: Armor.digitsPrefix + digits)
        }
        var shortOther = Array(withKey.prefix(20))
        shortOther[0] = 0x20
        failure("truncated-other-version.txt", "format failure",
                "20 bytes with lead byte 0x20: shorter than any envelope, which is checked before the version",
                keys: [.keyFile(alice)], envelope: shortOther, armor: .binary)

        // --- unsupported ---------------------------------------------------------------------
        altered = withKey
        altered[0] = 0x20
        failure("unknown-version.txt", "unsupported", "text-key-file.txt with lead byte 0x20: format version 2",
                keys: [.keyFile(alice)], envelope: altered, armor: .binary)
        failure("unknown-version-prefix.txt", "unsupported", "the digits of text-key-file.txt after the prefix QRSEAL2:",
                keys: [.keyFile(alice)],
                text: "QRSEAL2:" + Armor.text(for: withKey).dropFirst(Armor.digitsPrefix.count))
        failure("unknown-version-prefix-long.txt", "unsupported",
                "the digits of text-key-file.txt after the prefix QRSEAL10000: (a version of five digits)",
                keys: [.keyFile(alice)],
                text: "QRSEAL10000:" + Armor.text(for: withKey).dropFirst(Armor.digitsPrefix.count))
        altered = withKey
        altered[0] = 0x11
        failure("unknown-frame-type.txt", "unsupported", "text-key-file.txt with lead byte 0x11: version 1, frame type 1 (multi-symbol)",
                keys: [.keyFile(alice)], envelope: altered, armor: .binary)
        altered = withKey
        altered[1] = 0x03
        failure("unknown-key-type.txt", "unsupported", "text-key-file.txt with key type 0x03 (the first unassigned one)",
                keys: [.keyFile(alice)], envelope: altered, armor: .binary)

        // --- refused with no key at all: everything that needs no key is checked first ---------
        failure("no-key-truncated.txt", "format failure", "truncated.txt read with no key",
                keys: [], envelope: Array(withKey.prefix(29)))
        altered = withKey
        altered[0] = 0x20
        failure("no-key-unknown-version.txt", "unsupported", "unknown-version.txt read with no key",
                keys: [], envelope: altered, armor: .binary)
        var costlyNoKey = right
        costlyNoKey[2] = 30
        failure("no-key-scrypt-too-costly.txt", "resource limit", "scrypt-too-costly.txt read with no key",
                keys: [], envelope: costlyNoKey)

        var undefined = right
        undefined[2] = 16
        undefined[3] = 1
        failure("scrypt-n-too-large-for-r.txt", "format failure",
                "log2N 16 with r 1: scrypt needs log2N < 16·r (RFC 7914), so the header is malformed",
                keys: [.passphrase("correct horse battery staple")], envelope: undefined)

        // --- resource limit ------------------------------------------------------------------
        var costly = right
        costly[2] = 30
        failure("scrypt-too-costly.txt", "resource limit",
                "a passphrase message relabelled log2N 30 (128 GiB): refused before any key derivation",
                keys: [.passphrase("correct horse battery staple")], envelope: costly)
        costly = right
        costly[2] = 16
        costly[4] = 8
        failure("scrypt-work-too-high.txt", "resource limit",
                "log2N 16, r 8, p 8: memory 64 MiB is within the default limit, but the work N·r·p = 2^22 is above 2^21",
                keys: [.passphrase("correct horse battery staple")], envelope: costly)
        failure("scrypt-above-reader-limit.txt", "resource limit",
                "a message sealed at log2N 11 (otherwise valid) read with a limit of 10",
                keys: [.passphrase("above the limit")],
                envelope: try Self.craft([0x00] + Array("not opened".utf8), key: .passphrase("above the limit"),
                                         label: "abovelimit", scrypt: ScryptParameters(log2N: 11, r: 8, p: 1)),
                maxScrypt: 10)
        let bomb = Compression.compress([UInt8](repeating: 0, count: 64 << 20), text: false)!
        failure("decompression-bomb.txt", "resource limit",
                "a sealed file whose body is Brotli of 64 MiB of zeros, above the 16 MiB cap",
                keys: [mk], envelope: try Self.craft([0x03, 8] + Array("zero.bin".utf8) + bomb, key: mk, label: "bomb"),
                armor: .binary)

        // Overhead 30 (key file) or 49 (passphrase), the flags byte, and for a file the name.
        #expect(prose.count < 30 + 1 + Self.prose.utf8.count, "the prose vector should be compressed")
        #expect(fileEnvelope.count < 49 + 2 + 16 + 213, "the file vector should be compressed")
    }

    /// Writes the files once per test run; the checker waits on this too when writing is on, so
    /// it never reads a folder that is being written.
    static let written: Result<Int, any Error> = Result { try writeAll() }

    /// Writes every vector whose text changed; returns how many files the set has.
    static func writeAll() throws -> Int {
        var generator = VectorGenerator()
        try generator.generateAll()
        let folder = VectorTests.folder
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (name, text) in generator.files {
            let url = folder.appendingPathComponent(name)
            if let old = try? String(contentsOf: url, encoding: .utf8), old == text { continue }
            let temp = folder.appendingPathComponent(".\(name).tmp")
            try Data(text.utf8).write(to: temp)
            guard rename(temp.path, url.path) == 0 else { throw VectorProblem("cannot rename \(temp.path)") }
        }
        return generator.files.count
    }

    @Test("write vectors/seal/*.txt", .enabled(if: enabled))
    func writeVectors() throws {
        #expect(try Self.written.get() >= 30)
    }
}
