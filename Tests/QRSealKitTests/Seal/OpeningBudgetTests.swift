import Testing
@testable import QRSealKit

/// What opening may spend in one call, over all its messages: scrypt work and decompressed
/// content (docs/FORMAT.md, sections 2.5 and 3).
@Suite("Seal: the opening budget of one call")
struct OpeningBudgetTests {
    /// 1 MiB and a few milliseconds a derivation; its work N·r·p is 2^13.
    static let fast = ScryptParameters(log2N: 10, r: 8, p: 1)
    static let passphrase = SealKey.passphrase("correct horse")

    /// `count` messages, each with its own salt, as a hostile sheet of codes would hold.
    private func messages(_ count: Int) throws -> [[UInt8]] {
        try (0..<count).map { try Sealer(scrypt: Self.fast).seal(.text("message \($0)"), with: Self.passphrase) }
    }

    /// A reader allowed `derivations` derivations at the fast cost.
    private func reader(derivations: Int, keys: [SealKey] = [passphrase]) -> Reader {
        Reader(opener: Opener(budget: OpeningBudget(maxScryptWork: derivations * Self.fast.work)), keys: keys)
    }

    @Test("25 messages with their own salts: the first opens within the budget, the rest are skipped without deriving")
    func manySalts() throws {
        let reader = reader(derivations: 3)
        let contents = try messages(25).map(reader.open(envelope:))
        #expect(Array(contents.prefix(3)) == (0..<3).map { .opened(.text("message \($0)")) })
        #expect(Array(contents.dropFirst(3)) == Array(repeating: .failed(.kdfBudgetExceeded), count: 22))
        #expect(reader.opener.budget.derivations == 3)
    }

    @Test("the same message 25 times is derived once")
    func sameSalt() throws {
        let reader = reader(derivations: 1)
        let envelope = try messages(1)[0]
        for _ in 0..<25 {
            #expect(reader.open(envelope: envelope) == .opened(.text("message 0")))
        }
        #expect(reader.opener.budget.derivations == 1)
    }

    @Test("each passphrase tried is a derivation; a wrong one spends the budget too")
    func wrongPassphrasesCount() throws {
        let reader = reader(derivations: 3, keys: [.passphrase("wrong"), Self.passphrase])
        let contents = try messages(2).map(reader.open(envelope:))
        #expect(contents[0] == .opened(.text("message 0")))
        // The second message's wrong passphrase takes the third derivation; the right one is over budget.
        #expect(contents[1] == .failed(.kdfBudgetExceeded))
        #expect(reader.opener.budget.derivations == 3)
    }

    @Test("copies of a reader share one budget, as a command's reads do")
    func copiesShare() throws {
        let first = reader(derivations: 2)
        var second = first
        second.keys.append(.passphrase("another"))
        let envelopes = try messages(3)
        #expect(first.open(envelope: envelopes[0]) == .opened(.text("message 0")))
        #expect(second.open(envelope: envelopes[1]) == .opened(.text("message 1")))
        #expect(first.open(envelope: envelopes[2]) == .failed(.kdfBudgetExceeded))
        #expect(first.opener.budget.derivations == 2)
    }

    @Test("key files need no derivation and open whatever the scrypt budget")
    func keyFilesAreFree() throws {
        let key = try SecretKey.generate()
        let reader = reader(derivations: 0, keys: [.keyFile(key)])
        let envelope = try Sealer().seal(.text("free"), with: .keyFile(key))
        #expect(reader.open(envelope: envelope) == .opened(.text("free")))
        #expect(reader.open(envelope: try messages(1)[0]) == .locked(keyKind: .passphrase, size: 49 + 1 + 9))
        #expect(reader.opener.budget.derivations == 0)
    }

    @Test("the default budget is eight derivations at the writers' cost, or two at a raised limit")
    func defaultBudget() {
        #expect(Opener().budget.maxScryptWork == 8 * ScryptParameters.standard.work)
        #expect(Opener(maxScryptLog2N: 10).budget.maxScryptWork == 8 * ScryptParameters.standard.work)
        // --max-scrypt 24: one message at the limit is 2^24 · 8; the budget holds two of them.
        #expect(Opener(maxScryptLog2N: 24).budget.maxScryptWork == 2 * ScryptParameters(log2N: 24, r: 8, p: 1).work)
    }

    @Test("100 compressed messages share one decompression cap")
    func decompressionIsShared() throws {
        let key = try SecretKey.generate()
        // Each is a small sealed file of 1 MiB of zeros: far below the cap alone, 100 MiB together.
        let zeros = Payload.file(name: "z.bin", bytes: [UInt8](repeating: 0, count: 1 << 20))
        let envelope = try Sealer().seal(zeros, with: .keyFile(key))
        #expect(envelope.count < 1000)
        let reader = Reader(opener: Opener(budget: OpeningBudget(maxContentBytes: 16 << 20)), keys: [.keyFile(key)])
        let contents = (0..<100).map { _ in reader.open(envelope: envelope) }
        #expect(contents.filter { $0 == .opened(zeros) }.count == 16)
        #expect(contents.dropFirst(16).allSatisfy { $0 == .failed(.contentTooLarge(limit: 16 << 20)) })
    }
}
