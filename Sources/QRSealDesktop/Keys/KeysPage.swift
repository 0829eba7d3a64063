import QRSealKit

/// The keys page: the keyring (key files and age identities, added or generated), the
/// contacts (public keys to seal to, pasted or scanned), and "my recipient code", an
/// identity's public key as a QR code for others to scan. Files are the CLI's own
/// (`qrseal keys`, `qrseal contacts`), read again after every change.
final class KeysPage {
    let root: Widget
    private let context: AppContext
    private let keyring: KeyringSection
    private let contacts: ContactsSection
    private let recipientCode: RecipientCodeSection

    init(context: AppContext) {
        self.context = context
        keyring = KeyringSection(context: context)
        contacts = ContactsSection(context: context)
        recipientCode = RecipientCodeSection(context: context)
        let column = Box(.vertical, spacing: 28)
        column.margins(top: 24, bottom: 24, start: 24, end: 24)
        column.append(keyring.root)
        column.append(contacts.root)
        let columns = Box(.horizontal, spacing: 24)
        column.expandsHorizontally = true
        columns.append(column)
        recipientCode.root.margins(top: 24, bottom: 24, start: 0, end: 24)
        columns.append(recipientCode.root)
        root = Scrolled(columns)
        context.onKeysChange { [weak self] in self?.reload() }
        reload()
    }

    private func reload() {
        keyring.reload()
        contacts.reload()
        recipientCode.reload()
    }
}

/// The line a list shows while it is empty.
func emptyListNote(_ text: String) -> Label {
    let label = Label(text, style: "dim-label")
    label.margins(12)
    return label
}

/// A section's heading and a line saying what it holds.
func sectionHeading(_ title: String, _ description: String, into box: Box) {
    let heading = Label(title, style: "title-4")
    heading.leftAligned()
    box.append(heading)
    let text = Label(description, style: "dim-label")
    text.leftAligned()
    text.wraps()
    box.append(text)
}

/// Asks before removing `what`; `remove` runs only when the user says so.
func confirmRemoval(parent: Widget, heading: String, body: String, remove: @escaping () -> Void) {
    let dialog = MessageDialog(parent: parent, heading: heading, body: body)
    dialog.add(response: "cancel", label: "_Cancel")
    dialog.add(response: "remove", label: "_Remove", appearance: .destructive)
    dialog.present(default: "cancel", close: "cancel") { response in
        if response == "remove" { remove() }
    }
}
