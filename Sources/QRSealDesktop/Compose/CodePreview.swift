import QRSealKit

/// The composer's preview: the code, or the parts one at a time ("part 3 of 12") with
/// buttons to step through them or play them, and a line saying what is shown.
final class CodePreview {
    let root = Box(.vertical, spacing: 8)
    private let picture = Picture(name: "Code preview")
    private let caption = Label("", style: "dim-label")
    private let partLabel = Label("")
    private let controls = Box(.horizontal, spacing: 6)
    private lazy var previous = Button(icon: "go-previous-symbolic", name: "Previous part") { [unowned self] in self.step(-1) }
    private lazy var play = ToggleButton(icon: "media-playback-start-symbolic", name: "Play the parts") { [unowned self] on in
        self.playing(on)
    }
    private lazy var next = Button(icon: "go-next-symbolic", name: "Next part") { [unowned self] in self.step(1) }
    private var pixels: [CodePixels] = []
    private var labels: [String?] = []
    private var index = 0
    /// The code shown: 0, or the part shown.
    var shownIndex: Int { index }
    private var timer: UInt32?
    /// Frames per second when playing.
    var fps = 5.0 {
        didSet { if timer != nil { playing(false); playing(true) } }
    }

    init() {
        picture.expandsVertically = true
        picture.expandsHorizontally = true
        picture.minimumSize(width: 320, height: 320)
        picture.addStyle("qr-preview")
        root.append(picture)
        partLabel.accessibleName = "Part shown"
        controls.align(horizontal: .center)
        controls.append(previous)
        controls.append(partLabel)
        controls.append(play)
        controls.append(next)
        root.append(controls)
        caption.wraps()
        caption.align(horizontal: .center)
        caption.accessibleName = "Preview status"
        root.append(caption)
        controls.isVisible = false
    }

    deinit { if let timer { MainLoop.cancel(timer) } }

    /// Shows the codes drawn for a message (one, or its parts) and what they are.
    func show(_ pixels: [CodePixels], labels: [String?], caption text: String) {
        self.pixels = pixels
        self.labels = labels
        index = min(index, max(0, pixels.count - 1))
        caption.text = text
        controls.isVisible = pixels.count > 1
        if pixels.count <= 1 { play.isActive = false }
        showCurrent()
    }

    /// Says what is happening to the code shown ("Sealing with the passphrase…").
    func note(_ text: String) { caption.text = text }

    /// Shows nothing, and why.
    func clear(_ text: String) {
        play.isActive = false
        pixels = []
        labels = []
        index = 0
        picture.show(nil)
        controls.isVisible = false
        caption.text = text
    }

    private func showCurrent() {
        guard index < pixels.count else { return picture.show(nil) }
        picture.show(pixels[index].texture())
        if pixels.count > 1 {
            partLabel.text = "part \(index + 1) of \(pixels.count)"
            picture.accessibleName = "Code preview, part \(index + 1) of \(pixels.count)"
        } else {
            picture.accessibleName = "Code preview"
        }
    }

    private func step(_ delta: Int) {
        guard !pixels.isEmpty else { return }
        index = (index + delta + pixels.count) % pixels.count
        showCurrent()
    }

    private func playing(_ on: Bool) {
        if let timer { MainLoop.cancel(timer) }
        timer = nil
        play.set(icon: on ? "media-playback-pause-symbolic" : "media-playback-start-symbolic",
                 name: on ? "Pause the parts" : "Play the parts")
        guard on else { return }
        timer = MainLoop.every(milliseconds: max(20, Int(1000 / fps))) { [weak self] in
            guard let self else { return false }
            self.step(1)
            return true
        }
    }
}
