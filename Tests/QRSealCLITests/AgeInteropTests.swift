import Foundation
import Testing
import TestSupport
@testable import QRSealKit

/// Round trips against the real `age` and `age-keygen` (Debian package age, installed by
/// `make setup`): what qrseal writes, age opens, and the other way, byte for byte.
@Suite("age interoperability with the age tools")
struct AgeInteropTests {
    static let pty = Tools.packageRoot.appendingPathComponent("Tests/Support/scripts/with-tty-passphrase.py").path
    static let mebibyte = (0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 2654435761 >> 13) }

    /// A new age-keygen identity file and its recipient.
    static func ageKeygen(_ dir: TempDir, _ name: String) throws -> (path: String, recipient: String) {
        let path = dir.path(name)
        let made = try Tools.run("age-keygen", ["-o", path])
        #expect(made.status == 0, "\(made.stderr)")
        let recipient = try Tools.run("age-keygen", ["-y", path]).stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        return (path, recipient)
    }

    @Test("qrseal keygen --x25519 writes an identity age uses, and prints the recipient age-keygen -y gives")
    func ourIdentity() throws {
        let dir = try TempDir()
        let key = dir.path("me.key")
        let made = qrseal(["keygen", "--x25519", "-o", key])
        #expect(made.status == 0)
        var info = stat()
        #expect(stat(key, &info) == 0 && info.st_mode & 0o777 == 0o600)
        let fromAge = try Tools.run("age-keygen", ["-y", key]).stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(made.stderr.contains("Public key: \(fromAge)"))
        let sealed = dir.path("m.age")
        #expect(try Tools.run("age", ["-r", fromAge, "-o", sealed], input: Data("hello".utf8)).status == 0)
        let opened = qrseal(["open", sealed, "--identity", key, "--no-store"])
        #expect(opened.status == 0 && opened.stdout == Data("hello".utf8), "\(opened.stderr)")
    }

    @Test("age writes, qrseal opens: X25519, several recipients, binary and armored, empty and 1 MiB",
          arguments: [0, 1 << 20], [false, true])
    func ageWrites(size: Int, armored: Bool) throws {
        let dir = try TempDir()
        let alice = try Self.ageKeygen(dir, "alice.key"), bob = try Self.ageKeygen(dir, "bob.key")
        let plaintext = Array(Self.mebibyte.prefix(size))
        let input = try dir.write("plain.bin", Data(plaintext))
        let sealed = dir.path("m.age")
        let made = try Tools.run("age", (armored ? ["-a"] : []) + ["-r", alice.recipient, "-r", bob.recipient, "-o", sealed, input])
        #expect(made.status == 0, "\(made.stderr)")
        for who in [alice, bob] {
            let out = dir.path("out-\(UUID().uuidString)")
            let opened = qrseal(["open", sealed, "--identity", who.path, "-o", out, "--no-store"])
            #expect(opened.status == 0, "\(opened.stderr)")
            #expect(FileManager.default.contents(atPath: out).map(Array.init) == plaintext)
        }
    }

    @Test("qrseal writes, age opens: X25519, several recipients, binary and armored, empty and 1 MiB",
          arguments: [0, 1 << 20], [false, true])
    func weWrite(size: Int, armored: Bool) throws {
        let dir = try TempDir()
        let alice = try Self.ageKeygen(dir, "alice.key"), bob = try Self.ageKeygen(dir, "bob.key")
        let plaintext = Array(Self.mebibyte.prefix(size))
        let file = try AgeFile.seal(plaintext, to: [try AgeRecipient(text: alice.recipient), try AgeRecipient(text: bob.recipient)])
        let sealed = try dir.write("m.age", Data(armored ? Array(AgeArmor.encode(file).utf8) : file))
        for who in [alice, bob] {
            let opened = try Tools.run("age", ["-d", "-i", who.path, sealed])
            #expect(opened.status == 0, "\(opened.stderr)")
            #expect(Array(opened.stdout) == plaintext)
        }
    }

    @Test("a code made with encode --armor age or age-text holds a file age opens")
    func encodedSymbol() throws {
        let dir = try TempDir()
        let friend = try Self.ageKeygen(dir, "friend.key")
        for armor in ["age", "age-text"] {
            let png = dir.path("\(armor).png")
            let made = qrseal(["encode", "--to", friend.recipient, "--armor", armor, "-o", png, "meet at noon"])
            #expect(made.status == 0, "\(made.stderr)")
            let items = try Reader().detections(imageBytes: Array(try Data(contentsOf: URL(fileURLWithPath: png))))
            #expect(items.count == 1)
            let symbol = try dir.write("\(armor).age", Data(items[0].bytes))
            let opened = try Tools.run("age", ["-d", "-i", friend.path, symbol])
            #expect(opened.status == 0 && opened.stdoutText == "meet at noon", "\(armor): \(opened.stderr)")
        }
    }

    @Test("passphrase (scrypt) files both ways, through a terminal for age's prompt")
    func scrypt() throws {
        let dir = try TempDir()
        let plaintext = Array(Self.mebibyte.prefix(70_000))
        let input = try dir.write("plain.bin", Data(plaintext))
        // age writes (work factor 18, as age always does), qrseal opens.
        let byAge = dir.path("by-age.age")
        let made = try Tools.run("python3", [Self.pty, "shared secret", "age", "-p", "-o", byAge, input])
        #expect(made.status == 0, "\(made.stderr)")
        let out = dir.path("out.bin")
        let opened = qrseal(["open", byAge, "-o", out, "--no-store"], environment: ["QRSEAL_PASSPHRASE": "shared secret"])
        #expect(opened.status == 0, "\(opened.stderr)")
        #expect(FileManager.default.contents(atPath: out).map(Array.init) == plaintext)
        // qrseal writes, age opens.
        let ours = try dir.write("ours.age", Data(try AgeFile.seal(plaintext, passphrase: "shared secret", workFactor: 12)))
        let back = dir.path("back.bin")
        let read = try Tools.run("python3", [Self.pty, "shared secret", "age", "-d", "-o", back, ours])
        #expect(read.status == 0, "\(read.stderr)")
        #expect(FileManager.default.contents(atPath: back).map(Array.init) == plaintext)
    }
}
