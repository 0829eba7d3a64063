import Foundation
import Testing
@testable import QRSealKit

/// Splitting and rebuilding (docs/FORMAT.md, section 8.4).
@Suite("Parts: splitting and rebuilding")
struct MessagePartsTests {
    private func random(_ count: Int) -> [UInt8] { (0..<count).map { _ in UInt8.random(in: 0...255) } }

    @Test("the first K parts are the message itself, zero-padded")
    func systematic() throws {
        let message = random(10)
        let parts = try MessageParts.split(message, dataParts: 3, totalParts: 5)
        #expect(parts.prefix(3).flatMap(\.chunk) == message + [0, 0])
    }

    @Test("any K distinct parts, in any order and with repeats, rebuild the message", arguments: [(1, 1), (1, 3), (3, 3), (5, 8), (20, 30)])
    func anyK(k: Int, n: Int) throws {
        let message = random(k * 7 - 3)
        let parts = try MessageParts.split(message, dataParts: k, totalParts: n)
        for _ in 0..<20 {
            var chosen = Array(parts.shuffled().prefix(k))
            chosen += chosen.prefix(2)
            #expect(try MessageParts.rebuild(chosen.shuffled()) == message)
        }
    }

    @Test("more than 255 parts use stripes, each needing its own share; the count of parts still needed is exact")
    func stripes() throws {
        let message = random(300 * 3)
        let parts = try MessageParts.split(message, dataParts: 300, totalParts: 450)
        #expect(Part.stripes(totalParts: 450) == 2)
        // Lose 75 parts of each stripe: each still has 150 of its 225.
        let kept = parts.filter { $0.index % 2 == 0 ? $0.index / 2 >= 75 : $0.index / 2 < 150 }
        #expect(kept.count == 300)
        #expect(try MessageParts.rebuild(kept.shuffled()) == message)
        // One stripe short by one, the other with one to spare: still one more needed.
        let uneven = kept.filter { $0.index != 150 } + [parts[1 + 2 * 150]]
        #expect(MessageParts.stillNeeded(dataParts: 300, totalParts: 450, indexes: Set(uneven.map(\.index))) == 1)
        #expect(throws: PartsError.incomplete(have: 299, need: 300)) { try MessageParts.rebuild(uneven) }
    }

    @Test("too few parts say how many more are needed")
    func tooFew() throws {
        let parts = try MessageParts.split(random(50), dataParts: 5, totalParts: 8)
        #expect(throws: PartsError.incomplete(have: 3, need: 5)) { try MessageParts.rebuild(Array(parts.suffix(3))) }
        #expect(MessageParts.stillNeeded(dataParts: 5, totalParts: 8, indexes: [7, 6, 6]) == 3)
    }

    @Test("a parity part altered after its check was made rebuilds a message that fails its hash")
    func damaged() throws {
        let parts = try MessageParts.split(random(50), dataParts: 5, totalParts: 8)
        var bad = parts[6].chunk
        bad[0] ^= 0xFF
        let altered = Part(messageID: parts[6].messageID, dataParts: 5, totalParts: 8, index: 6, length: 50, chunk: bad)
        #expect(throws: PartsError.damagedMessage) { try MessageParts.rebuild([parts[0], parts[1], parts[2], parts[3], altered]) }
    }

    @Test("parts of two messages are never mixed")
    func mixed() throws {
        let a = try MessageParts.split(random(50), dataParts: 5, totalParts: 8)
        let b = try MessageParts.split(random(60), dataParts: 5, totalParts: 8)
        #expect(throws: PartsError.self) { try MessageParts.rebuild(Array(a.prefix(3)) + Array(b.prefix(2))) }
    }

    @Test("counts that cannot carry a message are refused before anything is made")
    func limits() {
        #expect(throws: PartsError.self) { try MessageParts.split([], dataParts: 1, totalParts: 1) }
        #expect(throws: PartsError.self) { try MessageParts.split(random(4), dataParts: 5, totalParts: 5) }
        #expect(throws: PartsError.self) { try MessageParts.split(random(4), dataParts: 1, totalParts: 256) }
        #expect(throws: PartsError.self) { try MessageParts.split(random(4), dataParts: 4, totalParts: 3) }
        #expect(throws: PartsError.self) {
            try MessageParts.validate(length: Part.maxMessageBytes + 1, dataParts: 6000, totalParts: 6000)
        }
    }
}

@Suite("Parts: Structured Append as read")
struct StructuredAppendReadTests {
    @Test("libZXing's sequence index, count and parity reach the detection")
    func detection() throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Images/structured-append/note-2-of-3.png").standardizedFileURL.path
        let found = try Reader().detections(imageBytes: Array(try Data(contentsOf: URL(fileURLWithPath: path))))
        #expect(found.map(\.structuredAppend) == [StructuredAppend(index: 1, count: 3, parity: 0x1F)])
        #expect(found.first?.text == "joins these ")
    }
}
