import FoundationEssentials
import Dispatch
import Glibc
import QRSealKit

/// What the compose page does with the message made: save it, copy it, show it full screen;
/// for a passphrase, seal it first.
extension ComposePage {
    /// Calls `body` with the message to save, copy or show: the previewed one, or for a
    /// passphrase the input sealed now (once; the entries are emptied).
    func withMessageToShare(_ body: @escaping (Composed) -> Void) {
        guard let current else {
            context.toast(input == nil ? "Nothing to encode yet: type a message or choose a file" : "The code is still being made")
            return
        }
        if current.isFinal { return body(current) }
        guard !busy else { return context.toast("Still sealing…") }
        let passphrase: String
        switch seal.takePassphrase() {
        case .success(let typed): passphrase = typed
        case .failure(let problem):
            context.toast(problem.description.prefix(1).uppercased() + problem.description.dropFirst())
            return
        }
        busy = true
        afterSealing = body
        preview.note("Sealing with the passphrase…")
        let ticket = generation, input = current.input, key = SealKey.passphrase(passphrase)
        let back = MainThreadReturn(self)
        DispatchQueue.global(qos: .userInitiated).async {
            let result = Self.encode(input, key: key, encoder: Encoder())
            let pixels = result.message.map { CodePixels.all($0, near: 640) } ?? []
            back.post { page in
                let body = page.afterSealing
                page.afterSealing = nil
                page.busy = false
                guard ticket == page.generation else {
                    return page.context.toast("The message changed while it was sealed: try again")
                }
                switch result {
                case .made(let message):
                    let sealed = Composed(input: input, message: message, key: key, isFinal: true)
                    page.current = sealed
                    page.preview.show(pixels, labels: message.symbols.map(\.label),
                                      caption: Self.caption(message, note: "Sealed with the passphrase"))
                    body?(sealed)
                case .failed(let reason):
                    page.context.toast(reason)
                }
            }
        }
    }

    func save(_ format: SaveFormat) {
        withMessageToShare { [weak self] composed in
            guard let self else { return }
            FileChooser.ask(.save(suggested: format.suggestedName(for: composed.input)), title: "Save as \(format.title)",
                            parent: self.root, accept: "_Save", patterns: [format.pattern]) { [weak self] path in
                guard let self, let path else { return }
                self.write(composed, format: format, to: path)
            }
        }
    }

    /// Makes the file's bytes and writes them on a worker; says how it went.
    private func write(_ composed: Composed, format: SaveFormat, to path: String) {
        let fps = self.fps
        let back = MainThreadReturn(self)
        DispatchQueue.global(qos: .userInitiated).async {
            let outcome: String?
            do throws(SaveFailure) {
                let files = try format.files(composed.message, path: path, input: composed.input, key: composed.key, fps: fps)
                try SaveFormat.write(files, named: path)
                outcome = files.count == 1 ? nil : "\(files.count) files, \(SystemFiles.lastComponent(of: files[0].path)) and the others"
                back.post { page in
                    page.context.toast("Saved \(outcome ?? SystemFiles.lastComponent(of: path))")
                }
            } catch {
                let message = error.description
                back.post { page in
                    let dialog = MessageDialog(parent: page.root, heading: "Not saved", body: message)
                    dialog.add(response: "close", label: "_Close")
                    dialog.present { _ in }
                }
            }
        }
    }

    /// Puts the code shown (the part shown, for a message in parts) on the clipboard, at
    /// the scale `qrseal encode` writes images.
    func copyImage() {
        withMessageToShare { [weak self] composed in
            guard let self else { return }
            let index = min(self.preview.shownIndex, composed.message.symbols.count - 1)
            let matrix = composed.message.symbols[index].matrix
            let back = MainThreadReturn(self)
            DispatchQueue.global(qos: .userInitiated).async {
                let pixels = CodePixels(matrix, scale: SaveFormat.scale)
                back.post { page in
                    page.root.clipboard.set(texture: pixels.texture())
                    let count = composed.message.symbols.count
                    page.context.toast(count > 1 ? "Copied part \(index + 1) of \(count)" : "Copied the code")
                }
            }
        }
    }

    func showFullscreen() {
        withMessageToShare { [weak self] composed in
            guard let self, self.fullscreen == nil else { return }
            let shown = FullscreenCode(parent: self.root, message: composed.message, fps: self.fps) { [weak self] in
                self?.fullscreen = nil
            }
            self.fullscreen = shown
            shown.present()
        }
    }
}
