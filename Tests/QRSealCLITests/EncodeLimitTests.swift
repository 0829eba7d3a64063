import Foundation
import Testing
import TestSupport

@Suite("encode: input far larger than a code")
struct EncodeLimitTests {
    let dir = try! TempDir()

    @Test("20 MB of text on standard input: refused once 16 MiB are read, exit 2, small memory")
    func twentyMegabytesPiped() throws {
        let line = Data("hello world\n".utf8)
        var text = Data()
        text.reserveCapacity(20_000_004)
        while text.count < 20_000_000 { text.append(line) }
        let input = try dir.write("big.txt", text)
        let out = dir.path("big.png")
        let r = try Tools.runMeasured(Tools.qrseal, ["encode", "-o", out, "-"], stdinPath: input)
        #expect(r.status == 2)
        // Standard input is read no further than the most a sealed message may carry.
        #expect(r.stderr.contains("-: input is larger than 16777216 bytes, more than a message in parts carries"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
        // Planning all of it used to take 3.2 GB.
        #expect(r.peakBytes < 256 << 20, "peak \(r.peakBytes >> 20) MiB")
    }

    @Test("a 200 MB file is refused by its size before it is read")
    func twoHundredMegabyteFile() throws {
        let input = try sparseFile("huge.txt", size: 200_000_000)
        let r = try Tools.runMeasured(Tools.qrseal, ["encode", "-i", input, "-o", dir.path("huge.png")])
        #expect(r.status == 2)
        #expect(r.stderr.contains("huge.txt: input is 200000000 bytes, more than a message in parts carries"), "\(r.stderr)")
        #expect(r.stderr.contains("qrseal: hint: a message is split into parts of up to 16 MiB in all"))
        #expect(r.peakBytes < 128 << 20, "peak \(r.peakBytes >> 20) MiB")
    }

    @Test("a 20 MB file with --seal is refused by its size too: more than a sealed message may carry")
    func sealedLimit() throws {
        let input = try sparseFile("big.bin", size: 20_000_000)
        let key = dir.path("k.key")
        #expect(qrseal(["keygen", "-o", key]).status == 0)
        let r = qrseal(["encode", "--key-file", key, "-i", input, "-o", dir.path("s.png")])
        #expect(r.status == 2)
        #expect(r.stderr.contains("big.bin: input is 20000000 bytes, more than a message in parts carries"), "\(r.stderr)")
    }

    /// A file of `size` zero bytes that takes no disk space; reading it still costs `size`.
    private func sparseFile(_ name: String, size: UInt64) throws -> String {
        let path = dir.path(name)
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: size)
        try handle.close()
        return path
    }
}
