import Foundation
import Testing
@testable import QRSealKit

/// `Encoder.message`: the one choice of one code or parts, sealed once as a whole, that
/// `qrseal encode` and the desktop composer share.
@Suite("Encoder: a message as one code or its parts")
struct EncoderMessageTests {
    @Test("text that fits is one plain code holding the text itself")
    func plainText() throws {
        let message = try Encoder().message(EncodeInput(text: "hello"), key: nil, split: SplitOptions())
        #expect(message.symbols.count == 1)
        #expect(message.dataParts == 1)
        #expect(message.id == nil)
        #expect(message.symbols[0].matrix == (try Encoder().encode(.text("hello"))))
    }

    @Test("too much for one code is split into labelled parts, as the plan says")
    func parts() throws {
        var random = SystemRandomNumberGenerator()
        let bytes = (0..<6000).map { _ in UInt8.random(in: 0...255, using: &random) }
        let encoder = Encoder()
        let message = try encoder.message(EncodeInput(bytes: bytes, name: "big.bin"), key: nil, split: SplitOptions())
        let plan = try encoder.plan(length: try encoder.plainWhole(.file(name: "big.bin", bytes: bytes)).count, SplitOptions())
        #expect(message.symbols.count == plan.totalParts)
        #expect(message.dataParts == plan.dataParts)
        #expect(message.symbols.count > 1)
        #expect(message.symbols[0].label?.hasSuffix("part 1 of \(plan.totalParts)") == true)
        #expect(message.totalBytes == 6000)
    }

    @Test("--parts asks for parts even when the message would fit one code")
    func partsAskedFor() throws {
        let message = try Encoder().message(EncodeInput(text: "short"), key: nil, split: SplitOptions(parts: 3))
        #expect(message.symbols.count == 3)
    }

    @Test("a sealed file keeps its name, and opens with the key it was sealed with")
    func sealedFile() throws {
        let key = try SecretKey.generate()
        let input = EncodeInput(bytes: Array("the content".utf8), name: "note.txt")
        let encoder = Encoder()
        let message = try encoder.message(input, key: .keyFile(key), split: SplitOptions())
        #expect(message.symbols.count == 1)
        let png = try message.symbols[0].matrix.png(scale: 4, margin: 4)
        let reader = Reader(keys: [.keyFile(key)])
        let symbol = try #require(try reader.detections(imageBytes: png).first)
        #expect(reader.open(symbolBytes: symbol.bytes) == .opened(.file(name: "note.txt", bytes: Array("the content".utf8))))
        guard case .locked(.keyFile, _) = Reader().open(symbolBytes: symbol.bytes) else {
            Issue.record("a sealed message opened, or failed, without its key")
            return
        }
    }

    @Test("bytes that are not UTF-8 are a nameless file; UTF-8 is text")
    func payloadKinds() {
        #expect(EncodeInput(text: "naïve").payload == .text("naïve"))
        #expect(EncodeInput(bytes: [0xFF, 0x00]).payload == .file(name: "", bytes: [0xFF, 0x00]))
        #expect(EncodeInput(bytes: [0xFF], name: "x.bin").payload == .file(name: "x.bin", bytes: [0xFF]))
    }

    @Test("the files of the parts are NAME-01-of-12.png and so on, beside the name given")
    func partPaths() {
        #expect(EncodedMessage.partPaths("out/code.png", count: 3) == ["out/code-01-of-03.png", "out/code-02-of-03.png",
                                                                      "out/code-03-of-03.png"])
        #expect(EncodedMessage.partPaths("code", count: 2) == ["code-01-of-02", "code-02-of-02"])
        #expect(EncodedMessage.partPaths(".hidden", count: 2) == [".hidden-01-of-02", ".hidden-02-of-02"])
        #expect(EncodedMessage.partPaths("a.svg", count: 100)[0] == "a-001-of-100.svg")
    }
}
