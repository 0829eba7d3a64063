import QRSealKit

/// The right side of the inbox page: the selected item's content, what it is and where it
/// came from, and the actions its kind has. A sealed item shows its content only once opened
/// (`opened`), and says that the inbox keeps it sealed.
final class ItemDetail {
    enum Action { case copy, open, save, unlock, label, pin, delete }

    let root = Box(.vertical)
    /// Called with the action of a button pressed.
    var act: (Action) -> Void = { _ in }

    private let nothing = StatusPage(icon: "mail-unread-symbolic", title: "No Item Selected",
                                     description: "Choose an item in the list to see it here.")
    private let details = Box(.vertical, spacing: 12)
    private let scrolled: Scrolled
    private let heading = Label("", style: "title-2")
    private let kindLine = Label("", style: "dim-label")
    private let note = Label("")
    private let content = TextView(editable: false, name: "Content")
    private let fields = Label("")
    private let meta = Label("", style: "dim-label")
    private let buttons = Box(.horizontal, spacing: 6)
    private let more = Box(.horizontal, spacing: 6)
    private var actionButtons: [Action: Button] = [:]

    init() {
        scrolled = Scrolled(details)
        for label in [heading, kindLine, note, fields, meta] {
            label.wraps()
            label.leftAligned()
            label.selectable()
        }
        heading.accessibleName = "Item"
        fields.accessibleName = "Details"
        meta.accessibleName = "Received"
        note.addStyle("heading")
        details.margins(18)
        details.append(heading)
        details.append(kindLine)
        details.append(note)
        details.append(content)
        details.append(fields)
        details.append(meta)
        let actions: [(Action, String, String?, Box)] = [
            (.unlock, "_Unlock…", "suggested-action", buttons), (.copy, "_Copy", nil, buttons),
            (.open, "_Open…", nil, buttons), (.save, "_Save File…", nil, buttons),
            (.label, "_Label…", nil, more), (.pin, "_Pin", nil, more), (.delete, "_Delete", "destructive-action", more),
        ]
        for (action, title, style, row) in actions {
            let button = Button(title, style: style) { [unowned self] in self.act(action) }
            actionButtons[action] = button
            row.append(button)
        }
        details.append(buttons)
        details.append(more)
        nothing.expandsVertically = true
        scrolled.expandsVertically = true
        scrolled.expandsHorizontally = true
        root.append(nothing)
        root.append(scrolled)
        show(nil, opened: nil)
    }

    /// Shows `item` (nil: none selected); `opened` is its sealed content opened for now.
    func show(_ item: InboxItem?, opened: Reader.Content?) {
        nothing.isVisible = item == nil
        scrolled.isVisible = item != nil
        guard let item else { return }
        let parsed = ItemText.summary(item)
        heading.text = ItemText.title(item)
        kindLine.text = ItemText.name(of: item) + (item.pinned ? " · pinned" : "")
        var shown: String?
        var canSave = item.fileName != nil
        note.isVisible = false
        switch (item.kind, opened) {
        case (.sealed, .opened(.text(let text))?):
            heading.text = "Sealed message, opened"
            say("Opened for now: the inbox keeps it sealed.")
            shown = DisplayText.lines(of: text).joined(separator: "\n")
        case (.sealed, .opened(.file(let name, let bytes))?):
            say("Opened for now: a file, \(DisplayText.escape(name)), \(ItemText.size(bytes.count)). The inbox keeps it sealed.")
            canSave = true
        case (.sealed, .failed(let error)?):
            say("Cannot open it: \(error.description).")
        case (.sealed, _):
            say("Sealed. Unlock it with a key of your keyring or its passphrase to read it; the inbox keeps it sealed.")
        case (_, _) where item.fileName != nil:
            say("A file, \(DisplayText.escape(item.fileName ?? "")), \(ItemText.size(item.bytes.count)).")
        case (.binary, _):
            shown = NumberText.hex(item.bytes.prefix(4096), separator: " ")
                + (item.bytes.count > 4096 ? " …" : "")
        default:
            shown = DisplayText.lines(of: item.text ?? "").joined(separator: "\n")
        }
        content.isVisible = shown != nil
        content.text = shown ?? ""
        let details = item.kind == .sealed ? [] : parsed.fields.map { "\($0.name): \(DisplayText.oneLine($0.value))" }
        fields.isVisible = !details.isEmpty
        fields.text = details.joined(separator: "\n")
        var received = ["Received \(Timestamp.local(item.receivedAt, seconds: true))",
                        "from \(item.sourceKind.rawValue) \(ItemText.source(item))",
                        Symbology(rawValue: item.symbology)?.displayName ?? DisplayText.escape(item.symbology)]
        if let label = item.label { received.append("label: \(DisplayText.oneLine(label))") }
        meta.text = received.joined(separator: " · ")
        let isOpened: Bool
        if case .opened? = opened { isOpened = true } else { isOpened = false }
        actionButtons[.unlock]?.isVisible = item.kind == .sealed && !isOpened
        actionButtons[.copy]?.isVisible = shown != nil
        actionButtons[.open]?.isVisible = ItemText.uri(item) != nil
        actionButtons[.save]?.isVisible = canSave
        actionButtons[.pin]?.label = item.pinned ? "Un_pin" : "_Pin"
    }

    /// While a sealed item is being opened (scrypt takes a moment), Unlock waits and says so.
    func opening(_ on: Bool) {
        actionButtons[.unlock]?.isSensitive = !on
        actionButtons[.unlock]?.label = on ? "Opening…" : "_Unlock…"
    }

    private func say(_ text: String) {
        note.isVisible = true
        note.text = text
    }
}
