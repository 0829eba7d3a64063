import Foundation
import Testing
@testable import QRSealKit

/// Adding to the keyring as `qrseal keys add` and `keygen` do, and the desktop app's keys page.
@Suite("Seal: adding and generating keyring keys")
struct KeyringAddingTests {
    private func keyring() -> Keyring {
        Keyring(directory: NSTemporaryDirectory() + "qrseal-keyring-\(UUID().uuidString)/keys")
    }

    @Test("a key file is named after its file without .key, an identity after its file too; standard input by fingerprint")
    func names() throws {
        let ring = keyring()
        defer { try? FileManager.default.removeItem(atPath: (ring.directory as NSString).deletingLastPathComponent) }
        let key = try SecretKey.generate()
        #expect(try ring.add([.keyFile(key)], name: nil, path: "/x/work.key", created: "now")
                == .key(name: "work", fingerprint: Keyring.fingerprint(key)))
        let identity = try AgeIdentity.generate()
        #expect(try ring.add([.identity(identity)], name: nil, path: "-", created: "now")
                == .identity(name: "identity-" + identity.recipient.fingerprint.replacingOccurrences(of: " ", with: ""),
                             recipient: identity.recipient))
        #expect(try ring.add([.keyFile(try SecretKey.generate())], name: "other", path: "a.key", created: "now").name == "other")
        #expect(try ring.list().map(\.name).sorted() == ["identity-" + identity.recipient.fingerprint.replacingOccurrences(of: " ", with: ""),
                                                         "other", "work"].sorted())
    }

    @Test("a generated identity is listed with its recipient; a key file is mode 0600; a name is never reused")
    func generate() throws {
        let ring = keyring()
        defer { try? FileManager.default.removeItem(atPath: (ring.directory as NSString).deletingLastPathComponent) }
        guard case .identity(_, let recipient) = try ring.generate(identity: true, name: "me", created: "now") else {
            Issue.record("not an identity")
            return
        }
        #expect(try ring.list().first { $0.name == "me" }?.recipient == recipient)
        _ = try ring.generate(identity: false, name: "k", created: "now")
        let mode = try FileManager.default.attributesOfItem(atPath: ring.directory + "/k.key")[.posixPermissions] as? Int
        #expect(mode == 0o600)
        #expect(throws: Keyring.GenerateFailure.keyring(.exists("me"))) { try ring.generate(identity: false, name: "me", created: "now") }
        #expect(throws: Keyring.GenerateFailure.keyring(.badName("-x"))) { try ring.generate(identity: true, name: "-x", created: "now") }
    }

    @Test("a recipient's code holds its key in upper case, alphanumeric mode")
    func recipientCode() throws {
        let recipient = try AgeIdentity.generate().recipient
        let png = try recipient.qrMatrix().png(scale: 4, margin: 4)
        let symbol = try #require(try Reader().detections(imageBytes: png).first)
        #expect(symbol.text == recipient.qrText)
    }
}
