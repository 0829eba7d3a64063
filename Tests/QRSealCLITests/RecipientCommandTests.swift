import Foundation
import Testing
import TestSupport
@testable import QRSealKit

/// Public keys on the command line: identities in the keyring, contacts, recipient codes,
/// sealing to them and opening age files. Each test has its own data folder.
@Suite("Public keys: keygen --x25519, keys, contacts, encode --to, open age")
struct RecipientCommandTests {
    let dir: TempDir
    let env: [String: String]

    init() throws {
        dir = try TempDir()
        env = ["XDG_DATA_HOME": dir.path("data")]
    }

    func run(_ arguments: [String], stdin: Data? = nil, answers: [String] = []) -> Captured {
        qrseal(arguments, stdin: stdin, environment: env, answers: answers)
    }

    func identity(_ name: String) throws -> (path: String, recipient: String) {
        let path = dir.path(name)
        let made = run(["keygen", "--x25519", "-o", path])
        #expect(made.status == 0)
        let recipient = made.stderr.split(separator: "\n").first { $0.hasPrefix("Public key: ") }!.dropFirst(12)
        return (path, String(recipient))
    }

    @Test("seal to a contact, open with the identity in the keyring; someone else gets 'no identity matches' and status 3")
    func sealToContact() throws {
        let bob = try identity("bob.key")
        #expect(run(["contacts", "add", "bob", bob.recipient]).status == 0)
        let list = run(["contacts", "list"])
        #expect(list.out.contains("bob") && list.out.contains(bob.recipient))
        let png = dir.path("for-bob.png")
        let sealed = run(["encode", "--to", "bob", "-o", png, "only bob reads this"])
        #expect(sealed.status == 0, "\(sealed.stderr)")
        let stranger = try identity("stranger.key")
        let wrong = run(["open", png, "--identity", stranger.path, "--no-store"])
        #expect(wrong.status == 3)
        #expect(wrong.stderr.contains("\(png): no identity matches"))
        let none = run(["open", png, "--no-store"])
        #expect(none.status == 3 && none.stderr.contains("public key"), "\(none.stderr)")
        #expect(run(["keys", "add", bob.path]).status == 0)
        let opened = run(["open", png, "--no-store"])
        #expect(opened.status == 0 && opened.out == "only bob reads this", "\(opened.stderr)")
        // An age file in a code, in age's armor: scan opens it with the identity.
        let agePNG = dir.path("age.png")
        #expect(run(["encode", "--to", "bob", "--armor", "age-text", "-o", agePNG, "an age file"]).status == 0)
        let scanned = run(["scan", agePNG, "--identity", bob.path, "--no-store"])
        #expect(scanned.status == 0 && scanned.out.contains("[sealed]: an age file"), "\(scanned.out) \(scanned.stderr)")
        let locked = qrseal(["scan", agePNG, "--no-store"], environment: ["XDG_DATA_HOME": dir.path("empty")])
        #expect(locked.status == 0 && locked.out.contains("<not opened: 357 bytes, for a public key>"), "\(locked.out)")
    }

    @Test("keys add takes age-keygen's identity files; keys show prints the recipient and fingerprint")
    func ageKeygenFile() throws {
        let path = dir.path("friend.key")
        #expect(try Tools.run("age-keygen", ["-o", path]).status == 0)
        let recipient = try Tools.run("age-keygen", ["-y", path]).stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(run(["keys", "add", path]).status == 0)
        let shown = run(["keys", "show", "friend"])
        #expect(shown.out.hasPrefix(recipient + "\n"))
        #expect(shown.out.contains("fingerprint: \(try AgeRecipient(text: recipient).fingerprint)"))
        #expect(run(["keys", "list"]).out.contains(recipient))
        var info = stat()
        #expect(stat(dir.path("data/qrseal/keys/friend.key"), &info) == 0 && info.st_mode & 0o777 == 0o600)
    }

    @Test("keys list and contacts list print columns, a shared key's fingerprint in the form of a public key's")
    func listColumns() throws {
        #expect(run(["keygen", "-o", dir.path("k.key")]).status == 0)
        #expect(run(["keys", "add", dir.path("k.key"), "--name", "a"]).status == 0)
        let me = try identity("me.key")
        #expect(run(["keys", "add", me.path, "--name", "a-much-longer-name"]).status == 0)
        let keys = run(["keys", "list"]).out.split(separator: "\n").map(String.init)
        #expect(keys.count == 2)
        let columns = keys.map { $0.firstMatch(of: /\d{4} \d{4} \d{4} \d{4}/)?.range.lowerBound.utf16Offset(in: $0) }
        #expect(columns[0] != nil && columns[0] == columns[1], "\(keys)")
        #expect(keys.first { $0.hasPrefix("a-much-longer-name  ") }?.hasSuffix(me.recipient) == true, "\(keys)")
        #expect(run(["contacts", "add", "bo", me.recipient]).status == 0)
        let other = try identity("other.key")
        #expect(run(["contacts", "add", "somebody-else", other.recipient]).status == 0)
        let contacts = run(["contacts", "list"]).out.split(separator: "\n").map(String.init)
        let starts = contacts.map { $0.range(of: "age1")?.lowerBound.utf16Offset(in: $0) }
        #expect(contacts.count == 2 && starts[0] != nil && starts[0] == starts[1], "\(contacts)")
    }

    @Test("keys list --names and contacts list --names print the names alone, one a line, reading no key")
    func names() throws {
        let none = run(["keys", "list", "--names"])
        #expect(none.status == 1 && none.out.isEmpty && none.stderr.isEmpty)
        let me = try identity("me.key")
        #expect(run(["keys", "add", me.path, "--name", "me"]).status == 0)
        #expect(run(["keygen", "-o", dir.path("k.key")]).status == 0)
        #expect(run(["keys", "add", dir.path("k.key"), "--name", "shared.2"]).status == 0)
        // A damaged key stops the table, not the names.
        try "not a key\n".write(toFile: dir.path("data/qrseal/keys/broken.key"), atomically: false, encoding: .utf8)
        #expect(run(["keys", "list"]).status == 2)
        let keys = run(["keys", "list", "--names"])
        #expect(keys.status == 0 && keys.out == "broken\nme\nshared.2\n" && keys.stderr.isEmpty, "\(keys.out) \(keys.stderr)")
        #expect(run(["contacts", "list", "--names"]).status == 1)
        #expect(run(["contacts", "add", "zed", me.recipient]).status == 0)
        #expect(run(["contacts", "add", "amy", me.recipient]).status == 0)
        // A file put there by hand with a line feed in its name is still one line.
        try FileManager.default.copyItem(atPath: dir.path("data/qrseal/contacts/amy.txt"), toPath: dir.path("data/qrseal/contacts/two\nlines.txt"))
        #expect(run(["contacts", "list", "--names"]).out == "amy\ntwo\\nlines\nzed\n")
    }

    @Test("keys show on a shared key says it is one, with no public key, and does not call it invalid")
    func showSharedKey() throws {
        let path = dir.path("shared.key")
        #expect(run(["keygen", "-o", path]).status == 0)
        #expect(run(["keys", "add", path, "--name", "office"]).status == 0)
        let shown = run(["keys", "show", "office"])
        #expect(shown.status == 2 && shown.out.isEmpty)
        #expect(shown.stderr.hasPrefix("qrseal: error: 'office' is a shared key, which has no public key: only an identity has one"),
                "\(shown.stderr)")
        #expect(!shown.stderr.contains("not a valid"), "\(shown.stderr)")
        // It is still the keyring's, and opens what is sealed with it.
        #expect(run(["keys", "list"]).out.contains("office"))
    }

    @Test("a recipient code, scanned in either case, is its own inbox kind and becomes a contact with --from-inbox")
    func recipientCode() throws {
        let me = try identity("me.key")
        #expect(run(["keys", "add", me.path, "--name", "me"]).status == 0)
        let png = dir.path("me.png")
        let shown = run(["keys", "show", "me", "--qr", "-o", png])
        #expect(shown.status == 0, "\(shown.stderr)")
        let items = try Reader().detections(imageBytes: Array(try Data(contentsOf: URL(fileURLWithPath: png))))
        #expect(items.first.map { String(decoding: $0.bytes, as: UTF8.self) } == me.recipient.uppercased())
        let inbox = dir.path("inbox.sqlite")
        #expect(run(["scan", png, "--inbox", inbox]).status == 0)
        let listed = run(["inbox", "list", "--kind", "recipient", "--inbox", inbox])
        #expect(listed.out.contains("public key, fingerprint \(try AgeRecipient(text: me.recipient).fingerprint)"), "\(listed.out)")
        #expect(run(["contacts", "add", "myself", "--from-inbox", "1", "--inbox", inbox]).status == 0)
        #expect(run(["contacts", "show", "myself"]).out.hasPrefix(me.recipient))
        // Lower case, as typed or pasted, is the same recipient.
        #expect(ContentClassifier.classify(bytes: Array(me.recipient.utf8), text: me.recipient, symbology: "qr").kind == .recipient)
    }

    @Test("contacts refuse bad keys with the reason, never replace one, and rm removes")
    func contactErrors() throws {
        let me = try identity("me.key")
        var typo = Array(me.recipient)
        typo[10] = typo[10] == "q" ? "p" : "q"
        let bad = run(["contacts", "add", "x", String(typo)])
        #expect(bad.status == 2 && bad.stderr.contains("checksum mismatch"), "\(bad.stderr)")
        let mixed = run(["contacts", "add", "x", "age1" + me.recipient.dropFirst(4).uppercased()])
        #expect(mixed.stderr.contains("mixes upper and lower case"))
        let pq = run(["contacts", "add", "x", Bech32.encode(hrp: "age1pq", data: [UInt8](repeating: 2, count: 40))])
        #expect(pq.stderr.contains("unsupported recipient type age1pq"))
        #expect(run(["contacts", "add", "me", me.recipient]).status == 0)
        let again = run(["contacts", "add", "me", me.recipient])
        #expect(again.status == 2 && again.stderr.contains("already there"))
        #expect(run(["contacts", "rm", "me"]).status == 0)
        #expect(run(["contacts", "list"]).status == 1)
        let unknown = run(["encode", "--to", "nobody", "-o", dir.path("x.png"), "hi"])
        #expect(unknown.status == 2 && unknown.stderr.contains("no contact named 'nobody'"))
    }

    @Test("open FILE.age with a chunk altered writes nothing, names the input and exits 2")
    func streamingFailure() throws {
        let me = try identity("me.key")
        let plaintext = [UInt8](repeating: 0x41, count: 200_000)
        var file = try AgeFile.seal(plaintext, to: [try AgeRecipient(text: me.recipient)])
        file[file.count - 100] ^= 1
        let sealed = try dir.write("big.age", Data(file))
        let out = dir.path("out.bin")
        let opened = run(["open", sealed, "--identity", me.path, "-o", out, "--no-store"])
        #expect(opened.status == 2)
        #expect(opened.stderr.contains("\(sealed): damaged age file: payload"), "\(opened.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.url.path).allSatisfy { !$0.hasPrefix(".qrseal-") })
        // Standard output gets nothing either.
        let toStdout = run(["open", sealed, "--identity", me.path, "--no-store"])
        #expect(toStdout.status == 2 && toStdout.stdout.isEmpty)
    }

    @Test("a tampered age header is a MAC failure; pasted armor opens; --to with a key file is a usage error")
    func ageErrors() throws {
        let me = try identity("me.key")
        let recipient = try AgeRecipient(text: me.recipient)
        let file = try AgeFile.seal(Array("pasted".utf8), to: [recipient, try AgeIdentity.generate().recipient])
        let header = try AgeHeader(parsing: file)
        let swapped = AgeHeader.intro + header.stanzas[1].encoded + header.stanzas[0].encoded + Array(file[(header.macInput.count - 3)...])
        let tampered = try dir.write("t.age", Data(swapped))
        let mac = run(["open", tampered, "--identity", me.path, "--no-store"])
        #expect(mac.status == 2 && mac.stderr.contains("header MAC does not verify"), "\(mac.stderr)")
        let pasted = run(["open", "-", "--identity", me.path, "--no-store"], stdin: Data(("\n  " + AgeArmor.encode(file)).utf8))
        #expect(pasted.status == 0 && pasted.out == "pasted", "\(pasted.stderr)")
        let key = dir.newKey()
        let both = run(["encode", "--to", me.recipient, "--key-file", key, "-o", dir.path("y.png"), "x"])
        #expect(both.status == 64)
    }
}
