import QRSealKit

/// Export and import of the whole inbox through the desktop's file chooser, in the formats
/// of `qrseal inbox export` and `import` (JSON lines or CSV): the items and the parts of
/// messages still waiting. Both run on the inbox's worker.
final class InboxTransfer {
    private unowned let page: InboxPage
    private var context: AppContext { page.context }

    init(page: InboxPage) { self.page = page }

    /// Asks for the format, then for the file, then writes it (mode 0600: it holds what the inbox holds).
    func export() {
        let dialog = MessageDialog(parent: page.root, heading: "Export the Inbox",
                                   body: "Every item, and the parts of messages still waiting, in a file that Import… "
                                       + "or 'qrseal inbox import' reads back. It holds what the inbox holds: keep it private.")
        dialog.add(response: "cancel", label: "_Cancel")
        dialog.add(response: "csv", label: "C_SV")
        dialog.add(response: "json", label: "_JSON", appearance: .suggested)
        dialog.present(default: "json", close: "cancel") { [weak self] response in
            guard let self, let format = InboxFormat(rawValue: response) else { return }
            FileChooser.ask(.save(suggested: "qrseal-inbox.\(format.rawValue)"), title: "Export the Inbox",
                            parent: self.page.root, accept: "_Export",
                            patterns: [(format == .csv ? "CSV" : "JSON lines", "*.\(format.rawValue)")]) { [weak self] path in
                guard let path else { return }
                self?.export(format, to: path)
            }
        }
    }

    private func export(_ format: InboxFormat, to path: String) {
        page.store.change({ inbox throws(InboxError) -> String? in
            PrivateFile.write(Array(try inbox.export(format).utf8), to: path)
        }) { [weak self] result in
            guard let self else { return }
            let name = DisplayText.escape(SystemFiles.lastComponent(of: path))
            switch result {
            case .success(nil): self.context.toast("Exported the inbox to \(name)")
            case .success(let reason?): self.context.toast("Cannot write \(name): \(reason)")
            case .failure(let error): self.context.toast("Cannot export: \(error.description)")
            }
        }
    }

    /// Asks for an export file and adds what it holds; says how many were added and how many
    /// the inbox held already. All or nothing: a bad line adds nothing.
    func importFile() {
        FileChooser.ask(.open, title: "Import into the Inbox", parent: page.root, accept: "_Import",
                        patterns: [("Inbox exports (JSON, CSV)", "*.json"), ("Inbox exports (JSON, CSV)", "*.csv"),
                                   ("All files", "*")]) { [weak self] path in
            guard let path else { return }
            self?.importFile(path)
        }
    }

    /// What an import came to.
    private enum Imported: Sendable {
        case cannotRead(String)
        case done(Inbox.Imported)
    }

    func importFile(_ path: String) {
        let name = DisplayText.escape(SystemFiles.lastComponent(of: path))
        page.store.change({ inbox throws(InboxError) -> Imported in
            let file: LineFile
            do throws(LineFile.Failure) { file = try LineFile(path: path) } catch { return .cannotRead(error.reason) }
            return .done(try inbox.importLines(file.next))
        }) { [weak self] result in
            guard let self else { return }
            switch result {
            case .success(.cannotRead(let reason)): self.context.toast("Cannot read \(name): \(reason)")
            case .success(.done(let imported)):
                self.context.toast(Self.report(imported))
                self.context.inboxChanged()
            case .failure(let error): self.context.toast("Cannot import \(name): \(error.description)")
            }
        }
    }

    /// "Imported 12 items, 3 were there already"; with waiting parts, completed messages and
    /// dropped ones when there are.
    static func report(_ imported: Inbox.Imported) -> String {
        func count(_ n: Int, _ word: String) -> String { "\(n) \(word)\(n == 1 ? "" : "s")" }
        var text = "Imported \(count(imported.items, "item"))"
        if imported.alreadyThere > 0 { text += ", \(imported.alreadyThere) \(imported.alreadyThere == 1 ? "was" : "were") there already" }
        if imported.pieces > 0 { text += ", \(count(imported.pieces, "waiting part"))" }
        if !imported.completed.isEmpty { text += ", \(count(imported.completed.count, "message")) completed" }
        if !imported.dropped.isEmpty { text += "; \(count(imported.dropped.count, "waiting message")) dropped to keep within the limits" }
        return text
    }
}
