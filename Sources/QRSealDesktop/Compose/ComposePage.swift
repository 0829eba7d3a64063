import Foundation
import QRSealKit

/// The compose page: text or a file, plain or sealed, previewed live as codes, then saved
/// (PNG, SVG, PDF sheet, GIF), copied, or shown full screen.
///
/// The preview is encoded on a worker thread 250 ms after the last change. A key or
/// contacts seal is cheap and is previewed as it will be saved; a passphrase seal runs
/// scrypt, so the preview shows the plain layout until the message is saved, copied or
/// shown: the passphrase is then read (and its entries emptied), the message sealed once
/// on a worker, and that sealed message is what is saved, shown and previewed until the
/// text, the file or the seal changes.
final class ComposePage {
    let root: Widget
    private let context: AppContext
    private let textButton = CheckButton("_Text", active: true)
    private let fileButton = CheckButton("_File")
    private let text = TextView(name: "Message text")
    private let textScroll: Scrolled
    private let fileRow = Box(.horizontal, spacing: 8)
    private let fileLabel = Label("No file chosen", style: "dim-label")
    private let chooseButton = Button("_Choose a file…")
    private var file: EncodeInput?
    private let seal: SealChooser
    private let preview = CodePreview()
    private let rates = [2.0, 5.0, 10.0, 15.0]
    private let rate: DropDown
    private var pending: UInt32?
    private var generation = 0
    private var busy = false
    /// The message previewed, and whether it is the one to save (not a passphrase's plain layout).
    private var current: Composed?
    private var fullscreen: FullscreenCode?
    /// What to do with the message once the passphrase seal is done.
    private var afterSealing: ((Composed) -> Void)?

    /// A message made from the input, ready for the outputs.
    struct Composed {
        let input: EncodeInput
        let message: EncodedMessage
        let key: SealKey?
        let isFinal: Bool
    }

    init(context: AppContext) {
        self.context = context
        seal = SealChooser(context: context)
        textScroll = Scrolled(text)
        rate = DropDown(rates.map { String(format: "%g codes a second", $0) }, name: "Parts per second", changed: { _ in })
        rate.selected = 1

        let form = Box(.vertical, spacing: 10)
        form.margins(18)
        let heading = Label("Message", style: "heading")
        heading.leftAligned()
        form.append(heading)
        fileButton.group(with: textButton)
        let kinds = Box(.horizontal, spacing: 12)
        kinds.append(textButton)
        kinds.append(fileButton)
        form.append(kinds)
        text.padding(8)
        textScroll.minimumSize(height: 160)
        textScroll.addStyle("card")
        form.append(textScroll)
        fileRow.append(chooseButton)
        fileLabel.ellipsizes()
        fileRow.append(fileLabel)
        form.append(fileRow)
        form.append(seal.root)
        form.append(Self.actions(title: "Save and share"))
        let saves = Box(.horizontal, spacing: 6)
        let saveButtons = SaveFormat.allCases.map { format in
            let button = Button("\(format.rawValue.uppercased())…")
            button.accessibleName = "Save as \(format.title)"
            button.tooltip = "Save as \(format.title)"
            saves.append(button)
            return (format, button)
        }
        form.append(saves)
        let share = Box(.horizontal, spacing: 6)
        let copy = Button("C_opy image"), full = Button("Full _screen")
        share.append(copy)
        share.append(full)
        share.append(rate)
        form.append(share)

        let side = Box(.vertical)
        side.margins(18)
        side.append(preview.root)
        root = Paned(Scrolled(form), side, position: 460)

        fileRow.isVisible = false
        for (format, button) in saveButtons { button.on("clicked") { [unowned self] in self.save(format) } }
        copy.on("clicked") { [unowned self] in self.copyImage() }
        full.on("clicked") { [unowned self] in self.showFullscreen() }
        chooseButton.on("clicked") { [unowned self] in self.chooseFile() }
        textButton.on("toggled") { [unowned self] in self.inputKindChanged() }
        text.onChange { [unowned self] in self.inputChanged() }
        seal.changed = { [unowned self] in self.inputChanged() }
        rate.onPointer("notify::selected", { [unowned self] _ in self.preview.fps = self.fps })
        context.onKeysChange { [weak self] in self?.seal.reload() }
        preview.clear("Type a message, or choose a file: its code shows here.")
    }

    private static func actions(title: String) -> Label {
        let label = Label(title, style: "heading")
        label.leftAligned()
        return label
    }

    private var fps: Double { rates[min(max(0, rate.selected), rates.count - 1)] }

    /// What is to be encoded now: the text typed, or the file chosen.
    private var input: EncodeInput? {
        if !textButton.isActive { return file }
        let typed = text.text
        return typed.isEmpty ? nil : EncodeInput(text: typed)
    }

    private func inputKindChanged() {
        // Read from the text button alone: while the group switches, the other is not yet active.
        textScroll.isVisible = textButton.isActive
        fileRow.isVisible = !textButton.isActive
        inputChanged()
    }

    /// Drops what was made from the old input and encodes the new one shortly.
    private func inputChanged() {
        generation += 1
        current = nil
        if let pending { MainLoop.cancel(pending) }
        pending = MainLoop.every(milliseconds: 250) { [weak self] in
            self?.pending = nil
            self?.encodePreview()
            return false
        }
    }

    private func chooseFile() {
        FileChooser.ask(.open, title: "Choose a file to encode", parent: root, accept: "_Open") { [weak self] path in
            guard let self, let path else { return }
            let limit = OpeningBudget.defaultContentBytes
            let back = MainThreadReturn(self)
            DispatchQueue.global(qos: .userInitiated).async {
                let result = Result { () throws(SystemFiles.Failure) -> [UInt8] in try SystemFiles.read(path, limit: limit) }
                back.post { page in
                    page.fileRead(result, path: path)
                }
            }
        }
    }

    private func fileRead(_ result: Result<[UInt8], SystemFiles.Failure>, path: String) {
                    switch result {
                    case .success(let bytes) where bytes.isEmpty:
                        self.context.toast("\(SystemFiles.lastComponent(of: path)): the file is empty")
                    case .success(let bytes):
                        self.file = EncodeInput(bytes: bytes, name: SystemFiles.lastComponent(of: path))
                        self.fileLabel.text = "\(SystemFiles.lastComponent(of: path)) (\(bytes.count) bytes)"
                        self.inputChanged()
                    case .failure(let error):
                        self.context.toast("\(SystemFiles.lastComponent(of: path)): \(error.description)")
                    }
    }

    /// Encodes the input for the preview on a worker; a result that arrives after another
    /// change is dropped.
    private func encodePreview() {
        guard let input else {
            preview.clear("Type a message, or choose a file: its code shows here.")
            return
        }
        let key: SealKey?, isFinal: Bool, note: String
        switch seal.choice {
        case .plain: (key, isFinal, note) = (nil, true, "Plain")
        case .key(let chosen): (key, isFinal, note) = (chosen, true, "Sealed (\(seal.summary.replacingOccurrences(of: "sealed ", with: "")))")
        case .passphraseLater: (key, isFinal, note) = (nil, false, "Preview without the seal: sealed with the passphrase when saved, copied or shown")
        case .incomplete(let missing):
            preview.clear("To seal: \(missing).")
            return
        }
        let ticket = generation
        let back = MainThreadReturn(self)
        DispatchQueue.global(qos: .userInitiated).async {
            let result = Self.encode(input, key: key, encoder: Encoder())
            let pixels = result.message.map { CodePixels.all($0, near: 640) } ?? []
            back.post { page in
                guard ticket == page.generation else { return }
                let `self` = page
                switch result {
                case .made(let message):
                    self.current = Composed(input: input, message: message, key: key, isFinal: isFinal)
                    self.preview.show(pixels, labels: message.symbols.map(\.label), caption: Self.caption(message, note: note))
                case .failed(let reason):
                    self.preview.clear(reason)
                }
            }
        }
    }

    /// `Encoder.message` as `qrseal encode` calls it, its failure said in a line.
    private static func encode(_ input: EncodeInput, key: SealKey?, encoder: Encoder) -> Encoded {
        do { return .made(try encoder.message(input, key: key, split: SplitOptions())) } catch {
            switch error {
            case .seal(let error): return .failed("Cannot seal: \(error.description)")
            case .symbol(let error): return .failed("Cannot encode: \(error.description)")
            case .library(let error): return .failed(error.description)
            case .split(let error): return .failed("Cannot split the message: \(error.description)")
            }
        }
    }

    /// What encoding gave: the message, or why not in a line.
    enum Encoded: Sendable {
        case made(EncodedMessage)
        case failed(String)

        var message: EncodedMessage? {
            if case .made(let message) = self { return message }
            return nil
        }
    }

    private static func caption(_ message: EncodedMessage, note: String) -> String {
        let first = message.symbols[0].matrix
        let size = "version \(first.version)-\(first.level.rawValue), \(first.size)×\(first.size) modules"
        guard message.symbols.count > 1 else { return "\(note) · \(message.totalBytes) bytes · one code, \(size)" }
        return "\(note) · \(message.totalBytes) bytes · \(message.symbols.count) parts "
            + "(any \(message.dataParts) rebuild it), \(size) · message \(message.id ?? "")"
    }

    /// Calls `body` with the message to save, copy or show: the previewed one, or for a
    /// passphrase the input sealed now (once; the entries are emptied).
    private func withFinal(_ body: @escaping (Composed) -> Void) {
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
                let `self` = page
                let body = self.afterSealing
                self.afterSealing = nil
                self.busy = false
                guard ticket == self.generation else { return self.context.toast("The message changed while it was sealed: try again") }
                switch result {
                case .made(let message):
                    let sealed = Composed(input: input, message: message, key: key, isFinal: true)
                    self.current = sealed
                    self.preview.show(pixels, labels: message.symbols.map(\.label),
                                      caption: Self.caption(message, note: "Sealed with the passphrase"))
                    body?(sealed)
                case .failed(let reason):
                    self.context.toast(reason)
                }
            }
        }
    }

    private func save(_ format: SaveFormat) {
        withFinal { [weak self] composed in
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
    private func copyImage() {
        withFinal { [weak self] composed in
            guard let self else { return }
            let matrix = composed.message.symbols[self.preview.shownIndex].matrix
            let back = MainThreadReturn(self)
            DispatchQueue.global(qos: .userInitiated).async {
                let pixels = CodePixels(matrix, scale: SaveFormat.scale)
                back.post { page in
                    let `self` = page
                    self.root.clipboard.set(texture: pixels.texture())
                    self.context.toast(composed.message.symbols.count > 1
                                       ? "Copied part \(self.preview.shownIndex + 1) of \(composed.message.symbols.count)"
                                       : "Copied the code")
                }
            }
        }
    }

    private func showFullscreen() {
        withFinal { [weak self] composed in
            guard let self, self.fullscreen == nil else { return }
            let shown = FullscreenCode(parent: self.root, message: composed.message, fps: self.fps) { [weak self] in
                self?.fullscreen = nil
            }
            self.fullscreen = shown
            shown.present()
        }
    }
}
