import FoundationEssentials
import Glibc
import QRSealKit

/// The keyring: its keys (name, kind, fingerprint), removing one after asking, adding a
/// key file or identity file, and generating a new key (`qrseal keys add`, `keygen`).
final class KeyringSection {
    let section = ListedSection(title: "Keyring",
                                description: "Keys that open sealed messages: key files and age identities, the same as "
                                    + "'qrseal keys'. An identity's public key is what others seal to.",
                                listName: "Keyring", empty: "No keys yet: generate one or add a key file.")
    private let context: AppContext
    private let name = Entry(placeholder: "Name of the new key")
    private let kind = DropDown(["Age identity (X25519)", "Key file (QRSEAL-KEY-1)"], name: "Kind of key", changed: { _ in })
    private let generate = Button("_Generate", style: "suggested-action")
    private let addFile = Button("_Add a key file…")

    init(context: AppContext) {
        self.context = context
        let row = Box(.horizontal, spacing: 6)
        name.expandsHorizontally = true
        row.append(name)
        row.append(kind)
        row.append(generate)
        addFile.align(horizontal: .start)
        section.finish(with: [row, addFile])
        generate.on("clicked") { [unowned self] in self.generateKey() }
        name.onActivate { [unowned self] in self.generateKey() }
        addFile.on("clicked") { [unowned self] in self.chooseFile() }
    }

    func reload() {
        let entries: [Keyring.Entry]
        do { entries = try context.files.keyring().list() } catch {
            return say("the keyring cannot be read: \(error)")
        }
        section.show(entries.map { entry in
            ListedSection.Item(name: entry.name,
                               subtitle: "\(entry.recipient == nil ? "key file" : "identity") · \(entry.fingerprint)",
                               icon: entry.recipient == nil ? "dialog-password-symbolic" : "avatar-default-symbolic",
                               kind: "key",
                               consequence: "Messages sealed for this key cannot be opened without it. The key file is deleted.")
        }, remove: { [unowned self] name in self.remove(name) })
    }

    private func say(_ text: String) { section.say(text) }

    private var now: String { Timestamp.iso8601(Int64(Date().timeIntervalSince1970 * 1000)) }

    private func generateKey() {
        let chosen = name.text.trimmingSpaces()
        guard !chosen.isEmpty else {
            say("Type a name for the new key first.")
            return name.grabFocus()
        }
        guard Keyring.isUsableName(chosen) else {
            return say("'\(chosen)' cannot name a key: use letters, digits, '-', '_' and '.', starting with a letter or digit.")
        }
        let keyring: Keyring
        do { keyring = try context.files.keyring() } catch { return say("The keyring cannot be found: \(error)") }
        do {
            let added = try keyring.generate(identity: kind.selected == 0, name: chosen, created: now)
            say("")
            name.text = ""
            context.keysChanged()
            switch added {
            case .identity(let name, let recipient):
                context.toast("Generated identity \(name), fingerprint \(recipient.fingerprint)")
            case .key(let name, let fingerprint):
                context.toast("Generated key \(name), fingerprint \(fingerprint)")
            }
        } catch {
            say(error.description)
        }
    }

    private func chooseFile() {
        FileChooser.ask(.open, title: "Add a key file or identity file", parent: section.root, accept: "_Add") { [weak self] path in
            guard let self, let path else { return }
            self.add(path)
        }
    }

    /// Adds the key file or identity file at `path`, named as `qrseal keys add` names it.
    private func add(_ path: String) {
        let file = SystemFiles.lastComponent(of: path)
        let keys: [SealKey]
        do {
            let bytes = try SystemFiles.read(path, limit: 64 << 10)
            keys = try Keyring.parse(String(decoding: bytes, as: UTF8.self))
        } catch let error as SystemFiles.Failure {
            return say("\(file): \(error.description)")
        } catch let error as SealError {
            return say("\(file): \(error.description)")
        } catch {
            return say("\(file): \(error)")
        }
        let chosen = name.text.trimmingSpaces()
        do {
            let added = try context.files.keyring().add(keys, name: chosen.isEmpty ? nil : chosen, path: path, created: now)
            say("")
            name.text = ""
            context.keysChanged()
            context.toast("Added \(added.name) to the keyring")
        } catch let error as Keyring.Failure {
            say(error.description)
        } catch {
            say("The keyring cannot be found: \(error)")
        }
    }

    private func remove(_ name: String) {
        do {
            try context.files.keyring().remove(name)
            context.keysChanged()
            context.toast("Removed key \(name)")
        } catch {
            say("\(error)")
        }
    }
}
