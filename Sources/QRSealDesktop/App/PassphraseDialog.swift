import QRSealKit

/// The app's one passphrase dialog, for a sealed message on the scan page and in the inbox:
/// a password entry, emptied as soon as the dialog answers. After a failed try it asks again
/// and says why (`problem`: the opening's error), so a mistyped passphrase is one more try,
/// not a dead end.
enum PassphraseDialog {
    static func ask(parent: Widget, problem: SealError? = nil, then open: @escaping (String) -> Void) {
        let why = problem.map { error -> String in
            let text = error.description
            return text.prefix(1).uppercased() + text.dropFirst() + ". "
        } ?? ""
        let dialog = MessageDialog(parent: parent, heading: "Open sealed message",
                                   body: why + "Enter the passphrase it was sealed with. The message is opened here "
                                       + "only; the passphrase is not stored and the inbox keeps the message sealed.")
        let entry = PasswordEntry(name: "Passphrase")
        dialog.set(extra: entry)
        dialog.add(response: "cancel", label: "_Cancel")
        dialog.add(response: "open", label: "_Open", appearance: .suggested)
        entry.onActivate { [weak dialog] in dialog?.respond("open") }
        dialog.present(default: "open", close: "cancel") { response in
            let secret = entry.take()
            guard response == "open", !secret.isEmpty else { return }
            open(String(decoding: secret, as: UTF8.self))
        }
        entry.grabFocus()
    }
}
