import QRSealKit

/// What the detail's buttons do to the selected item: copy, open a link (shown first), save
/// a carried file, unlock a sealed one (keyring first, then a passphrase; opened in memory,
/// never stored), label, pin, and delete with undo.
///
/// Delete takes the item out of the inbox at once and keeps it in memory while the toast
/// shows; Undo puts it back (same content, time, source, label and pin; a new id). So the
/// inbox is always what the list shows, even when the app is closed while the toast is up.
final class ItemActions {
    private unowned let page: InboxPage
    private var context: AppContext { page.context }

    init(page: InboxPage) { self.page = page }

    func run(_ action: ItemDetail.Action) {
        guard let item = page.selected, let id = item.id else { return }
        switch action {
        case .copy: copy(item)
        case .open: open(item)
        case .save: save(item)
        case .unlock: unlock(item, keys: context.keyringKeys(), askedBefore: false)
        case .label: label(item, id: id)
        case .pin:
            let pinned = !item.pinned
            change({ inbox throws(InboxError) in try inbox.setPinned(pinned, for: id) }) { [unowned self] in
                self.context.toast(pinned ? "Pinned" : "Unpinned")
            }
        case .delete: delete(item, id: id)
        }
    }

    // MARK: Content

    private func copy(_ item: InboxItem) {
        let text: String
        switch page.openedContent {
        case .opened(.text(let opened))?: text = opened
        default: text = item.kind == .binary ? NumberText.hex(item.bytes) : item.text ?? ""
        }
        page.root.clipboard.set(text: text)
        context.toast("Copied")
    }

    /// Shows the address first (escaped: what is hidden in it shows), then hands it to the desktop.
    private func open(_ item: InboxItem) {
        guard let uri = ItemText.uri(item) else { return }
        let dialog = MessageDialog(parent: page.root, heading: "Open This Link?", body: DisplayText.escape(uri))
        dialog.add(response: "cancel", label: "_Cancel")
        dialog.add(response: "open", label: "_Open", appearance: .suggested)
        dialog.present(default: "cancel", close: "cancel") { [weak self] response in
            guard response == "open", let self else { return }
            if let reason = Desktop.open(uri: uri) { self.context.toast("Cannot open the link: \(reason)") }
        }
    }

    /// Saves the file the item carries (a file rebuilt from parts, or one opened from a seal).
    private func save(_ item: InboxItem) {
        let name: String, bytes: [UInt8]
        if case .opened(.file(let opened, let content))? = page.openedContent {
            (name, bytes) = (opened, content)
        } else if let carried = item.fileName {
            (name, bytes) = (carried, item.bytes)
        } else {
            return
        }
        let suggested = SystemFiles.lastComponent(of: name)
        FileChooser.ask(.save(suggested: suggested.isEmpty ? "received" : suggested), title: "Save the File",
                        parent: page.root, accept: "_Save") { [weak self] path in
            guard let path else { return }
            Worker.run({ PrivateFile.write(bytes, to: path) }, then: { failure in
                guard let self else { return }
                self.context.toast(failure.map { "Cannot save the file: \($0)" }
                                   ?? "Saved \(DisplayText.escape(SystemFiles.lastComponent(of: path)))")
            })
        }
    }

    // MARK: Sealed items

    /// Opens `item` with `keys` on a worker (scrypt takes a moment); asks for a passphrase when
    /// one is what it needs. The opened content is shown, never written to the inbox.
    private func unlock(_ item: InboxItem, keys: [SealKey], askedBefore: Bool) {
        page.detail.opening(true)
        Worker.run({ Intake(reader: Reader(keys: keys), keeping: .nothing).content(of: item) }, then: { [weak self] content in
            guard let self else { return }
            self.page.detail.opening(false)
            switch content {
            case .locked(.passphrase, _):
                self.askPassphrase(item, again: nil)
            case .failed(let error) where askedBefore:
                self.askPassphrase(item, again: error)
            case .locked(let kind, _):
                self.context.toast("Sealed with a \(kind) that is not in your keyring: add it on the Keys page")
            default:
                self.page.showOpened(content, of: item)
            }
        })
    }

    private func askPassphrase(_ item: InboxItem, again problem: SealError?) {
        PassphraseDialog.ask(parent: page.root, problem: problem) { [weak self] passphrase in
            self?.unlock(item, keys: [.passphrase(passphrase)], askedBefore: true)
        }
    }

    // MARK: Changes

    private func label(_ item: InboxItem, id: Int64) {
        let dialog = MessageDialog(parent: page.root, heading: "Label",
                                   body: "A label names the item in the list, and search finds it. Empty: no label.")
        let entry = Entry(placeholder: "Label")
        entry.text = item.label ?? ""
        dialog.set(extra: entry)
        dialog.add(response: "cancel", label: "_Cancel")
        dialog.add(response: "save", label: "_Save", appearance: .suggested)
        entry.onActivate { [weak dialog] in dialog?.respond("save") }
        dialog.present(default: "save", close: "cancel") { [weak self] response in
            guard response == "save", let self else { return }
            let text = entry.text
            self.change({ inbox throws(InboxError) in try inbox.setLabel(text.isEmpty ? nil : text, for: id) }) {}
        }
    }

    private func delete(_ item: InboxItem, id: Int64) {
        page.removeFromList(item)
        let title = ItemText.shortened(ItemText.title(item))
        change({ inbox throws(InboxError) in _ = try inbox.remove([id]) }) { [unowned self] in
            let shown = title.count > 40 ? String(title.prefix(39)) + "…" : title
            self.context.toasts.show("Deleted “\(shown)”", button: "_Undo", action: { [weak self] in self?.undo(item) })
        }
    }

    private func undo(_ item: InboxItem) {
        var restored = item
        restored.id = nil
        let again = restored
        store.change({ inbox throws(InboxError) in try inbox.add([again], dedupe: .never).first?.id }) { [weak self] result in
            guard let self else { return }
            switch result {
            case .success(let id):
                self.page.select(id: id)
                self.context.inboxChanged()
            case .failure(let error): self.context.toast("Cannot undo: \(error.description)")
            }
        }
    }

    private var store: InboxStore { page.store }

    /// Runs a change on the worker; then `done`, and word to every page that the inbox changed.
    /// A failure is shown, and the list read again.
    private func change(_ body: @escaping @Sendable (Inbox) throws(InboxError) -> Void, done: @escaping () -> Void) {
        store.change(body) { [weak self] result in
            guard let self else { return }
            if case .failure(let error) = result { self.context.toast(error.description) } else { done() }
            self.context.inboxChanged()
        }
    }
}
