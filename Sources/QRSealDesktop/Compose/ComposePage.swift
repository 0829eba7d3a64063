import FoundationEssentials
import Dispatch
import Glibc
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
    let context: AppContext
    private let textButton = CheckButton("_Text", active: true)
    private let fileButton = CheckButton("_File")
    private let text = TextView(name: "Message text")
    private let textScroll: Scrolled
    private let fileRow = Box(.horizontal, spacing: 8)
    private let fileLabel = Label("No file chosen", style: "dim-label")
    private let chooseButton = Button("_Choose a file…")
    private var file: EncodeInput?
    let seal: SealChooser
    let preview = CodePreview()
    private let rates = [2.0, 5.0, 10.0, 15.0]
    private let rate: DropDown
    private var pending: UInt32?
    /// Counts the changes of the input: a result made from an older one is dropped.
    private(set) var generation = 0
    /// Set while a passphrase seal runs.
    var busy = false
    /// The message previewed, and whether it is the one to save (not a passphrase's plain layout).
    var current: Composed?
    var fullscreen: FullscreenCode?
    /// What to do with the message once the passphrase seal is done.
    var afterSealing: ((Composed) -> Void)?

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
        rate = DropDown(rates.map { NumberText.brief($0) + " codes a second" }, name: "Parts per second", changed: { _ in })
        rate.selected = 1

        let form = Box(.vertical, spacing: 10)
        form.margins(18)
        form.append(Self.heading("Message"))
        fileButton.group(with: textButton)
        let kinds = Box(.horizontal, spacing: 12)
        kinds.append(textButton)
        kinds.append(fileButton)
        form.append(kinds)
        text.padding(8)
        text.acceptsTab = false
        textScroll.minimumSize(height: 160)
        textScroll.addStyle("card")
        form.append(textScroll)
        fileRow.append(chooseButton)
        fileLabel.ellipsizes()
        fileRow.append(fileLabel)
        form.append(fileRow)
        form.append(seal.root)
        form.append(Self.heading("Save and share"))
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

    private static func heading(_ title: String) -> Label {
        let label = Label(title, style: "heading")
        label.leftAligned()
        return label
    }

    var fps: Double { rates[min(max(0, rate.selected), rates.count - 1)] }

    /// What is to be encoded now: the text typed, or the file chosen.
    var input: EncodeInput? {
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
        let name = SystemFiles.lastComponent(of: path)
        switch result {
        case .success(let bytes) where bytes.isEmpty:
            context.toast("\(name): the file is empty")
        case .success(let bytes):
            file = EncodeInput(bytes: bytes, name: name)
            fileLabel.text = "\(name) (\(bytes.count) bytes)"
            inputChanged()
        case .failure(let error):
            context.toast("\(name): \(error.description)")
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
        case .key(let chosen): (key, isFinal, note) = (chosen, true, "Sealed (\(seal.summary.replacing("sealed ", with: "")))")
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
                switch result {
                case .made(let message):
                    page.current = Composed(input: input, message: message, key: key, isFinal: isFinal)
                    page.preview.show(pixels, labels: message.symbols.map(\.label), caption: Self.caption(message, note: note))
                case .failed(let reason):
                    page.preview.clear(reason)
                }
            }
        }
    }

    /// `Encoder.message` as `qrseal encode` calls it, its failure said in a line.
    static func encode(_ input: EncodeInput, key: SealKey?, encoder: Encoder) -> Encoded {
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

    /// What the preview shows: how it is sealed, the size, one code or how many parts.
    static func caption(_ message: EncodedMessage, note: String) -> String {
        let first = message.symbols[0].matrix
        let size = "version \(first.version)-\(first.level.rawValue), \(first.size)×\(first.size) modules"
        guard message.symbols.count > 1 else { return "\(note) · \(message.totalBytes) bytes · one code, \(size)" }
        return "\(note) · \(message.totalBytes) bytes · \(message.symbols.count) parts "
            + "(any \(message.dataParts) rebuild it), \(size) · message \(message.id ?? "")"
    }
}
