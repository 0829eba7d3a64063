import Foundation
import Testing
@testable import QRSealKit

/// One file of vectors/parts/ (format: vectors/parts/README.md): headers, a blank line, one
/// line per part as scanned.
struct PartVector {
    static let knownKeys: Set<String> = ["expect", "comment", "passphrase", "key", "content", "name", "plaintext", "needed"]
    static let repeatableKeys: Set<String> = ["comment"]
    static let classes: Set<String> = ["success", "incomplete", "damaged", "part refused", "unsupported"]

    var headers: [(key: String, value: String)]
    var lines: [String]

    var text: String {
        headers.map { "\($0.key): \($0.value)\n" }.joined() + "\n" + lines.map { $0 + "\n" }.joined()
    }

    func value(_ key: String) -> String? { headers.first { $0.key == key }?.value }

    init(headers: [(key: String, value: String)], lines: [String]) {
        self.headers = headers
        self.lines = lines
    }

    init(parsing text: String) throws(VectorProblem) {
        guard text.hasSuffix("\n"), !text.contains("\r") else { throw VectorProblem("line breaks must be \\n, with a final one") }
        let all = text.dropLast().split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let blank = all.firstIndex(of: "") else { throw VectorProblem("no blank line after the header") }
        var headers: [(key: String, value: String)] = []
        for line in all[..<blank] {
            guard let colon = line.firstIndex(of: ":") else { throw VectorProblem("header line without a colon: \(line)") }
            let key = String(line[..<colon])
            let value = String(line[line.index(after: colon)...].drop { $0 == " " })
            guard Self.knownKeys.contains(key) else { throw VectorProblem("unknown header key \(key)") }
            guard Self.repeatableKeys.contains(key) || !headers.contains(where: { $0.key == key }) else {
                throw VectorProblem("\(key) given twice")
            }
            headers.append((key, value))
        }
        self.headers = headers
        lines = Array(all[(blank + 1)...])
        guard !lines.isEmpty, !lines.contains("") else { throw VectorProblem("no part lines, or an empty one") }
        guard let expect = value("expect"), Self.classes.contains(expect) else { throw VectorProblem("bad expect class") }
    }

    /// A part line's symbol bytes: the text as scanned, or `hex:` and the binary armor's bytes.
    static func symbol(_ line: String) throws(VectorProblem) -> [UInt8] {
        guard line.hasPrefix("hex:") else { return Array(line.utf8) }
        return try Hex.decode(String(line.dropFirst(4)))
    }
}

@Suite("Parts: test vectors")
struct PartVectorTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../../vectors/parts").standardizedFileURL

    static var names: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasSuffix(".txt") }.sorted()
    }

    @Test("the folder holds vectors of every class")
    func coverage() throws {
        let classes = try Set(Self.names.map { name in
            try PartVector(parsing: String(contentsOf: Self.folder.appendingPathComponent(name), encoding: .utf8)).value("expect")!
        })
        #expect(classes == PartVector.classes)
    }

    @Test("every vector gives its expected outcome", arguments: names)
    func vector(_ name: String) throws {
        let vector = try PartVector(parsing: String(contentsOf: Self.folder.appendingPathComponent(name), encoding: .utf8))
        let expect = vector.value("expect")!
        var parts: [Part] = []
        for line in vector.lines {
            do {
                guard let part = try Part.fromSymbol(try PartVector.symbol(line)) else { throw VectorProblem("not a part: \(line.prefix(20))") }
                parts.append(part)
            } catch let error as PartsError {
                switch (expect, error) {
                case ("unsupported", .unsupported), ("part refused", .malformed), ("part refused", .truncated),
                     ("part refused", .damagedPart):
                    continue
                default:
                    Issue.record("\(name): part refused as \(error)")
                    return
                }
            }
        }
        if expect == "unsupported" || expect == "part refused" {
            #expect(parts.isEmpty, "\(name): a part was taken")
            return
        }
        let indexes = Set(parts.map(\.index))
        let needed = MessageParts.stillNeeded(dataParts: parts[0].dataParts, totalParts: parts[0].totalParts, indexes: indexes)
        switch expect {
        case "incomplete":
            #expect(needed == Int(vector.value("needed") ?? ""), "\(name)")
            #expect(throws: PartsError.self) { try MessageParts.rebuild(parts) }
        case "damaged":
            #expect(throws: PartsError.damagedMessage) { try MessageParts.rebuild(parts) }
        default:
            let whole = try MessageParts.rebuild(parts)
            let payload: Payload
            switch try RebuiltMessage.content(of: whole) {
            case .plain(let p): payload = p
            case .sealed(let envelope):
                var keys: [SealKey] = []
                if let p = vector.value("passphrase") { keys.append(.passphrase(p)) }
                if let k = vector.value("key") { keys.append(.keyFile(try SecretKey(text: k))) }
                payload = try Opener().open(envelope, keys: keys)
            }
            #expect(Hex.encode(payload.content) == vector.value("plaintext"), "\(name)")
            if case .file(let fileName, _) = payload {
                #expect(vector.value("content") == "file" && fileName == vector.value("name"), "\(name)")
            } else {
                #expect(vector.value("content") == "text", "\(name)")
            }
        }
    }
}

/// Writes vectors/parts/*.txt; runs only with QRSEAL_WRITE_VECTORS=1. Every byte comes from
/// fixed labels, so running it again gives the same files.
@Suite("Parts test vector generator")
struct PartVectorGenerator {
    var files: [String: String] = [:]

    static func digits(_ part: Part) -> String { Part.digitsPrefix + String(decoding: Digits.encode(part.frame), as: UTF8.self) }

    /// `order` of `parts` as lines (digits armor; `binary` ones as hex).
    static func lines(_ parts: [Part], _ order: [Int], binary: Set<Int> = []) -> [String] {
        order.map { binary.contains($0) ? "hex:" + Hex.encode(Armor.magic + parts[$0].frame) : digits(parts[$0]) }
    }

    mutating func write(_ name: String, _ headers: [(key: String, value: String)], _ lines: [String]) {
        files[name] = PartVector(headers: headers, lines: lines).text
    }

    mutating func success(_ name: String, _ comment: String, payload: Payload, key: SealKey? = nil, compress: Bool = false,
                          k: Int, n: Int, order: [Int], binary: Set<Int> = []) throws {
        let whole: [UInt8]
        var headers: [(key: String, value: String)] = [("expect", "success"), ("comment", comment)]
        if let key {
            var sealer = Sealer(scrypt: VectorGenerator.small, compress: compress)
            sealer.fixedRandom = (salt: VectorGenerator.bytes("salt " + name, 16), nonce: VectorGenerator.bytes("nonce " + name, 12))
            whole = try sealer.seal(payload, with: key)
            headers.append(VectorGenerator.keyHeader(key))
        } else {
            whole = try InnerPlaintext.encode(payload, compress: compress)
        }
        switch payload {
        case .text: headers.append(("content", "text"))
        case .file(let fileName, _): headers += [("content", "file"), ("name", fileName)]
        }
        headers.append(("plaintext", Hex.encode(payload.content)))
        write(name, headers, Self.lines(try MessageParts.split(whole, dataParts: k, totalParts: n), order, binary: binary))
    }

    static func text(_ label: String, _ count: Int) -> String {
        String(VectorGenerator.bytes(label, count).map { Character(Unicode.Scalar(0x61 + $0 % 26)) })
    }

    /// A frame of `parts[i]` with `edit` applied and its check made again.
    static func forged(_ part: Part, _ edit: (inout [UInt8]) -> Void) -> String {
        var b = part.frame
        edit(&b)
        b.replaceSubrange(14..<16, with: Crypto.sha256(Array(b[0..<14]) + Array(b[16...])).prefix(2))
        return Part.digitsPrefix + String(decoding: Digits.encode(b), as: UTF8.self)
    }

    mutating func generateAll() throws {
        try success("plain-text-all-parts.txt", "a plain text in 3 data parts of 5, all given, shuffled",
                    payload: .text(Self.text("a", 400)), k: 3, n: 5, order: [4, 1, 0, 3, 2])
        try success("plain-file-parts-missing.txt", "a plain file in 4 data parts of 6: two lost, one given twice, parity first",
                    payload: .file(name: "notes.txt", bytes: VectorGenerator.bytes("notes", 700)), k: 4, n: 6, order: [5, 4, 2, 5, 0])
        try success("plain-compressed.txt", "plain text compressed with Brotli, rebuilt from 1 data part and parity, one in binary armor",
                    payload: .text(String(repeating: "all work and no play ", count: 100)), compress: true, k: 2, n: 4,
                    order: [3, 1], binary: [3])
        try success("sealed-key-file.txt", "sealed with a key file, then split: 3 of 5 parts, data parts lost",
                    payload: .text(Self.text("sealed", 500)), key: .keyFile(VectorGenerator.keyFile("parts")), k: 3, n: 5,
                    order: [4, 3, 2])
        try success("sealed-passphrase-file.txt", "a file sealed with a passphrase (scrypt 2^10), then split into 4 of 7",
                    payload: .file(name: "key.pem", bytes: VectorGenerator.bytes("pem", 900)), key: .passphrase("correct horse"),
                    k: 4, n: 7, order: [6, 0, 5, 3])
        try success("stripes.txt", "520 data parts of 2 bytes in 780 parts: 4 stripes of 195, each short of 65 parts",
                    payload: .text(Self.text("stripes", 1039)), k: 520, n: 780,
                    order: Array(0..<780).filter { ($0 / 4) % 3 != 1 }.reversed())

        let p = try MessageParts.split(try InnerPlaintext.encode(.text(Self.text("b", 300)), compress: false), dataParts: 4, totalParts: 6)
        write("incomplete.txt", [("expect", "incomplete"), ("comment", "3 distinct parts of the 4 needed, one given twice"), ("needed", "1")],
              Self.lines(p, [0, 5, 0, 3]))
        write("damaged-forged-part.txt", [("expect", "damaged"),
                                          ("comment", "a parity part's data altered and its check forged: the rebuilt message fails its hash")],
              Self.lines(p, [0, 1, 2]) + [Self.forged(p[4]) { $0[20] ^= 0x01 }])
        write("refused-zero-data-parts.txt", [("expect", "part refused"), ("comment", "K = 0")], [Self.forged(p[1]) { $0[1] = 0; $0[2] = 0 }])
        write("refused-index-past-end.txt", [("expect", "part refused"), ("comment", "index 6 of 6 parts")],
              [Self.forged(p[1]) { $0[5] = 0; $0[6] = 6 }])
        write("refused-huge-length.txt", [("expect", "part refused"), ("comment", "a length of 2^24 - 1 bytes that the chunk does not match")],
              [Self.forged(p[1]) { $0[7] = 0xFF; $0[8] = 0xFF; $0[9] = 0xFF }])
        write("refused-truncated-header.txt", [("expect", "part refused"), ("comment", "12 bytes: cut inside the header")],
              [Part.digitsPrefix + String(decoding: Digits.encode(Array(p[1].frame.prefix(12))), as: UTF8.self)])
        var altered = p[1].frame
        altered[30] ^= 0x04
        write("refused-bad-check.txt", [("expect", "part refused"), ("comment", "one chunk byte changed, check not made again")],
              [Part.digitsPrefix + String(decoding: Digits.encode(altered), as: UTF8.self)])
        write("unsupported-frame-type.txt", [("expect", "unsupported"), ("comment", "lead byte 12: version 1, frame type 2")],
              [Self.forged(p[1]) { $0[0] = 0x12 }])
    }

    @Test("write vectors/parts/*.txt", .enabled(if: VectorGenerator.enabled))
    mutating func writeAll() throws {
        try generateAll()
        try FileManager.default.createDirectory(at: PartVectorTests.folder, withIntermediateDirectories: true)
        for (name, text) in files {
            try text.write(to: PartVectorTests.folder.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
    }
}
