/// What the keyring and contacts sections share: a heading, a boxed list of named entries
/// each with a button to remove it (after asking), and a line for what went wrong.
final class ListedSection {
    let root = Box(.vertical, spacing: 10)
    private let list: ListBox
    private let problem = Label("", style: "error")

    /// One entry: its name, what else to show, its icon, and what removing it says.
    struct Item {
        let name: String
        let subtitle: String
        let icon: String
        let kind: String
        let consequence: String
    }

    init(title: String, description: String, listName: String, empty: String) {
        list = ListBox(name: listName)
        let heading = Label(title, style: "title-4")
        heading.leftAligned()
        root.append(heading)
        let text = Label(description, style: "dim-label")
        text.leftAligned()
        text.wraps()
        root.append(text)
        let note = Label(empty, style: "dim-label")
        note.margins(12)
        list.set(placeholder: note)
        root.append(list)
    }

    /// Adds the controls below the list, then the problem line.
    func finish(with controls: [Widget]) {
        for control in controls { root.append(control) }
        problem.leftAligned()
        problem.wraps()
        problem.isVisible = false
        problem.accessibleName = "Problem"
        root.append(problem)
    }

    /// Shows `text` as what went wrong (empty: nothing), first letter capitalised.
    func say(_ text: String) {
        problem.text = text.prefix(1).uppercased() + text.dropFirst()
        problem.isVisible = !text.isEmpty
    }

    /// Replaces the rows; `remove` is called with an entry's name once the user confirms.
    func show(_ items: [Item], remove: @escaping (String) -> Void) {
        say("")
        list.removeAll()
        for item in items {
            let row = Row(title: item.name, subtitle: item.subtitle, icon: item.icon)
            let button = Button(icon: "user-trash-symbolic", name: "Remove \(item.kind) \(item.name)") { [unowned self] in
                self.confirm(item, remove: remove)
            }
            button.addStyle("flat")
            button.align(vertical: .center)
            row.addSuffix(button)
            list.append(row)
        }
    }

    private func confirm(_ item: Item, remove: @escaping (String) -> Void) {
        let dialog = MessageDialog(parent: root, heading: "Remove \(item.kind) \(item.name)?", body: item.consequence)
        dialog.add(response: "cancel", label: "_Cancel")
        dialog.add(response: "remove", label: "_Remove", appearance: .destructive)
        dialog.present(default: "cancel", close: "cancel") { response in
            if response == "remove" { remove(item.name) }
        }
    }
}
