import Foundation
import Testing
@testable import QRSealKit

/// A problem with a vector file or with what the library did with it.
struct VectorProblem: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// One file of `vectors/seal/`; vectors/seal/README.md defines the format.
struct SealVector {
    /// Every header key a vector may use; any other key is an error.
    static let knownKeys: Set<String> = [
        "expect", "comment", "passphrase", "key", "armor", "payload", "content", "name",
        "plaintext", "compress", "salt", "nonce", "scrypt", "max-scrypt",
        "identity", "recipient", "ephemeral", "message-key",
    ]
    /// Keys that may appear more than once (keys a reader tries in turn).
    static let repeatableKeys: Set<String> = ["passphrase", "key", "comment", "identity", "recipient"]
    /// Keys that only success vectors have.
    static let successKeys: Set<String> = ["content", "name", "plaintext", "compress", "salt", "nonce", "scrypt",
                                           "recipient", "ephemeral", "message-key"]
    /// Every `expect:` class.
    static let classes: Set<String> = [
        "success", "authentication failure", "format failure", "unsupported", "resource limit", "no match",
    ]

    var headers: [(key: String, value: String)]
    /// The payload text: armor text, or lower-case hex of the symbol bytes.
    var payload: String

    init(headers: [(key: String, value: String)], payload: String) {
        self.headers = headers
        self.payload = payload
    }

    /// Parses a vector file: `key: value` lines, a blank line, the payload and one final line break.
    init(parsing text: String) throws(VectorProblem) {
        guard text.hasSuffix("\n") else { throw VectorProblem("the file does not end with a line break") }
        guard !text.contains("\r") else { throw VectorProblem("the file has carriage returns") }
        let lines = text.dropLast().split(separator: "\n", omittingEmptySubsequences: false)
        guard let blank = lines.firstIndex(of: "") else { throw VectorProblem("no blank line after the header") }
        var headers: [(key: String, value: String)] = []
        for line in lines[..<blank] {
            guard let colon = line.firstIndex(of: ":") else { throw VectorProblem("header line without a colon: \(line)") }
            let key = String(line[..<colon])
            var value = line[line.index(after: colon)...]
            if !value.isEmpty {
                guard value.first == " " else { throw VectorProblem("no space after \(key):") }
                value = value.dropFirst()
            }
            guard Self.knownKeys.contains(key) else { throw VectorProblem("unknown header key \"\(key)\"") }
            guard Self.repeatableKeys.contains(key) || !headers.contains(where: { $0.key == key }) else {
                throw VectorProblem("header key \(key) appears twice")
            }
            headers.append((key, String(value)))
        }
        let payloadLines = lines[(blank + 1)...]
        guard payloadLines.count == 1, let payload = payloadLines.first, !payload.isEmpty else {
            throw VectorProblem("the payload must be exactly one non-empty line")
        }
        self.init(headers: headers, payload: String(payload))
    }

    /// The file's text.
    var text: String {
        headers.map { $0.value.isEmpty ? "\($0.key):" : "\($0.key): \($0.value)" }.joined(separator: "\n")
            + "\n\n" + payload + "\n"
    }

    func values(_ key: String) -> [String] { headers.filter { $0.key == key }.map(\.value) }
    func value(_ key: String) -> String? { values(key).first }

    func required(_ key: String) throws(VectorProblem) -> String {
        guard let v = value(key) else { throw VectorProblem("missing header \(key):") }
        return v
    }

    /// The keys to try, in the order given.
    func keys() throws(VectorProblem) -> [SealKey] {
        var keys: [SealKey] = []
        for (key, value) in headers {
            switch key {
            case "passphrase":
                keys.append(.passphrase(value))
            case "key":
                do { keys.append(.keyFile(try SecretKey(text: value))) } catch {
                    throw VectorProblem("key: \(error)")
                }
            case "identity":
                do { keys.append(.identity(try AgeIdentity(text: value))) } catch {
                    throw VectorProblem("identity: \(error)")
                }
            default:
                continue
            }
        }
        return keys
    }

    var armor: Armor {
        get throws(VectorProblem) {
            guard let armor = Armor(rawValue: try required("armor")) else {
                throw VectorProblem("armor: must be digits or binary")
            }
            return armor
        }
    }

    /// The symbol content the payload stands for.
    func symbol() throws(VectorProblem) -> [UInt8] {
        switch (value("payload"), try armor) {
        case ("hex", _):
            return try Hex.decode(payload)
        case (nil, .digits), ("text", .digits):
            return Array(payload.utf8)
        case (let kind?, _) where kind != "text":
            throw VectorProblem("payload: must be hex or text")
        default:
            throw VectorProblem("binary armor needs payload: hex")
        }
    }

    /// The expected class of the outcome: `success` or a failure class.
    var expect: String {
        get throws(VectorProblem) {
            let expect = try required("expect")
            guard Self.classes.contains(expect) else { throw VectorProblem("unknown expect class \"\(expect)\"") }
            return expect
        }
    }

    /// The reader limit `max-scrypt:`, or the default 18.
    func maxScrypt() throws(VectorProblem) -> Int {
        guard let text = value("max-scrypt") else { return 18 }
        guard let limit = Int(text), (0...40).contains(limit) else { throw VectorProblem("bad max-scrypt: \(text)") }
        return limit
    }
}

/// Lower-case hexadecimal.
enum Hex {
    static func encode(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        for b in bytes { out += [digits[Int(b >> 4)], digits[Int(b & 15)]] }
        return String(decoding: out, as: UTF8.self)
    }

    static func decode(_ text: String) throws(VectorProblem) -> [UInt8] {
        let chars = Array(text.utf8)
        guard chars.count % 2 == 0 else { throw VectorProblem("odd-length hex") }
        func nibble(_ c: UInt8) throws(VectorProblem) -> UInt8 {
            switch c {
            case 0x30...0x39: return c - 0x30
            case 0x61...0x66: return c - 0x61 + 10
            default: throw VectorProblem("not lower-case hex: \(text.prefix(40))")
            }
        }
        var out: [UInt8] = []
        out.reserveCapacity(chars.count / 2)
        for i in stride(from: 0, to: chars.count, by: 2) {
            out.append(try nibble(chars[i]) << 4 | nibble(chars[i + 1]))
        }
        return out
    }
}

@Suite("Seal test vectors")
struct VectorTests {
    /// vectors/seal/, found from this file's path.
    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("vectors/seal")

    /// The failure class of a library error; nil for errors no vector may expect.
    static func failureClass(_ error: SealError) -> String? {
        switch error {
        case .authenticationFailed: return "authentication failure"
        case .truncated, .malformed, .badArmor, .nonCanonicalDigits: return "format failure"
        case .unsupportedVersion, .unsupported: return "unsupported"
        case .kdfTooCostly, .contentTooLarge, .kdfBudgetExceeded, .tooManyTrials: return "resource limit"
        case .noIdentityMatches: return "no match"
        case .unsupportedRecipient: return "unsupported"
        case .noKey, .badKey, .crypto, .headerMACFailed, .ageHeader, .ageArmor, .agePayload: return nil
        }
    }

    /// What opening `symbol` gives: the payload, or the error.
    static func open(symbol: [UInt8], keys: [SealKey], opener: Opener) throws(VectorProblem) -> Result<Payload, SealError> {
        do {
            guard let envelope = try Armor.envelope(fromSymbol: symbol) else {
                throw VectorProblem("the payload is not a sealed symbol")
            }
            return .success(try opener.open(envelope, keys: keys))
        } catch let error as SealError {
            return .failure(error)
        } catch let problem as VectorProblem {
            throw problem
        } catch {
            throw VectorProblem("unexpected error \(error)")
        }
    }

    /// The same for pasted text (digits armor): white space ignored.
    static func open(text: String, keys: [SealKey], opener: Opener) -> Result<Payload, SealError> {
        do {
            return .success(try opener.open(try Armor.envelope(fromText: text), keys: keys))
        } catch {
            return .failure(error)
        }
    }

    static func describe(_ result: Result<Payload, SealError>) -> String {
        switch result {
        case .success: return "success"
        case .failure(let error): return (failureClass(error) ?? "unclassified error") + " (\(error))"
        }
    }

    /// Checks one vector; throws what is wrong.
    static func check(_ vector: SealVector) throws(VectorProblem) {
        let expect = try vector.expect
        let armor = try vector.armor
        let symbol = try vector.symbol()
        let keys = try vector.keys()
        // Without a key a reader still refuses damaged, unsupported and too costly messages.
        let needsKey = expect == "success" || expect == "authentication failure"
        guard !keys.isEmpty || !needsKey else { throw VectorProblem("no passphrase: or key: header") }
        let opener = Opener(maxScryptLog2N: try vector.maxScrypt())
        let result = try open(symbol: symbol, keys: keys, opener: opener)
        if armor == .digits {
            let spaced = vector.payload.enumerated().map { $0.offset % 10 == 9 ? "\($0.element)\n " : "\($0.element)" }.joined()
            let fromText = open(text: " " + spaced.lowercased() + "\n", keys: keys, opener: opener)
            guard describe(fromText) == describe(result) else {
                throw VectorProblem("read as pasted text: \(describe(fromText)), as symbol: \(describe(result))")
            }
        }
        guard expect == "success" else {
            if let extra = vector.headers.first(where: { SealVector.successKeys.contains($0.key) }) {
                throw VectorProblem("\(extra.key): is only for success vectors")
            }
            guard case .failure(let error) = result, failureClass(error) == expect else {
                throw VectorProblem("expected \(expect), got \(describe(result))")
            }
            return
        }
        try checkSuccess(vector, armor: armor, symbol: symbol, keys: keys, result: result)
    }

    static func checkSuccess(_ vector: SealVector, armor: Armor, symbol: [UInt8], keys: [SealKey],
                             result: Result<Payload, SealError>) throws(VectorProblem) {
        let plaintext = try Hex.decode(try vector.required("plaintext"))
        let payload: Payload
        switch try vector.required("content") {
        case "text":
            guard vector.value("name") == nil else { throw VectorProblem("name: is only for content: file") }
            guard let text = String(validating: plaintext, as: UTF8.self) else {
                throw VectorProblem("text plaintext is not UTF-8")
            }
            payload = .text(text)
        case "file":
            payload = .file(name: try vector.required("name"), bytes: plaintext)
        case let other:
            throw VectorProblem("content: must be text or file, not \(other)")
        }

        // Opening gives the plaintext, byte for byte (String == would allow canonical equivalents).
        switch result {
        case .failure(let error):
            throw VectorProblem("expected success, got \(describe(.failure(error)))")
        case .success(let opened):
            switch (opened, payload) {
            case let (.text(got), .text(want)) where Array(got.utf8) == Array(want.utf8):
                break
            case let (.file(gotName, got), .file(wantName, want))
                where Array(gotName.utf8) == Array(wantName.utf8) && got == want:
                break
            default:
                throw VectorProblem("opened \(opened), expected \(payload)")
            }
        }

        // Sealing again with the recorded salt and nonce gives the payload exactly.
        var sealer = Sealer()
        switch try vector.required("compress") {
        case "yes": sealer.compress = true
        case "no": sealer.compress = false
        case let other: throw VectorProblem("compress: must be yes or no, not \(other)")
        }
        let nonce = try Hex.decode(try vector.required("nonce"))
        var sealingKey = keys.last!
        let recipients = vector.headers.filter { $0.key == "recipient" }.map(\.value)
        if !recipients.isEmpty {
            do { sealingKey = .recipients(try recipients.map(AgeRecipient.init(text:))) } catch {
                throw VectorProblem("recipient: \(error)")
            }
            sealer.fixedEphemeral = (secret: try Hex.decode(try vector.required("ephemeral")),
                                     messageKey: try Hex.decode(try vector.required("message-key")))
        } else if vector.value("ephemeral") != nil || vector.value("message-key") != nil {
            throw VectorProblem("ephemeral: and message-key: are only for recipients")
        }
        var salt: [UInt8] = []
        if case .passphrase = sealingKey {
            salt = try Hex.decode(try vector.required("salt"))
            let parts = try vector.required("scrypt").split(separator: " ").compactMap { Int($0) }
            guard parts.count == 3 else { throw VectorProblem("scrypt: must be log2N r p") }
            sealer.scrypt = ScryptParameters(log2N: parts[0], r: parts[1], p: parts[2])
        } else if vector.value("salt") != nil || vector.value("scrypt") != nil {
            throw VectorProblem("salt: and scrypt: are only for passphrases")
        }
        sealer.fixedRandom = (salt: salt, nonce: nonce)
        let envelope: [UInt8]
        do { envelope = try sealer.seal(payload, with: sealingKey) } catch {
            throw VectorProblem("sealing again failed: \(error)")
        }
        let resealed = armor == .digits ? Array(Armor.text(for: envelope).utf8) : Armor.magic + envelope
        guard resealed == symbol else {
            let show = { (bytes: [UInt8]) in armor == .digits ? String(decoding: bytes, as: UTF8.self) : Hex.encode(bytes) }
            throw VectorProblem("sealing again gave a different payload:\n\(show(resealed))\nnot\n\(show(symbol))")
        }
    }

    static func vectorFiles() throws -> [URL] {
        try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "txt" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    @Test("every vector in vectors/seal opens, seals again or fails as it says")
    func vectors() throws {
        if VectorGenerator.enabled { _ = try VectorGenerator.written.get() }
        let files = try Self.vectorFiles()
        #expect(files.count >= 30, "vectors/seal/ should hold the whole set")
        var classes: Set<String> = []
        for file in files {
            let name = file.lastPathComponent
            do {
                let vector = try SealVector(parsing: String(contentsOf: file, encoding: .utf8))
                classes.insert(try vector.expect)
                try Self.check(vector)
            } catch let problem as VectorProblem {
                Issue.record("\(name): \(problem)")
            }
        }
        #expect(classes == SealVector.classes, "every expect class has at least one vector")
    }

    @Test("the vector parser refuses unknown header keys and expect classes")
    func parserIsStrict() throws {
        #expect(throws: VectorProblem.self) {
            try SealVector(parsing: "expect: success\nsurprise: 1\n\nQRSEAL1:000\n")
        }
        let unknownClass = try SealVector(parsing: "expect: maybe\n\nQRSEAL1:000\n")
        #expect(throws: VectorProblem.self) { try unknownClass.expect }
        #expect(throws: VectorProblem.self) { try Self.check(unknownClass) }
    }
}
