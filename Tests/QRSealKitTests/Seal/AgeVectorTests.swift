import Foundation
import Testing
import TestSupport
@testable import QRSealKit

/// One file of C2SP CCTV's age vectors (vectors/age/README.md): `key: value` lines, a blank
/// line, then the age file (zlib-compressed when `compressed: zlib`).
struct AgeVector {
    static let knownKeys: Set<String> = ["expect", "payload", "file key", "identity", "passphrase", "armored", "compressed", "comment"]
    static let classes: Set<String> = ["success", "header failure", "armor failure", "payload failure", "no match", "HMAC failure"]

    let name: String
    var headers: [(key: String, value: String)] = []
    var file: [UInt8] = []

    init(name: String, bytes: [UInt8]) throws(VectorProblem) {
        self.name = name
        var offset = 0
        while true {
            guard let end = bytes[offset...].firstIndex(of: 0x0A) else { throw VectorProblem("\(name): no blank line") }
            let line = String(decoding: bytes[offset..<end], as: UTF8.self)
            offset = end + 1
            if line.isEmpty { break }
            guard let colon = line.range(of: ": ") else { throw VectorProblem("\(name): header line '\(line)'") }
            let key = String(line[..<colon.lowerBound])
            guard Self.knownKeys.contains(key) else { throw VectorProblem("\(name): unknown header key '\(key)'") }
            headers.append((key, String(line[colon.upperBound...])))
        }
        file = Array(bytes[offset...])
        switch value("compressed") {
        case nil: break
        case "zlib":
            guard let inflated = Inflate.zlib(file) else { throw VectorProblem("\(name): not a zlib stream") }
            file = inflated
        case let other?: throw VectorProblem("\(name): compressed: \(other)")
        }
        guard let expect = value("expect"), Self.classes.contains(expect) else {
            throw VectorProblem("\(name): unknown expect class '\(value("expect") ?? "")'")
        }
    }

    func value(_ key: String) -> String? { headers.first { $0.key == key }?.value }

    func keys() throws(VectorProblem) -> [SealKey] {
        var keys: [SealKey] = []
        for (key, value) in headers {
            if key == "passphrase" { keys.append(.passphrase(value)) }
            if key == "identity" {
                do { keys.append(.identity(try AgeIdentity(text: value))) } catch {
                    throw VectorProblem("\(name): identity: \(error)")
                }
            }
        }
        return keys
    }

    /// The CCTV class of one of our errors; nil for errors no vector expects.
    static func failureClass(_ error: SealError) -> String? {
        switch error {
        case .ageHeader, .kdfTooCostly, .unsupportedRecipient: return "header failure"
        case .ageArmor: return "armor failure"
        case .agePayload: return "payload failure"
        case .noIdentityMatches: return "no match"
        case .headerMACFailed: return "HMAC failure"
        default: return nil
        }
    }

    /// What opening gives: "success" with the plaintext, or the class of the failure.
    func outcome() throws(VectorProblem) -> (String, [UInt8]?) {
        let keys = try keys()
        do throws(SealError) {
            let binary = value("armored") == "yes" ? try AgeArmor.decode(file) : file
            var (decryptor, plaintext) = try AgeFile.Decryptor.start(binary, keys: keys, opener: Opener())
            plaintext += try decryptor.finish()
            return ("success", plaintext)
        } catch {
            guard let failure = Self.failureClass(error) else { throw VectorProblem("\(name): unexpected error \(error)") }
            return (failure, nil)
        }
    }
}

@Suite("age v1: C2SP CCTV vectors")
struct AgeVectorTests {
    static let folder = Tools.packageRoot.appendingPathComponent("vectors/age")

    static func load(_ folder: URL) throws -> [AgeVector] {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { !$0.hasSuffix(".md") && !$0.hasPrefix(".") }.sorted()
        return try names.map { name in
            try AgeVector(name: name, bytes: Array(try Data(contentsOf: folder.appendingPathComponent(name))))
        }
    }

    @Test("every non-post-quantum CCTV vector gives its expected outcome, success with the payload's SHA-256")
    func everyVector() throws {
        let vectors = try Self.load(Self.folder)
        #expect(vectors.count == 124)
        var byClass: [String: Int] = [:]
        for vector in vectors {
            let expect = vector.value("expect")!
            let (got, plaintext) = try vector.outcome()
            byClass[got, default: 0] += 1
            #expect(got == expect, "\(vector.name): expected \(expect), got \(got)")
            if let plaintext {
                let hash = Crypto.sha256(plaintext).map { String(format: "%02x", $0) }.joined()
                #expect(hash == vector.value("payload"), "\(vector.name): payload hash")
            }
        }
        // Every class occurs, so a reader that reports one class for everything cannot pass.
        #expect(Set(byClass.keys) == AgeVector.classes)
    }

    @Test("post-quantum files and identities are refused with an error naming the type")
    func postQuantum() throws {
        let folder = Tools.packageRoot.appendingPathComponent("vectors/age-pq")
        for vector in try Self.load(folder) {
            let identityLine = vector.value("identity")!
            #expect(throws: SealError.unsupportedRecipient("AGE-SECRET-KEY-PQ (post-quantum ML-KEM-768 + X25519 identity)")) {
                try AgeIdentity(text: identityLine)
            }
            let binary = vector.value("armored") == "yes" ? try AgeArmor.decode(vector.file) : vector.file
            let someone = try AgeIdentity.generate()
            do {
                _ = try AgeFile.open(binary, keys: [.identity(someone)], opener: Opener())
                Issue.record("\(vector.name) opened")
            } catch {
                #expect(error.description.contains("mlkem768x25519"), "\(vector.name): \(error)")
            }
        }
    }
}
