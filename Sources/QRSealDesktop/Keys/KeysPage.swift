import QRSealKit

/// The keys page: the keyring (key files and age identities, added or generated), the
/// contacts (public keys to seal to, pasted or scanned), and "my recipient code", an
/// identity's public key as a QR code for others to scan. Files are the CLI's own
/// (`qrseal keys`, `qrseal contacts`), read again after every change.
final class KeysPage {
    let root: Widget
    private let keyring: KeyringSection
    private let contacts: ContactsSection
    private let recipientCode: RecipientCodeSection

    init(context: AppContext) {
        keyring = KeyringSection(context: context)
        contacts = ContactsSection(context: context)
        recipientCode = RecipientCodeSection(context: context)
        let column = Box(.vertical, spacing: 28)
        column.margins(top: 24, bottom: 24, start: 24, end: 24)
        column.append(keyring.section.root)
        column.append(contacts.section.root)
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
