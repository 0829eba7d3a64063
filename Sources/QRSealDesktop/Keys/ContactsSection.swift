import FoundationEssentials
import Dispatch
import Glibc
import QRSealKit

/// The contacts: people's public keys (`age1…`) by name, as `qrseal contacts` keeps them;
/// added by pasting a key, by scanning someone's recipient code on the scan page, or from
/// a picture of that code.
final class ContactsSection {
    let section = ListedSection(title: "Contacts",
                                description: "People you seal to: their public keys (age1…), as 'qrseal contacts' keeps "
                                    + "them. Ask them for their recipient code, and scan it or paste its text.",
                                listName: "Contacts", empty: "No contacts yet.")
    private let context: AppContext
    private let name = Entry(placeholder: "Contact's name")
    private let key = Entry(placeholder: "Public key (age1…)")
    private let add = Button("Add _contact", style: "suggested-action")
    private let scan = Button("_Scan their code…")
    private let fromImage = Button("From an _image of their code…")

    init(context: AppContext) {
        self.context = context
        let row = Box(.horizontal, spacing: 6)
        name.minimumSize(width: 160)
        key.expandsHorizontally = true
        row.append(name)
        row.append(key)
        row.append(add)
        let others = Box(.horizontal, spacing: 6)
        others.append(scan)
        others.append(fromImage)
        section.finish(with: [row, others])
        add.on("clicked") { [unowned self] in self.addContact() }
        key.onActivate { [unowned self] in self.addContact() }
        scan.on("clicked") { [unowned self] in self.scanCode() }
        fromImage.on("clicked") { [unowned self] in self.chooseImage() }
    }

    func reload() {
        let entries: [Contacts.Entry]
        do { entries = try context.files.contacts().list() } catch {
            return say("the contacts cannot be read: \(error)")
        }
        section.show(entries.map { entry in
            ListedSection.Item(name: entry.name, subtitle: "\(entry.recipient.fingerprint) · \(entry.recipient.text)",
                               icon: "contact-new-symbolic", kind: "contact",
                               consequence: "You can add them again from their recipient code.")
        }, remove: { [unowned self] name in self.remove(name) })
    }

    private func say(_ text: String) { section.say(text) }

    /// Checks the name and the key, then keeps the contact.
    private func addContact() {
        let chosen = name.text.trimmingSpaces()
        let text = key.text.trimmingWhitespace()
        guard !chosen.isEmpty else {
            say("Type the contact's name first.")
            return name.grabFocus()
        }
        guard Keyring.isUsableName(chosen) else {
            return say("'\(chosen)' cannot name a contact: use letters, digits, '-', '_' and '.', starting with a letter or digit.")
        }
        guard !text.isEmpty else {
            say("Paste the contact's public key (age1…), or scan their code.")
            return key.grabFocus()
        }
        let recipient: AgeRecipient
        do { recipient = try AgeRecipient(text: text) } catch {
            say("This is not a public key (\(error.description)). A public key looks like age1 followed by 58 letters and digits.")
            return key.grabFocus()
        }
        do {
            try context.files.contacts().add(recipient, name: chosen)
        } catch let error as Contacts.Failure {
            return say(error.description)
        } catch {
            return say("The contacts cannot be found: \(error)")
        }
        say("")
        name.text = ""
        key.text = ""
        context.keysChanged()
        context.toast("Added contact \(chosen), fingerprint \(recipient.fingerprint)")
    }

    /// Goes to the scan page; the first recipient code read there comes back here.
    private func scanCode() {
        context.recipientScanned = { [weak self] text in
            guard let self else { return }
            self.context.recipientScanned = nil
            self.context.showPage("keys")
            self.read(text)
        }
        context.showPage("scan")
        context.toast("Show the recipient code to the camera")
    }

    /// Puts a public key read from a code in the key field, for the user to name and add.
    private func read(_ text: String) {
        key.text = text.trimmingWhitespace().lowercased()
        say("")
        name.grabFocus()
        context.toast("Read a public key: name the contact and add it")
    }

    /// Reads a picture of a recipient code (a PNG, JPEG or PNM file) on a worker.
    private func chooseImage() {
        FileChooser.ask(.open, title: "Choose a picture of their recipient code", parent: section.root,
                        accept: "_Open") { [weak self] path in
            guard let self, let path else { return }
            let back = MainThreadReturn(self)
            DispatchQueue.global(qos: .userInitiated).async {
                let found = Self.recipient(inImageAt: path)
                back.post { section in
                    switch found {
                    case .success(let text): section.read(text)
                    case .failure(let problem): section.say("\(SystemFiles.lastComponent(of: path)): \(problem.text)")
                    }
                }
            }
        }
    }

    struct Problem: Error { let text: String }

    /// The first code in the image that holds a public key (`age1…`, any case).
    private static func recipient(inImageAt path: String) -> Result<String, Problem> {
        let detections: [Detection]
        do {
            let bytes = try SystemFiles.read(path, limit: 64 << 20)
            detections = try Reader().detections(imageBytes: bytes)
        } catch let error as SystemFiles.Failure {
            return .failure(Problem(text: error.description))
        } catch let error as RasterError {
            return .failure(Problem(text: error.description))
        } catch {
            return .failure(Problem(text: "\(error)"))
        }
        for detection in detections {
            let text = (detection.text ?? "").trimmingWhitespace()
            if (try? AgeRecipient(text: text.lowercased())) != nil { return .success(text) }
        }
        return .failure(Problem(text: detections.isEmpty ? "no code found in the picture"
                                    : "no public key (age1…) in the \(detections.count == 1 ? "code" : "codes") found"))
    }

    private func remove(_ name: String) {
        do {
            try context.files.contacts().remove(name)
            context.keysChanged()
            context.toast("Removed contact \(name)")
        } catch {
            say("\(error)")
        }
    }
}
