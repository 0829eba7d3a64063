import FoundationEssentials
import Glibc
import QRSealKit

/// What can be done with a thing read, by its kind: copy it; open a link once it has been
/// shown; save a contact or an event as a file; save a file a message carried; keep a text;
/// open a sealed message with a passphrase (the keyring's keys were tried already); add an
/// age recipient to the contacts.
struct ScanActions {
    /// What the scan page does after the dialog, with the intake it owns.
    enum Follow {
        case unlock(String)
        case keep
    }

    let item: FoundItem
    let context: AppContext
    let parent: Widget
    let follow: (Follow) -> Void

    init(item: FoundItem, context: AppContext, parent: Widget, follow: @escaping (Follow) -> Void) {
        self.item = item
        self.context = context
        self.parent = parent
        self.follow = follow
    }

    func present() {
        let summary = item.summary
        let body: String
        var selectable: String?
        switch item.content {
        case .locked(let kind, let size):
            body = "A sealed message of \(size) bytes, for a \(kind.description). The keyring's keys do not open it."
        case .failed(let error):
            body = "This sealed message cannot be opened: \(error.description)."
        case .opened(.file(let name, let bytes)):
            body = "A file, \(name.isEmpty ? "unnamed" : DisplayText.escape(name)), of \(bytes.count) bytes."
        default:
            body = item.format
            selectable = DisplayText.escapeKeepingLines(item.text ?? "\(ItemText.name(summary.kind)): not text")
        }
        let dialog = MessageDialog(parent: parent, heading: item.title, body: body)
        if let selectable {
            // What was read, to select and copy any part of it.
            let label = Label(selectable)
            label.wraps()
            label.selectable()
            label.leftAligned()
            label.accessibleName = "Content"
            let scrolled = Scrolled(label)
            scrolled.minimumSize(width: 360, height: min(240, 24 * (selectable.count / 40 + 1)))
            dialog.set(extra: scrolled)
        }
        var actions: [(String, String, MessageDialog.Appearance)] = []
        if item.text != nil { actions.append(("copy", "_Copy", .normal)) }
        switch item.content {
        case .locked(.passphrase, _): actions.append(("unlock", "_Open with passphrase…", .suggested))
        case .opened(.file): actions.append(("savefile", "_Save file…", .suggested))
        default: break
        }
        if case .plain = item.content {
            switch summary.kind {
            case .url: actions.append(("open", "_Open link", .suggested))
            case .contact: actions.append(("save", "_Save contact…", .suggested))
            case .event: actions.append(("save", "_Save event…", .suggested))
            case .recipient: actions.append(("contact", "_Add to contacts…", .suggested))
            case .wifi:
                actions.append(("join", "_Join network", .suggested))
                if summary.value("password") != nil { actions.append(("password", "Copy _password", .normal)) }
            default: break
            }
            if case .text = item.subject, item.outcome?.kept == nil { actions.append(("keep", "_Keep in inbox", .normal)) }
        }
        actions.append(("close", "_Close", .normal))
        for (id, label, appearance) in actions { dialog.add(response: id, label: label, appearance: appearance) }
        dialog.present(default: actions.first { $0.2 == .suggested }?.0 ?? "close") { response in
            self.respond(response, summary: summary)
        }
    }

    private func respond(_ response: String, summary: ContentSummary) {
        switch response {
        case "copy":
            parent.clipboard.set(text: item.text ?? "")
            context.toast("Copied")
        case "password":
            parent.clipboard.set(text: summary.value("password") ?? "")
            context.toast("Password copied")
        case "open":
            guard let link = item.text?.trimmingWhitespace() else { return }
            if let failure = Desktop.open(uri: link) { context.toast("Cannot open the link: " + failure) }
        case "unlock":
            PassphraseDialog.ask(parent: parent) { follow(.unlock($0)) }
        case "join":
            guard let ssid = summary.value("ssid") else { return context.toast("The code names no network") }
            let network = NetworkManager.Network(ssid: ssid, security: summary.value("security"),
                                                 password: summary.value("password"), hidden: summary.value("hidden") == "yes")
            NetworkManager.join(network) { [context] failure in
                context.toast(failure.map { "Cannot join \(DisplayText.escape(ssid)): \($0)" } ?? "Joining \(DisplayText.escape(ssid))…")
            }
        case "keep":
            follow(.keep)
        case "save":
            let ext = summary.kind == .event ? "ics" : "vcf"
            save(Array((item.text ?? "").utf8), suggested: (summary.kind == .event ? "event." : "contact.") + ext)
        case "savefile":
            if case .opened(.file(let name, let bytes)) = item.content {
                save(bytes, suggested: name.isEmpty ? "received" : SystemFiles.lastComponent(of: name))
            }
        case "contact":
            addContact()
        default:
            break
        }
    }

    /// Writes bytes where the user chooses (mode 0600, off the main thread); the chooser asks
    /// before replacing a file, and the file appears whole or not at all.
    private func save(_ bytes: [UInt8], suggested: String) {
        FileChooser.ask(.save(suggested: suggested), title: "Save", parent: parent, accept: "_Save") { [context] path in
            guard let path else { return }
            Worker.run({ PrivateFile.write(bytes, to: path) }, then: { failure in
                let name = DisplayText.escape(SystemFiles.lastComponent(of: path))
                context.toast(failure.map { "Cannot write \(name): \($0)" } ?? "Saved \(name)")
            })
        }
    }

    private func addContact() {
        guard let text = item.text?.trimmingWhitespace() else { return }
        let dialog = MessageDialog(parent: parent, heading: "Add contact", body: "A name for \(DisplayText.escape(text.prefix(24)))…")
        let entry = Entry(placeholder: "Contact name")
        dialog.set(extra: entry)
        dialog.add(response: "cancel", label: "_Cancel")
        dialog.add(response: "add", label: "_Add", appearance: .suggested)
        dialog.present(default: "add", close: "cancel") { [context] response in
            guard response == "add" else { return }
            do {
                let recipient = try AgeRecipient(text: text)
                try context.files.contacts().add(recipient, name: entry.text)
                context.toast("Contact \(DisplayText.escape(entry.text)) added")
            } catch {
                context.toast("Cannot add the contact: \(error)")
            }
        }
    }
}
