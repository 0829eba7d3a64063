import Testing
@testable import QRSealKit

/// The part header (docs/FORMAT.md, section 8.3): what a reader accepts and refuses.
@Suite("Parts: header")
struct PartTests {
    private func random(_ count: Int) -> [UInt8] { (0..<count).map { _ in UInt8.random(in: 0...255) } }

    /// A valid frame of a 100-byte message in 4 data parts of 6, then `edit` applied to it.
    private func frame(_ edit: (inout [UInt8]) -> Void = { _ in }) throws -> [UInt8] {
        var bytes = try MessageParts.split(random(100), dataParts: 4, totalParts: 6)[5].frame
        edit(&bytes)
        return bytes
    }

    /// `bytes` with its 2-byte check recomputed, so that only the field edited is wrong.
    private func rechecked(_ bytes: [UInt8]) -> [UInt8] {
        var b = bytes
        let check = Array(Crypto.sha256(Array(b[0..<14]) + Array(b[16...])).prefix(2))
        b.replaceSubrange(14..<16, with: check)
        return b
    }

    private func field(_ b: inout [UInt8], at offset: Int, _ value: Int, size: Int) {
        for i in 0..<size { b[offset + i] = UInt8(value >> (8 * (size - 1 - i)) & 0xFF) }
        b = rechecked(b)
    }

    @Test("a frame comes back with every field, and its id is the start of the message's SHA-256")
    func roundTrip() throws {
        let message = random(100)
        let parts = try MessageParts.split(message, dataParts: 4, totalParts: 6)
        let part = try Part(frame: parts[5].frame)
        #expect(part == parts[5])
        #expect(part.index == 5 && part.dataParts == 4 && part.totalParts == 6 && part.length == 100)
        #expect(part.chunk.count == 25 && part.frame.count == 16 + 25)
        #expect(part.idText == Crypto.sha256(message).prefix(4).map { String(format: "%02X", $0) }.joined())
    }

    @Test("hostile headers are refused, each with its own reason", arguments: [
        ("K = 0", 1, 0, 2, "no data parts (K = 0)"),
        ("N < K", 3, 3, 2, "fewer parts (3) than data parts (4)"),
        ("index = N", 5, 6, 2, "part index 7 of 6"),
        ("index past N", 5, 60_000, 2, "part index 60001 of 6"),
        ("length 0", 7, 0, 3, "empty message"),
        ("huge length", 7, 16_777_215, 3, "bytes of data where 16777215 bytes in 4 parts give"),
        ("N > 255 K", 3, 2000, 2, "more than 255 parts per data part (2000 for 4)"),
    ])
    func hostile(_ name: String, offset: Int, value: Int, size: Int, reason: String) throws {
        let bytes = try frame { field(&$0, at: offset, value, size: size) }
        #expect {
            try Part(frame: bytes)
        } throws: { error in
            guard case .malformed(let text) = error as? PartsError else { return false }
            return text.contains(reason)
        }
    }

    @Test("a frame cut short, to nothing or to its header, is truncated")
    func truncated() throws {
        let bytes = try frame()
        for length in [0, 1, 15, 16] {
            #expect(throws: PartsError.truncated) { try Part(frame: Array(bytes.prefix(length))) }
        }
        // Cut inside the chunk: the chunk is shorter than the length and K say.
        #expect(throws: PartsError.self) { try Part(frame: Array(bytes.dropLast())) }
    }

    @Test("a changed byte of the chunk or header fails the part's own check")
    func check() throws {
        for offset in [3, 10, 20, 40] {
            let bytes = try frame { $0[offset] ^= 0x01 }
            #expect(throws: PartsError.self) { try Part(frame: bytes) }
        }
        #expect(throws: PartsError.damagedPart) { try Part(frame: try frame { $0[40] ^= 0x80 }) }
    }

    @Test("another version or frame type is unsupported, not damaged")
    func unsupported() throws {
        #expect(throws: PartsError.unsupported("format version 2")) { try Part(frame: try frame { $0[0] = 0x21 }) }
        #expect(throws: PartsError.unsupported("frame type 2")) { try Part(frame: try frame { $0[0] = 0x12 }) }
    }

    @Test("both armors carry a part; a single symbol's payload is not one")
    func armor() throws {
        let part = try MessageParts.split(random(100), dataParts: 4, totalParts: 6)[2]
        let digits = Array("QRSEAL1P:".utf8) + Digits.encode(part.frame)
        #expect(try Part.fromSymbol(digits) == part)
        #expect(try Part.fromSymbol(Array("qrseal1p:".utf8) + Digits.encode(part.frame)) == part)
        #expect(try Part.fromSymbol(Armor.magic + part.frame) == part)
        #expect(try Part.fromSymbol(Array("QRSEAL1:123".utf8)) == nil)
        #expect(try Part.fromSymbol(Armor.magic + [0x10, 0x00]) == nil)
        #expect(throws: PartsError.self) { try Part.fromSymbol(Array(digits.dropLast(3))) }
    }

    @Test("a part's payload is within 1% of what one symbol holds, at every version from 10 and level")
    func overhead() {
        for level in ErrorCorrection.allCases {
            for version in 10...40 {
                let single = Armor.digits.maxEnvelopeBytes(version: version, level: level)
                let part = Part.chunkCapacity(version: version, level: level, armor: .digits)
                // 16 header bytes and at most one more for the prefix's extra letter.
                #expect(single - part <= 17, "version \(version)-\(level.rawValue)")
                if single >= 1700 { #expect(Double(single - part) / Double(single) < 0.01, "\(version)-\(level.rawValue)") }
            }
        }
    }
}
