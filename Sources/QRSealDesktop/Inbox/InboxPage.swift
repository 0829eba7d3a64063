import QRSealKit

/// The inbox page: every item, pinned first and then newest first, with search as you type
/// and a filter by kind on the left; the selected item's content and actions on the right
/// (`ItemDetail`, `ItemActions`); messages waiting for parts below the items; export and
/// import (`InboxTransfer`). The inbox is the CLI's, read and changed on a worker
/// (`InboxStore`); the page reloads when it is shown and when the inbox changes.
final class InboxPage {
    let root = Box(.vertical)
    let context: AppContext
    let store: InboxStore
    let detail = ItemDetail()

    private let empty = StatusPage(icon: "mail-unread-symbolic", title: "The Inbox Is Empty",
                                   description: "Codes read on the Scan page, or with 'qrseal scan', are kept here. "
                                       + "An export of another inbox can be imported.")
    private let failure = StatusPage(icon: "dialog-warning-symbolic", title: "Cannot Read the Inbox", description: "")
    /// The list of items, made anew for each reload (dropping a whole list costs less than
    /// removing its rows one by one); its rows are added a few at a time (`fill`).
    private var list: ListBox!
    private let listHolder = Box(.vertical)
    private let countLine = Label("", style: "dim-label")
    private let waitingHeading = Label("Waiting for Parts", style: "heading")
    private let waitingList = ListBox(name: "Waiting for parts")
    private var paned: Paned!
    private var search: SearchEntry!
    private var kinds: DropDown!
    private var actions: ItemActions!
    private var transfer: InboxTransfer!

    /// What the list shows, in its order.
    private(set) var items: [InboxItem] = []
    /// The item shown on the right, kept across reloads.
    private(set) var selectedID: Int64?
    /// The selected sealed item's content, opened for as long as it stays selected; never stored.
    private var opened: (id: Int64, content: Reader.Content)?
    private var generation = 0
    private var rebuilding = false
    /// Whether the list had the keyboard focus when a reload replaced it: its rows, once
    /// all there, take it back.
    private var refocus = false

    /// The kinds the filter offers, after "All Kinds".
    private static let filterKinds = ContentKind.allCases

    init(context: AppContext) {
        self.context = context
        store = InboxStore(context: context)
        actions = ItemActions(page: self)
        transfer = InboxTransfer(page: self)
        search = SearchEntry(placeholder: "Search the inbox") { [unowned self] _ in self.reload() }
        kinds = DropDown(["All Kinds"] + Self.filterKinds.map(ItemText.name), name: "Kind") { [unowned self] _ in
            self.reload()
        }
        kinds.expandsHorizontally = true
        let filters = Box(.horizontal, spacing: 6)
        filters.append(kinds)
        filters.append(Button(icon: "document-save-as-symbolic", name: "Export…") { [unowned self] in self.transfer.export() })
        filters.append(Button(icon: "document-open-symbolic", name: "Import…") { [unowned self] in self.transfer.importFile() })

        let column = Box(.vertical, spacing: 12)
        column.append(listHolder)
        countLine.wraps()
        countLine.leftAligned()
        column.append(countLine)
        waitingHeading.leftAligned()
        column.append(waitingHeading)
        column.append(waitingList)
        column.margins(top: 0, bottom: 12, start: 12, end: 12)
        let scrolled = Scrolled(column)
        scrolled.expandsVertically = true

        let left = Box(.vertical, spacing: 8)
        search.margins(top: 12, bottom: 0, start: 12, end: 12)
        filters.margins(top: 0, bottom: 0, start: 12, end: 12)
        left.append(search)
        left.append(filters)
        left.append(scrolled)
        left.minimumSize(width: 340)

        detail.act = { [unowned self] action in self.actions.run(action) }
        paned = Paned(left, detail.root, position: 420)
        paned.expandsVertically = true
        let importButton = Button("_Import…", style: "pill") { [unowned self] in self.transfer.importFile() }
        importButton.align(horizontal: .center)
        empty.set(child: importButton)
        for page in [empty, failure, paned!] as [Widget] {
            page.expandsVertically = true
            root.append(page)
        }
        show(pageOf: paned)

        // Ctrl+F searches; Delete in the list deletes the selected item (undone from its toast).
        list = freshList()
        listHolder.append(list)
        root.addShortcut("<Control>f") { [unowned self] in self.search.grabFocus() }
        context.onInboxChange { [weak self] in self?.reload() }
        root.on("map") { [unowned self] in self.reload() }
    }

    /// The item selected, if it is still listed.
    var selected: InboxItem? { items.first { $0.id == selectedID && $0.id != nil } }

    /// Reads the list again (filter, search) on the worker and shows it when it comes;
    /// a reload asked for meanwhile wins.
    func reload() {
        generation += 1
        let asked = generation
        let kind = kinds.selected > 0 && kinds.selected <= Self.filterKinds.count ? Self.filterKinds[kinds.selected - 1] : nil
        store.list(search: search.text, kind: kind) { [weak self] result in
            guard let self, asked == self.generation else { return }
            switch result {
            case .success(let listing): self.show(listing)
            case .failure(let error):
                self.failure.set(icon: "dialog-warning-symbolic", title: "Cannot Read the Inbox", description: error.description)
                self.show(pageOf: self.failure)
            }
        }
    }

    /// Selects the item `id` once it is listed (after an undo, an import).
    func select(id: Int64?) {
        selectedID = id
        if let index = items.firstIndex(where: { $0.id == id }) { list.select(index) }
    }

    /// Takes `item` off the list at once (it is being deleted) and selects the next one.
    func removeFromList(_ item: InboxItem) {
        guard let index = items.firstIndex(where: { $0.id == item.id }) else { return }
        let hadFocus = list.containsFocus
        rebuilding = true
        if index < list.rows.count { list.remove(list.rows[index]) }
        items.remove(at: index)
        rebuilding = false
        let next = items.isEmpty ? nil : min(index, items.count - 1)
        selectedID = next.map { items[$0].id } ?? nil
        list.select(next)
        if hadFocus { list.focusSelected() }
        if next == nil { detail.show(nil, opened: nil) }
    }

    /// Shows the selected item's sealed content, opened for now.
    func showOpened(_ content: Reader.Content, of item: InboxItem) {
        guard let id = item.id, id == selectedID else { return }
        opened = (id, content)
        detail.show(selected, opened: content)
    }

    /// The opened content of the selected item, when it was opened.
    /// Also one opened on the scan page in this session (`AppContext.opened`, in memory only).
    var openedContent: Reader.Content? {
        if let opened, opened.id == selectedID { return opened.content }
        return selectedID.flatMap { context.opened[$0] }.map { .opened($0) }
    }

    // MARK: Showing

    private func show(_ listing: InboxStore.Listing) {
        if listing.isEmpty {
            items = []
            show(pageOf: empty)
            selectedID = nil
            opened = nil
            return
        }
        show(pageOf: paned)
        // The keyboard focus, when it was in the list, goes to the selected row of the new one.
        let hadFocus = list.containsFocus || refocus
        let old = list!
        listHolder.remove(old)
        list = freshList()
        listHolder.append(list)
        drop(old)
        items = listing.items
        refocus = hadFocus
        fill(list, reload: generation)
        let listed = items.count
        countLine.isVisible = listing.matching > listed
        countLine.text = "Showing \(listed) of \(listing.matching) items. Search to find the others."
        waitingList.removeAll()
        for message in listing.waiting { waitingList.append(Self.row(message)) }
        waitingHeading.isVisible = !listing.waiting.isEmpty
        waitingList.isVisible = !listing.waiting.isEmpty
        if let index = items.firstIndex(where: { $0.id == selectedID }) {
            detail.show(items[index], opened: openedContent)
        } else {
            selectedID = nil
            opened = nil
            list.select(nil)
            detail.show(nil, opened: nil)
        }
    }

    /// The rows a main-loop turn adds: enough to fill a screen at once, few enough that the
    /// loop never stalls long on a big inbox.
    private static let rowsPerTurn = 40

    /// Adds the rows of `items` not in `target` yet, a turn of the main loop at a time, then
    /// selects the selected item again; stops when another reload made another list.
    private func fill(_ target: ListBox, reload: Int) {
        guard reload == generation, target === list else { return }
        let start = target.rows.count
        let end = min(items.count, start + Self.rowsPerTurn)
        rebuilding = true
        for item in items[start..<end] { target.append(Self.row(item)) }
        rebuilding = false
        if end < items.count {
            let next = UncheckedBox((self, target))
            MainLoop.post { next.value.0.fill(next.value.1, reload: reload) }
        } else {
            if let index = items.firstIndex(where: { $0.id == selectedID }) {
                rebuilding = true
                target.select(index)
                rebuilding = false
            }
            if refocus { target.focusSelected() }
            refocus = false
        }
    }

    /// Lets go of a list taken out of the window a few rows a turn: finalizing hundreds of
    /// rows at once stalled the main loop for half a second.
    private func drop(_ old: ListBox) {
        for row in old.rows.prefix(Self.rowsPerTurn) { old.remove(row) }
        guard !old.rows.isEmpty else { return }
        let next = UncheckedBox((self, old))
        MainLoop.post { next.value.0.drop(next.value.1) }
    }

    private func freshList() -> ListBox {
        let fresh = ListBox(name: "Items")
        fresh.set(placeholder: Self.placeholder("No items match"))
        // A list being let go of (`drop`) says its rows are unselected as they go: not heard.
        fresh.selectsOne { [unowned self, weak fresh] index in
            if fresh === self.list { self.selected(index) }
        }
        fresh.addShortcut("Delete") { [unowned self] in self.actions.run(.delete) }
        return fresh
    }

    private func selected(_ index: Int?) {
        guard !rebuilding else { return }
        let item = index.map { items[$0] }
        if item?.id != opened?.id { opened = nil }
        selectedID = item?.id
        detail.show(item, opened: openedContent)
    }

    private func show(pageOf page: Widget) {
        for child in [empty, failure, paned!] as [Widget] { child.isVisible = child === page }
    }

    /// A row of the list: the kind's icon, the label or a preview, when and from where; a pin
    /// when pinned. Its accessible name says all of that, kind first.
    private static func row(_ item: InboxItem) -> Row {
        let title = ItemText.title(item), subtitle = ItemText.subtitle(item)
        let row = Row(title: title, subtitle: subtitle, icon: ItemText.icon(of: item))
        if item.pinned { row.addSuffix(Icon("view-pin-symbolic", description: "Pinned")) }
        row.accessibleName = "\(ItemText.name(of: item)): \(title), \(subtitle)\(item.pinned ? ", pinned" : "")"
        return row
    }

    /// A row of a message waiting for parts: "5 of 14 parts", with a bar.
    private static func row(_ message: Inbox.PartProgress) -> Row {
        let total = message.have + message.needed
        let row = Row(title: "Message \(message.idText)",
                      subtitle: "\(message.text) · first from \(DisplayText.escape(SystemFiles.lastComponent(of: message.source)))",
                      icon: "content-loading-symbolic")
        let bar = ProgressBar(name: "\(message.have) of \(message.totalParts) parts")
        bar.fraction = total > 0 ? Double(message.have) / Double(total) : 0
        bar.align(vertical: .center)
        bar.minimumSize(width: 80)
        row.addSuffix(bar)
        return row
    }

    private static func placeholder(_ text: String) -> Label {
        let label = Label(text, style: "dim-label")
        label.margins(18)
        return label
    }
}
