import Testing
@testable import QRSealKit

/// The inner plaintext (docs/FORMAT.md, section 3): a reader must refuse hostile content that
/// arrives properly authenticated, i.e. from someone who holds the key.
@Suite("Seal: inner plaintext")
struct InnerPlaintextTests {
    let key: SecretKey

    init() throws { key = try SecretKey.generate() }

    /// An authentic key-file envelope around arbitrary inner bytes, as a hostile sender would make it.
    private func envelope(around inner: [UInt8]) throws -> [UInt8] {
        let nonce = try Crypto.randomBytes(Crypto.nonceLength)
        let header = Envelope(kind: .keyFile, scrypt: nil, salt: [], nonce: nonce, sealed: []).header
        return header + (try Crypto.seal(key: key.messageKey, nonce: nonce, aad: header, plaintext: inner))
    }

    private func open(inner: [UInt8], opener: Opener = Opener()) throws -> Result<Payload, SealError> {
        let bytes = try envelope(around: inner)
        return Result { () throws(SealError) -> Payload in try opener.open(bytes, keys: [.keyFile(key)]) }
    }

    private func isMalformed(_ result: Result<Payload, SealError>) -> Bool {
        if case .failure(.malformed) = result { return true }
        return false
    }

    private func brotli(_ bytes: [UInt8]) throws -> [UInt8] {
        try #require(Compression.compress(bytes, text: false))
    }

    @Test("hand-made inner plaintexts in each form open")
    func wellFormed() throws {
        #expect(try open(inner: [0x00] + Array("plain".utf8)) == .success(.text("plain")))
        #expect(try open(inner: [0x00]) == .success(.text("")))
        #expect(try open(inner: [0x01, 0x00]) == .success(.file(name: "", bytes: [])))
        #expect(try open(inner: [0x01, 0x03] + Array("a.b".utf8) + [9, 9]) == .success(.file(name: "a.b", bytes: [9, 9])))
        let zeros = [UInt8](repeating: 0, count: 4096)
        #expect(try open(inner: [0x03, 0x01, 0x7A] + brotli(zeros)) == .success(.file(name: "z", bytes: zeros)))
        #expect(try open(inner: [0x02] + brotli(Array("squeezed".utf8))) == .success(.text("squeezed")))
    }

    @Test("an empty inner plaintext is malformed")
    func empty() throws {
        #expect(isMalformed(try open(inner: [])))
    }

    @Test("unknown flag bits are malformed", arguments: [0x04, 0x08, 0x10, 0x20, 0x40, 0x80, 0xFF, 0x05] as [UInt8])
    func unknownFlags(flags: UInt8) throws {
        #expect(isMalformed(try open(inner: [flags, 0x00] + Array("x".utf8))))
    }

    @Test("unsafe file names are malformed", arguments: [
        "../etc/passwd", "a/b", "/abs", "..", ".", "a\u{0}b", "a\\b", "line\nbreak", "tab\t", "del\u{7F}", "\u{1B}[31m",
        // Names that would show as something else: a right-to-left override ("exe.png" shows
        // as "gnp.exe"), C1 controls (U+009B is CSI), invisible characters, and the
        // private-use scalars that stand for raw bytes, which would not be saved as UTF-8.
        "invoice\u{202E}gnp.exe", "\u{9B}31m", "a\u{85}b", "zero\u{200B}width", "\u{2066}iso", "raw\u{10FFE9}",
    ])
    func unsafeNames(name: String) throws {
        let bytes = Array(name.utf8)
        #expect(isMalformed(try open(inner: [0x01, UInt8(bytes.count)] + bytes + [1, 2, 3])), "\(name.debugDescription)")
    }

    @Test("a writer drops what a reader refuses from a name, and turns raw bytes into U+FFFD")
    func writerNames() throws {
        for (given, stored) in [("dir/invoice\u{202E}gnp.exe", "invoicegnp.exe"), ("caf\u{10FFE9}.txt", "caf\u{FFFD}.txt"),
                                ("a\u{9B}\u{7}b", "ab"), ("..", "")] {
            let inner = try InnerPlaintext.encode(.file(name: given, bytes: [1]), compress: false)
            #expect(try open(inner: inner) == .success(.file(name: stored, bytes: [1])), "\(given.debugDescription)")
        }
    }

    @Test("a name that is not UTF-8 or runs past the end is malformed")
    func brokenNames() throws {
        #expect(isMalformed(try open(inner: [0x01, 0x02, 0xC3, 0x28, 0x00])))
        #expect(isMalformed(try open(inner: [0x01, 0x05, 0x61, 0x62])))
        #expect(isMalformed(try open(inner: [0x01])))
        #expect(isMalformed(try open(inner: [0x03])))
    }

    @Test("text content that is not UTF-8 is malformed, compressed or not")
    func textNotUTF8() throws {
        for body: [UInt8] in [[0xFF], [0xC3], [0x61, 0xED, 0xA0, 0x80], [0xF8, 0x88, 0x80, 0x80, 0x80]] {
            #expect(isMalformed(try open(inner: [0x00] + body)), "\(body)")
            #expect(isMalformed(try open(inner: [0x02] + brotli(body + [UInt8](repeating: 0x61, count: 200)))))
        }
        // The same bytes are a fine file.
        #expect(try open(inner: [0x01, 0x00, 0xFF]) == .success(.file(name: "", bytes: [0xFF])))
    }

    @Test("a compressed body with bytes after the Brotli stream is malformed")
    func trailingBytes() throws {
        let stream = try brotli(Array(String(repeating: "abc", count: 100).utf8))
        #expect(try open(inner: [0x02] + stream) == .success(.text(String(repeating: "abc", count: 100))))
        for tail: [UInt8] in [[0x00], [0x41], stream] {
            #expect(isMalformed(try open(inner: [0x02] + stream + tail)))
        }
    }

    @Test("a compressed body that is cut short, empty or not Brotli is malformed")
    func brokenBrotli() throws {
        let stream = try brotli(Array(String(repeating: "abc", count: 100).utf8))
        #expect(isMalformed(try open(inner: [0x02])))
        #expect(isMalformed(try open(inner: [0x02] + stream.dropLast())))
        #expect(isMalformed(try open(inner: [0x02] + Array("this is not brotli".utf8))))
        #expect(isMalformed(try open(inner: [0x03, 0x00] + Array(stream.prefix(stream.count / 2)))))
    }

    @Test("a compressed body of 64 MiB is refused at the 16 MiB cap")
    func decompressionBomb() throws {
        let bomb = try brotli([UInt8](repeating: 0, count: 64 << 20))
        #expect(bomb.count < 1000)
        #expect(try open(inner: [0x02] + bomb) == .failure(.contentTooLarge(limit: 16 << 20)))
        #expect(try open(inner: [0x03, 0x00] + bomb) == .failure(.contentTooLarge(limit: 16 << 20)))
    }

    @Test("the content cap is exact, compressed or not")
    func capBoundary() throws {
        // A fresh opener each time: the cap is shared by every message one opener opens.
        func capped() -> Opener { Opener(budget: OpeningBudget(maxContentBytes: 1000)) }
        let atCap = [UInt8](repeating: 0x61, count: 1000), overCap = [UInt8](repeating: 0x61, count: 1001)
        #expect(try open(inner: [0x03, 0x00] + brotli(atCap), opener: capped()) == .success(.file(name: "", bytes: atCap)))
        #expect(try open(inner: [0x03, 0x00] + brotli(overCap), opener: capped()) == .failure(.contentTooLarge(limit: 1000)))
        #expect(try open(inner: [0x01, 0x00] + atCap, opener: capped()) == .success(.file(name: "", bytes: atCap)))
        #expect(try open(inner: [0x01, 0x00] + overCap, opener: capped()) == .failure(.contentTooLarge(limit: 1000)))
        #expect(try open(inner: [0x00] + overCap, opener: capped()) == .failure(.contentTooLarge(limit: 1000)))
    }

    @Test("the content cap is for all the messages one opener opens, not for each")
    func capIsShared() throws {
        let opener = Opener(budget: OpeningBudget(maxContentBytes: 2500))
        let kilobyte = [UInt8](repeating: 0x61, count: 1000)
        #expect(try open(inner: [0x03, 0x00] + brotli(kilobyte), opener: opener) == .success(.file(name: "", bytes: kilobyte)))
        #expect(try open(inner: [0x03, 0x00] + brotli(kilobyte), opener: opener) == .success(.file(name: "", bytes: kilobyte)))
        // 2000 of 2500 bytes spent: a third kilobyte passes the cap, though alone it is far below it.
        #expect(try open(inner: [0x03, 0x00] + brotli(kilobyte), opener: opener) == .failure(.contentTooLarge(limit: 2500)))
        #expect(try open(inner: [0x01, 0x00] + Array(kilobyte.prefix(400)), opener: opener)
                == .success(.file(name: "", bytes: Array(kilobyte.prefix(400)))))
    }

    @Test("a sender's path is reduced to its last component", arguments: [
        ("/tmp/dir/report.pdf", "report.pdf"), ("report.pdf", "report.pdf"), ("C:\\Users\\me\\notes.txt", "notes.txt"),
        ("dir/", "dir"), ("../../etc/passwd", "passwd"), ("..", ""), ("/", ""), ("", ""), ("a\u{0}b\nc", "abc"),
    ])
    func sealedNames(given: String, stored: String) throws {
        let envelope = try Sealer().seal(.file(name: given, bytes: [1, 2, 3]), with: .keyFile(key))
        #expect(try Opener().open(envelope, keys: [.keyFile(key)]) == .file(name: stored, bytes: [1, 2, 3]))
    }

    @Test("a name longer than 255 bytes is cut at a character boundary")
    func longName() throws {
        let name = String(repeating: "é", count: 200)  // 400 bytes
        let envelope = try Sealer().seal(.file(name: name, bytes: [7]), with: .keyFile(key))
        #expect(try Opener().open(envelope, keys: [.keyFile(key)]) == .file(name: String(repeating: "é", count: 127), bytes: [7]))
    }
}
