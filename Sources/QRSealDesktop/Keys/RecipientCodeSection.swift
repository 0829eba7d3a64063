import QRSealKit

/// "My recipient code": an identity's public key as a QR code (as `qrseal keys show --qr`
/// draws it) and as text, to show or copy to whoever will seal to you.
final class RecipientCodeSection {
    let root = Box(.vertical, spacing: 10)
    private let context: AppContext
    private let identities = DropDown([], name: "Identity to show", changed: { _ in })
    private let picture = Picture(name: "My recipient code")
    private let text = Label("")
    private let fingerprint = Label("", style: "dim-label")
    private let copyText = Button("Copy _key")
    private let copyImage = Button("Copy _image")
    private var entries: [Keyring.Entry] = []
    private var shown: AgeRecipient?

    init(context: AppContext) {
        self.context = context
        root.minimumSize(width: 340)
        let heading = Label("My recipient code", style: "title-4")
        heading.leftAligned()
        root.append(heading)
        let about = Label("Show this to someone who will seal messages to you: they scan it and add you as a contact.",
                          style: "dim-label")
        about.leftAligned()
        about.wraps()
        root.append(about)
        root.append(identities)
        picture.minimumSize(width: 300, height: 300)
        root.append(picture)
        text.wraps()
        text.breaksWithoutHyphens()
        text.addStyle("monospace")
        text.selectable()
        text.leftAligned()
        text.accessibleName = "My public key"
        root.append(text)
        fingerprint.accessibleName = "Fingerprint"
        fingerprint.leftAligned()
        root.append(fingerprint)
        let buttons = Box(.horizontal, spacing: 6)
        buttons.append(copyText)
        buttons.append(copyImage)
        root.append(buttons)
        identities.onPointer("notify::selected", { [unowned self] _ in self.showSelected() })
        copyText.on("clicked") { [unowned self] in
            guard let shown = self.shown else { return }
            self.root.clipboard.set(text: shown.text)
            self.context.toast("Copied the public key")
        }
        copyImage.on("clicked") { [unowned self] in
            guard let texture = self.picture.texture else { return }
            self.root.clipboard.set(texture: texture)
            self.context.toast("Copied the recipient code")
        }
    }

    func reload() {
        let previous = shown
        entries = ((try? context.files.keyring().list()) ?? []).filter { $0.recipient != nil }
        identities.replace(items: entries.map(\.name))
        if let previous, let index = entries.firstIndex(where: { $0.recipient == previous }) { identities.selected = index }
        identities.isSensitive = !entries.isEmpty
        showSelected()
    }

    private func showSelected() {
        let index = identities.selected
        guard index >= 0, index < entries.count, let recipient = entries[index].recipient,
              let matrix = try? recipient.qrMatrix() else {
            shown = nil
            picture.show(nil)
            text.text = "No identity yet: generate an age identity in the keyring."
            fingerprint.text = ""
            copyText.isSensitive = false
            copyImage.isSensitive = false
            return
        }
        shown = recipient
        picture.show(CodePixels(matrix, scale: 8).texture())
        text.text = recipient.text
        fingerprint.text = "Fingerprint: \(recipient.fingerprint)"
        copyText.isSensitive = true
        copyImage.isSensitive = true
    }
}
