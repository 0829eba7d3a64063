import FoundationEssentials
import Glibc
import QRSealKit

/// The scan page: the live preview with outlines, the list of what was read, and the
/// controls (pause, text, kinds of code, region, open an image). Frames come from `LiveFeed`;
/// what it reads goes through the library's intake, as the CLI's live scans do.
final class ScanPage {
    let root: Box
    unowned let context: AppContext
    let preview = PreviewView()
    private let list = ListBox(name: "Read")
    private let status = Label("", style: "dim-label")
    private let progress = Label("")
    let problem = StatusPage(icon: "camera-disabled-symbolic", title: "", description: "")
    let previewBox = Box(.vertical, spacing: 6)
    private let toolbar = Box(.horizontal, spacing: 6)
    var pauseButton: ToggleButton!
    private var regionButton: ToggleButton!
    var feed: LiveFeed?
    private var started = false
    private var found: [FoundItem] = []
    /// What is in view, by track id (codes) or negated id (text), and the item it shows.
    var inView: [Int: FoundItem] = [:]
    private var readsText = false
    private var kinds = SymbologyChoice.all
    /// The preview's size last given to the feed.
    private var previewSize = (width: 0, height: 0)
    let trace: Trace?

    init(context: AppContext) {
        self.context = context
        trace = Trace.fromEnvironment()
        root = Box(.horizontal)
        pauseButton = ToggleButton(icon: "media-playback-pause-symbolic", name: "Pause") { [unowned self] on in
            self.feed?.update { $0.paused = on }
        }
        let textButton = ToggleButton(icon: "insert-text-symbolic", name: "Read text") { [unowned self] on in
            self.readsText = on
            self.feed?.update { $0.readsText = on }
            if !on { self.clearText() }
        }
        regionButton = ToggleButton(icon: "object-select-symbolic", name: "Draw a region to scan") { [unowned self] on in
            self.preview.drawsRegion = on
            if !on { self.setRegion(nil) }
        }
        toolbar.append(pauseButton)
        toolbar.append(textButton)
        toolbar.append(MenuButton(icon: "view-grid-symbolic", name: "Kinds of code", content: kindsMenu()))
        toolbar.append(regionButton)
        toolbar.append(Button(icon: "insert-image-symbolic", name: "Open an image") { [unowned self] in self.openImage() })
        toolbar.append(Button(icon: "edit-paste-symbolic", name: "Paste a picture or text") { [unowned self] in self.paste() })
        let screen = Button(icon: "applets-screenshooter-symbolic", name: "Scan the screen") { [unowned self] in self.scanScreen() }
        screen.isSensitive = false
        screen.tooltip = "Scan the screen (looking for the desktop's screenshot service…)"
        ScreenshotPortal.checkAvailable { available in
            screen.isSensitive = available
            screen.tooltip = available ? "Scan the screen" : "Scan the screen: no screenshot service answers on this desktop"
            if !available { screen.describe("Unavailable: no screenshot service answers on this desktop") }
        }
        toolbar.append(screen)
        status.ellipsizes()
        status.expandsHorizontally = true
        status.leftAligned()
        toolbar.append(status)
        toolbar.margins(6)
        // The toolbar stays when the camera cannot be read: images, pastes and the screen
        // can still be scanned.
        let column = Box(.vertical)
        column.append(toolbar)
        column.append(previewBox)
        column.append(problem)
        column.expandsHorizontally = true
        preview.root.expandsVertically = true
        preview.root.expandsHorizontally = true
        previewBox.append(preview.root)
        progress.isVisible = false
        progress.addStyle("heading")
        progress.margins(6)
        previewBox.append(progress)
        previewBox.expandsHorizontally = true
        previewBox.expandsVertically = true
        problem.isVisible = false
        problem.expandsHorizontally = true
        problem.expandsVertically = true
        root.append(column)

        let side = Box(.vertical, spacing: 6)
        let heading = Label("Read", style: "heading")
        heading.leftAligned()
        side.append(heading)
        list.set(placeholder: Label("Codes and text read appear here.", style: "dim-label"))
        list.onActivate { [unowned self] index in self.act(on: self.found[index]) }
        let scrolled = Scrolled(list)
        scrolled.expandsVertically = true
        side.append(scrolled)
        side.margins(12)
        side.minimumSize(width: 340)
        root.append(side)

        preview.onPick = { [unowned self] id in if let item = self.inView[id] { self.act(on: item) } }
        preview.onRegion = { [unowned self] region in self.setRegion(region) }
        root.onKeyPress { [unowned self] key, control in
            guard control, key == "v" else { return false }
            self.paste()
            return true
        }
        root.onDropFiles { [unowned self] paths in
            guard let path = paths.first else { return false }
            self.scanImage(path)
            return true
        }
    }

    // MARK: Running

    /// Starts the feed the first time the page is shown.
    func setActive(_ active: Bool) {
        guard active, !started else { return }
        started = true
        trace?.write(["event": .string("start")])
        start()
    }

    func stop() { feed?.stop() }

    private func start() {
        switch context.options.source {
        case .stream(let path): start(.stream(path))
        case .camera(let path):
            let cameras = VideoDevices.list().map(VideoDevices.probe).filter(\.canCapture)
            guard let chosen = path ?? cameras.first?.path else { return showProblem(.noDevice, device: nil) }
            self.cameras = cameras
            addCameraPickers(chosen: chosen)
            start(.camera(chosen, size: cameraSize))
        }
    }

    /// Starts reading `source`, ending the feed before it; what that one still posts is dropped.
    private func start(_ source: LiveFeed.Source) {
        feed?.stop()
        generation += 1
        let generation = self.generation
        let intake = Intake(reader: Reader(keys: context.keyringKeys()),
                            keeping: .inbox(open: { [context] () throws(InboxError) -> Inbox in try context.openInbox() },
                                            dedupe: context.dedupePolicy),
                            oncePerSession: true)
        let pool = TextRecognizerPool(layout: .sparse)
        feed = LiveFeed(source: source, intake: intake, textPool: pool) { [weak self] update in
            guard let self, self.generation == generation else { return }
            self.handle(update)
        }
        for id in inView.keys { preview.outlines[id] = nil }
        inView.removeAll()
        feed?.update { [kinds, readsText, region = preview.region] in
            $0.symbologies = kinds.symbologies
            $0.readsText = readsText
            $0.region = region
        }
        feed?.start()
    }

    private var generation = 0
    private var cameras: [VideoDeviceInfo] = []
    private var cameraSize: LiveFeed.CameraSize? = LiveFeed.CameraSize(width: 1280, height: 720)
    private static let sizes = [LiveFeed.CameraSize(width: 640, height: 480), LiveFeed.CameraSize(width: 1280, height: 720),
                                LiveFeed.CameraSize(width: 1920, height: 1080)]

    /// A camera picker (when there is more than one) and a resolution picker in the toolbar.
    private func addCameraPickers(chosen: String) {
        var first: Widget?
        if cameras.count > 1 {
            let names = cameras.map { ($0.card ?? $0.path) + " (" + $0.path + ")" }
            let picker = DropDown(names, name: "Camera") { [unowned self] index in
                self.start(.camera(self.cameras[index].path, size: self.cameraSize))
            }
            picker.selected = cameras.firstIndex { $0.path == chosen } ?? 0
            toolbar.insert(picker, after: nil)
            first = picker
        }
        let sizes = DropDown(Self.sizes.map { "\($0.width)×\($0.height)" }, name: "Resolution") { [unowned self] index in
            self.cameraSize = Self.sizes[index]
            guard case .camera(let path, _)? = self.feed?.source else { return }
            self.start(.camera(path, size: self.cameraSize))
        }
        sizes.selected = 1
        toolbar.insert(sizes, after: first)
    }

    private func handle(_ update: LiveFeed.Update) {
        switch update {
        case .opened(let width, let height):
            status.text = "\(width)×\(height)"
        case let .frame(number, picture):
            preview.show(picture)
            let size = preview.drawnSize
            if size != previewSize {
                // The preview was laid out or resized: frames from now on are made to fit it.
                previewSize = size
                feed?.update { $0.previewSize = size }
            }
            feed?.frameShown()
            trace?.frameShown(number)
        case .codes(let events):
            for event in events { track(event) }
        case let .outcome(outcome, trackID):
            received(outcome, trackID: trackID)
        case .text(let events):
            for event in events { track(event) }
        case .guidance(let guidance):
            // Only while nothing at all is in view: text read is something read.
            status.text = guidance.flatMap { inView.isEmpty ? "Nothing read yet: " + $0.rawValue : nil } ?? ""
        case .ended(let frames):
            status.text = "End of stream after \(frames) frames"
            pauseButton.isSensitive = false
        case .failed(let error):
            showProblem(error, device: feed?.source)
        case .textUnavailable(let reason):
            context.toast("Text cannot be read: " + reason)
        case .readerFailed(let reason):
            context.toast("A code reader failed, the others go on: " + reason)
        }
    }

    // MARK: What is read

    func track(_ event: ScanEvent) {
        // A part of a larger message is outlined with its number, not listed: the message
        // it belongs to is listed once it is whole.
        if case .piece(let piece) = Classification(event.detection) {
            if event.kind == .remove {
                preview.outlines[event.id] = nil
            } else {
                preview.outlines[event.id] = .init(kind: .code, corners: event.detection.corners,
                                                   label: "Part \(piece.index + 1) of \(piece.totalParts)")
                if event.kind == .add { trace?.write(["event": .string("outline-added"), "id": .int(event.id), "frame": .int(event.frame)]) }
            }
            return
        }
        switch event.kind {
        case .add, .update:
            let item = inView[event.id] ?? item(for: .code(event.detection))
            inView[event.id] = item
            preview.outlines[event.id] = .init(kind: .code, corners: event.detection.corners,
                                               label: ItemText.name(item.summary.kind) + " · " + item.preview(28))
            if event.kind == .add { trace?.write(["event": .string("outline-added"), "id": .int(event.id), "frame": .int(event.frame)]) }
        case .remove:
            inView[event.id] = nil
            preview.outlines[event.id] = nil
        }
    }

    private func track(_ event: TextEvent) {
        let id = -event.id
        switch event.kind {
        case .add, .update:
            let item = inView[id] ?? item(for: .text(event.block))
            inView[id] = item
            // Text is outlined without a label, which would cover the line above it; the list
            // and a click give what it says.
            preview.outlines[id] = .init(kind: .text, corners: event.block.corners, label: "")
            if event.kind == .add { status.text = "" }
        case .remove:
            inView[id] = nil
            preview.outlines[id] = nil
        }
    }

    private func clearText() {
        for id in inView.keys where id < 0 {
            inView[id] = nil
            preview.outlines[id] = nil
        }
    }

    /// The item already found with the same content, or a new one at the top of the list.
    func item(for subject: FoundItem.Subject) -> FoundItem {
        let fresh = FoundItem(subject: subject)
        if let existing = found.first(where: { $0.key == fresh.key }) { return existing }
        found.insert(fresh, at: 0)
        list.prepend(fresh.row)
        return fresh
    }

    func received(_ outcome: Outcome, trackID: Int?) {
        if let failure = outcome.inboxFailure { context.toast("Not kept: " + failure.description) }
        if case .piece(let piece) = outcome.event {
            let p = piece.progress
            if let completed = piece.completed {
                progress.isVisible = false
                if !completed.isRepeat || found.first(where: { $0.key == FoundItem(subject: .message(completed)).key }) == nil {
                    let item = self.item(for: .message(completed))
                    item.update(outcome)
                    context.toast("Message complete: \(completed.size) bytes from \(p.totalParts) parts")
                    context.inboxChanged()
                    act(on: item)
                }
            } else {
                progress.text = "Message \(p.idText): \(min(p.have, p.dataParts)) of \(p.dataParts) parts"
                progress.isVisible = true
            }
            return
        }
        let item = trackID.flatMap { inView[$0] } ?? self.item(for: outcome.detection.map { .code($0) } ?? .text(TextBlock(lines: [], confidence: 0, box: Region(x: 0, y: 0, width: 0, height: 0))))
        item.update(outcome)
        if outcome.kept?.isRepeat == false { context.inboxChanged() }
        // The keys page asked for a recipient's code: the first one read goes back there.
        if let handOver = context.recipientScanned, item.summary.kind == .recipient, let text = item.text {
            handOver(text.trimmingWhitespace())
        }
        if let trackID, let old = preview.outlines[trackID] {
            preview.outlines[trackID] = .init(kind: old.kind, corners: old.corners,
                                              label: ItemText.name(item.summary.kind) + " · " + item.preview(28))
        }
    }

    // MARK: Actions

    func act(on item: FoundItem) {
        ScanActions(item: item, context: context, parent: root) { [weak self] action in
            self?.perform(action, on: item)
        }.present()
    }

    private func perform(_ action: ScanActions.Follow, on item: FoundItem) {
        switch action {
        case .unlock(let passphrase):
            guard let outcome = item.outcome, let feed else { return }
            feed.withIntake({ $0.reopen(outcome, with: .passphrase(passphrase)) }, done: { [weak self] opened in
                guard let self else { return }
                if case .failed(let error) = opened.content {
                    // Asked again, saying why; the item stays locked.
                    return PassphraseDialog.ask(parent: self.root, problem: error) { [weak self] passphrase in
                        self?.perform(.unlock(passphrase), on: item)
                    }
                }
                item.update(opened)
                if case .opened(let payload) = item.content, let id = item.inboxID {
                    self.context.remember(opened: payload, inboxID: id)
                }
                self.act(on: item)
            })
        case .keep:
            guard let feed else { return }
            let source = feed.sourceName
            if case .text(let block) = item.subject {
                feed.withIntake({ $0.take([block], from: source)[0] }, done: { [weak self] outcome in
                    item.update(outcome)
                    self?.context.toast(outcome.kept.map { "Kept in the inbox (item \($0.id))" } ?? "Not kept")
                    self?.context.inboxChanged()
                })
            }
        }
    }

    // MARK: Region, kinds

    private func setRegion(_ region: Region?) {
        preview.region = region
        feed?.update { $0.region = region }
        if region == nil { regionButton.isActive = false }
    }

    private func kindsMenu() -> Box {
        let box = Box(.vertical, spacing: 4)
        box.margins(8)
        for choice in SymbologyChoice.allCases {
            box.append(CheckButton(choice.title, active: true) { [unowned self] on in
                if on { self.kinds.insert(choice) } else { self.kinds.remove(choice) }
                let symbologies = self.kinds.symbologies
                self.feed?.update { $0.symbologies = symbologies }
            })
        }
        return box
    }
}
