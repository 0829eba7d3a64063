import Foundation
import QRSealKit

/// The keyring: its keys (name, kind, fingerprint), removing one after asking, adding a
/// key file or identity file, and generating a new key (`qrseal keys add`, `keygen`).
final class KeyringSection {
    let root = Box(.vertical, spacing: 10)
    private let context: AppContext
    private let list = ListBox(name: "Keyring")
    private let name = Entry(placeholder: "Name of the new key")
    private let kind = DropDown(["Age identity (X25519)", "Key file (QRSEAL-KEY-1)"], name: "Kind of key", changed: { _ in })
    private let generate = Button("_Generate", style: "suggested-action")
    private let addFile = Button("_Add a key file…")
    private let problem = Label("", style: "error")

    init(context: AppContext) {
        self.context = context
        sectionHeading("Keyring", "Keys that open sealed messages: key files and age identities, "
                       + "the same as 'qrseal keys'. An identity's public key is what others seal to.", into: root)
        list.set(placeholder: emptyListNote("No keys yet: generate one or add a key file."))
        root.append(list)
        let row = Box(.horizontal, spacing: 6)
        name.expandsHorizontally = true
        row.append(name)
        row.append(kind)
        row.append(generate)
        root.append(row)
        root.append(addFile)
        addFile.align(horizontal: .start)
        problem.leftAligned()
        problem.wraps()
        problem.isVisible = false
        root.append(problem)
        generate.on("clicked") { [unowned self] in self.generateKey() }
        name.onActivate { [unowned self] in self.generateKey() }
        addFile.on("clicked") { [unowned self] in self.chooseFile() }
    }

    func reload() {
        say("")
        list.removeAll()
        let entries: [Keyring.Entry]
        do { entries = try context.files.keyring().list() } catch {
            return say("The keyring cannot be read: \(error)")
        }
        for entry in entries {
            let kindText = entry.recipient == nil ? "key file" : "identity"
            let row = Row(title: entry.name, subtitle: "\(kindText) · \(entry.fingerprint)",
                          icon: entry.recipient == nil ? "dialog-password-symbolic" : "avatar-default-symbolic")
            let remove = Button(icon: "user-trash-symbolic", name: "Remove key \(entry.name)") { [unowned self] in
                self.remove(entry.name)
            }
            remove.addStyle("flat")
            remove.align(vertical: .center)
            row.addSuffix(remove)
            list.append(row)
        }
    }

    private func say(_ text: String) {
        problem.text = text
        problem.isVisible = !text.isEmpty
    }

    private var now: String { Timestamp.iso8601(Int64(Date().timeIntervalSince1970 * 1000)) }

    private func generateKey() {
        let chosen = name.text.trimmingCharacters(in: .whitespaces)
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
            say(error.description.prefix(1).uppercased() + error.description.dropFirst())
        }
    }

    private func chooseFile() {
        FileChooser.ask(.open, title: "Add a key file or identity file", parent: root, accept: "_Add") { [weak self] path in
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
        let chosen = name.text.trimmingCharacters(in: .whitespaces)
        do {
            let added = try context.files.keyring().add(keys, name: chosen.isEmpty ? nil : chosen, path: path, created: now)
            say("")
            name.text = ""
            context.keysChanged()
            context.toast("Added \(added.name) to the keyring")
        } catch let error as Keyring.Failure {
            say(error.description.prefix(1).uppercased() + error.description.dropFirst())
        } catch {
            say("The keyring cannot be found: \(error)")
        }
    }

    private func remove(_ name: String) {
        confirmRemoval(parent: root, heading: "Remove key \(name)?",
                       body: "Messages sealed for this key cannot be opened without it. The key file is deleted.") { [weak self] in
            guard let self else { return }
            do {
                try self.context.files.keyring().remove(name)
                self.context.keysChanged()
                self.context.toast("Removed key \(name)")
            } catch {
                self.say("\(error)")
            }
        }
    }
}
