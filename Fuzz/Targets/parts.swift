// Part frames and symbols (`Part(frame:)`, `Part.fromSymbol`): what is accepted keeps every
// header rule of FORMAT.md 8.3, writes back to the same bytes, and a message cut from the
// accepted part's counts rebuilds from its own parts.
@testable import QRSealKit

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzParts(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = bytes(data, size)
    if let part = try? Part(frame: input) {
        require(part.frame == input, "an accepted frame does not write back to its bytes")
        require(part.dataParts >= 1 && part.totalParts >= part.dataParts && part.index < part.totalParts,
                "counts outside the rules")
        require(part.chunk.count == Part.chunkLength(length: part.length, dataParts: part.dataParts), "chunk of the wrong length")
        require(MessageParts.stillNeeded(dataParts: part.dataParts, totalParts: part.totalParts, indexes: [part.index])
                <= part.dataParts, "more needed than data parts")
    }
    if let part = (try? Part.fromSymbol(input)) ?? nil {
        require(part.frame.count > Part.headerLength, "a symbol's part without a chunk")
    }
    // A small message split by the fuzzer's counts rebuilds from its last K parts.
    if input.count >= 3 {
        let k = Int(input[0] % 8) + 1, n = k + Int(input[1] % 8)
        let message = Array(input.dropFirst(2))
        if let parts = try? MessageParts.split(message, dataParts: k, totalParts: n) {
            require((try? MessageParts.rebuild(Array(parts.suffix(k)))) == message, "the last K parts do not rebuild")
        }
    }
    return 0
}
