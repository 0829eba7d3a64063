import QRSealKit

/// How the composed message is sealed: not at all, with a passphrase (typed twice), with a
/// key from the keyring, or to one or more contacts.
final class SealChooser {
    enum Mode: Equatable { case none, passphrase, key, contacts }

    /// What the choice gives the encoder now. A passphrase is not read until the message is
    /// saved, copied or shown (`takePassphrase`): the preview does not run scrypt per keystroke.
    enum Choice {
        case plain
        case passphraseLater
        case key(SealKey)
        /// Not yet usable: what is missing ("choose a contact").
        case incomplete(String)
    }

    let root = Box(.vertical, spacing: 8)
    private(set) var mode: Mode = .none
    /// Called when the choice changes (a mode, a key, a contact ticked).
    var changed: () -> Void = {}

    private let context: AppContext
    private let noneButton = CheckButton("_None: a plain code anyone can read", active: true)
    private let passphraseButton = CheckButton("_Passphrase")
    private let keyButton = CheckButton("_Key from the keyring")
    private let contactsButton = CheckButton("_Contacts")
    private let passphraseBox = Box(.vertical, spacing: 6)
    let passphrase = PasswordEntry(name: "Passphrase")
    let confirmation = PasswordEntry(name: "Passphrase again")
    private let mismatch = Label("", style: "error")
    private let keyBox = Box(.vertical, spacing: 6)
    private let keyList: DropDown
    private let keyNote = Label("", style: "dim-label")
    private var keyEntries: [Keyring.Entry] = []
    private let contactsBox = Box(.vertical, spacing: 4)
    private let contactChecks = Box(.vertical, spacing: 2)
    private let contactsNote = Label("", style: "dim-label")
    private var contactEntries: [(Contacts.Entry, CheckButton)] = []

    init(context: AppContext) {
        self.context = context
        keyList = DropDown([], name: "Key from the keyring", changed: { _ in })
        let heading = Label("Seal", style: "heading")
        heading.leftAligned()
        root.append(heading)
        for button in [passphraseButton, keyButton, contactsButton] { button.group(with: noneButton) }
        root.append(noneButton)
        root.append(passphraseButton)
        passphraseBox.margins(top: 0, bottom: 4, start: 28, end: 0)
        passphraseBox.append(passphrase)
        passphraseBox.append(confirmation)
        mismatch.leftAligned()
        passphraseBox.append(mismatch)
        root.append(passphraseBox)
        root.append(keyButton)
        keyBox.margins(top: 0, bottom: 4, start: 28, end: 0)
        keyBox.append(keyList)
        keyNote.leftAligned()
        keyNote.wraps()
        keyBox.append(keyNote)
        root.append(keyBox)
        root.append(contactsButton)
        contactsBox.margins(top: 0, bottom: 4, start: 28, end: 0)
        contactsBox.append(contactChecks)
        contactsNote.leftAligned()
        contactsNote.wraps()
        contactsBox.append(contactsNote)
        root.append(contactsBox)

        noneButton.on("toggled") { [unowned self] in self.modeToggled() }
        passphraseButton.on("toggled") { [unowned self] in self.modeToggled() }
        keyButton.on("toggled") { [unowned self] in self.modeToggled() }
        contactsButton.on("toggled") { [unowned self] in self.modeToggled() }
        keyList.onPointer("notify::selected", { [unowned self] _ in self.keyChosen() })
        passphrase.onChange { [unowned self] in self.checkMatch() }
        confirmation.onChange { [unowned self] in self.checkMatch() }
        reload()
        showMode()
    }

    /// Reads the keyring and the contacts again (the keys page changed them).
    func reload() {
        let chosen = keyList.selected < keyEntries.count ? keyEntries[keyList.selected].name : nil
        keyEntries = (try? context.files.keyring().list()) ?? []
        keyList.replace(items: keyEntries.map { entry in
            "\(entry.name) (\(entry.recipient == nil ? "key file" : "identity"))"
        })
        // The key chosen stays chosen when others are added or removed.
        if let index = keyEntries.firstIndex(where: { $0.name == chosen }) { keyList.selected = index }
        keyList.isSensitive = !keyEntries.isEmpty
        keyChosen()
        let ticked = Set(contactEntries.filter { $0.1.isActive }.map { $0.0.name })
        contactChecks.removeAll()
        contactEntries = ((try? context.files.contacts().list()) ?? []).map { entry in
            let check = CheckButton(entry.name, active: ticked.contains(entry.name))
            check.tooltip = "\(entry.recipient.text), fingerprint \(entry.recipient.fingerprint)"
            check.on("toggled") { [unowned self] in self.changed() }
            contactChecks.append(check)
            return (entry, check)
        }
        contactsNote.text = contactEntries.isEmpty ? "No contacts yet: add one on the Keys page." : ""
        contactsNote.isVisible = contactEntries.isEmpty
    }

    /// The choice as it stands.
    var choice: Choice {
        switch mode {
        case .none: return .plain
        case .passphrase: return .passphraseLater
        case .key:
            guard keyList.selected < keyEntries.count else { return .incomplete("the keyring is empty: add a key on the Keys page") }
            let entry = keyEntries[keyList.selected]
            if let recipient = entry.recipient { return .key(.recipients([recipient])) }
            guard let key = try? context.files.keyring().keys(named: entry.name).first else {
                return .incomplete("key '\(entry.name)' cannot be read")
            }
            return .key(key)
        case .contacts:
            let recipients = contactEntries.filter { $0.1.isActive }.map { $0.0.recipient }
            guard !recipients.isEmpty else { return .incomplete("tick one or more contacts") }
            return .key(.recipients(recipients))
        }
    }

    /// The passphrase typed twice, and the entries emptied; or what is wrong with it.
    func takePassphrase() -> Result<String, PassphraseProblem> {
        quiet = true
        defer {
            passphrase.clear()
            confirmation.clear()
            quiet = false
        }
        guard !passphrase.isEmpty else { return .failure(.empty) }
        guard passphrase.matches(confirmation) else { return .failure(.mismatch) }
        return .success(String(decoding: passphrase.take(), as: UTF8.self))
    }

    enum PassphraseProblem: Error {
        case empty, mismatch

        var description: String {
            switch self {
            case .empty: return "type a passphrase twice to seal with it"
            case .mismatch: return "the two passphrases differ: type them again"
            }
        }
    }

    /// A short phrase for the sheet and the status line.
    var summary: String {
        switch mode {
        case .none: return "plain"
        case .passphrase: return "sealed with a passphrase"
        case .key:
            guard keyList.selected < keyEntries.count else { return "sealed with a key" }
            let entry = keyEntries[keyList.selected]
            return entry.recipient == nil ? "sealed with key '\(entry.name)'" : "sealed to identity '\(entry.name)'"
        case .contacts:
            let names = contactEntries.filter { $0.1.isActive }.map { $0.0.name }
            return "sealed to " + (names.isEmpty ? "contacts" : names.joined(separator: ", "))
        }
    }

    private func modeToggled() {
        let now: Mode = passphraseButton.isActive ? .passphrase : keyButton.isActive ? .key
            : contactsButton.isActive ? .contacts : .none
        guard now != mode else { return }
        mode = now
        if mode != .passphrase {
            passphrase.clear()
            confirmation.clear()
        }
        showMode()
        changed()
    }

    private func showMode() {
        passphraseBox.isVisible = mode == .passphrase
        keyBox.isVisible = mode == .key
        contactsBox.isVisible = mode == .contacts
        checkMatch()
    }

    private func keyChosen() {
        if keyEntries.isEmpty {
            keyNote.text = "The keyring is empty: add or generate a key on the Keys page."
        } else {
            let entry = keyEntries[min(keyList.selected, keyEntries.count - 1)]
            keyNote.text = entry.recipient == nil
                ? "Key file, fingerprint \(entry.fingerprint): whoever holds this key opens it."
                : "Identity: sealed to its public key \(entry.fingerprint); its holder opens it."
        }
        if mode == .key { changed() }
    }

    private func checkMatch() {
        let differs = !confirmation.isEmpty && !passphrase.matches(confirmation)
        mismatch.text = differs ? "The passphrases differ." : ""
        mismatch.isVisible = differs
        if mode == .passphrase && !quiet { changed() }
    }

    /// Set while the entries are emptied after use: that is no new choice.
    private var quiet = false
}
