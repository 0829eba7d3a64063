import FoundationEssentials
import Glibc
import QRSealKit

/// What the scan page reads besides the live feed: an image file (chosen, dropped or from the
/// screen), a pasted picture or pasted text. A still is shown in place of the preview (which
/// pauses), and what it holds goes through the same intake as the feed's reads.
extension ScanPage {
    func openImage() {
        let kinds = ["png", "jpg", "jpeg", "pnm", "pgm", "ppm", "bmp", "gif", "tif", "tiff", "webp", "pdf", "svg"]
        FileChooser.ask(.open, title: "Open an image", parent: root, accept: "_Open",
                        patterns: kinds.flatMap { [("Images and documents", "*." + $0), ("Images and documents", "*." + $0.uppercased())] }) {
            [weak self] path in if let path { self?.scanImage(path) }
        }
    }

    /// Reads an image file (any format the library reads, every page or frame of it): the
    /// first picture holding a code is shown in place of the preview (which pauses), its codes
    /// outlined; every code of every picture is listed, and what they hold goes through the
    /// intake, named by page or frame.
    func scanImage(_ path: String) {
        let decoder = Reader().decoder
        scanStill(named: DisplayText.escape(path)) { each in
            guard let data = FileManager.default.contents(atPath: path) else { throw StillFailure("cannot read the file") }
            try decoder.decodeEach([UInt8](data)) { image, part in each(image, .file(path, part: part?.description)) }
        }
    }

    /// Pastes what the clipboard holds: a picture is scanned as an image; text goes to the
    /// intake as pasted text (a sealed message a phone copied opens here).
    func paste() {
        root.clipboard.read { [weak self] contents in
            guard let self else { return }
            switch contents {
            case .picture(let width, let height, let rgba):
                self.scanStill(named: "pasted picture") { each in
                    each(GrayImage(rgba: rgba, width: width, height: height),
                         IntakeSource(name: "pasted picture", recorded: "clipboard", kind: .file))
                }
            case .text(let text):
                self.takePasted(text)
            case .nothing:
                self.context.toast("The clipboard holds no picture or text")
            }
        }
    }

    private func takePasted(_ text: String) {
        let source = IntakeSource(name: "pasted text", recorded: "clipboard", kind: .file)
        let done: (Outcome) -> Void = { [weak self] outcome in
            guard let self else { return }
            let item = self.item(for: .pasted(text))
            item.update(outcome)
            if outcome.kept?.isRepeat == false { self.context.inboxChanged() }
            self.act(on: item)
        }
        if let feed {
            feed.withIntake({ $0.take(pasted: text, from: source) }, done: done)
        } else {
            done(oneOffIntake().take(pasted: text, from: source))
        }
    }

    func scanScreen() {
        ScreenshotPortal.take { [weak self] path in
            guard let self else { return }
            guard let path else { return self.context.toast("No screenshot was taken") }
            self.scanImage(path)
        }
    }

    /// What one picture of a still gave.
    private struct StillPicture {
        let source: IntakeSource
        let detections: [Detection]
    }

    /// Reads the pictures `load` hands over (one, or a document's pages), each as it comes, on
    /// a worker; only the picture shown is kept whole.
    private func scanStill(named name: String,
                           load: @escaping (_ each: (GrayImage, IntakeSource) -> Void) throws -> Void) {
        pauseButton.isActive = true
        let detector = Reader().detector
        let loader = UncheckedBox(load)
        let size = preview.drawnSize
        typealias Read = (pictures: [StillPicture], shown: PreviewImage?, shownIndex: Int)
        Worker.run({ () -> Result<Read, any Error> in
            Result { () throws -> Read in
                var read: Read = ([], nil, 0)
                try loader.value { image, source in
                    let detections = detector.detect(in: image)
                    if read.shown == nil || (!detections.isEmpty && read.pictures[read.shownIndex].detections.isEmpty) {
                        read.shown = PreviewImage(Frame(number: 0, time: 0, image: image), fitting: size)
                        read.shownIndex = read.pictures.count
                    }
                    read.pictures.append(StillPicture(source: source, detections: detections))
                }
                return read
            }
        }, then: { [weak self] result in
            guard let self else { return }
            switch result {
            case .failure(let error):
                self.context.toast("\(name): \(error)")
            case .success(let read):
                guard let shown = read.shown else { return self.context.toast("\(name): no picture in it") }
                self.problem.isVisible = false
                self.previewBox.isVisible = true
                self.preview.show(shown)
                self.inView.removeAll()
                self.preview.outlines.removeAll()
                let count = read.pictures.reduce(0) { $0 + $1.detections.count }
                if count == 0 {
                    self.context.toast("No code found in \(name)")
                } else if read.pictures.count > 1 {
                    self.context.toast("\(count) codes read from \(read.pictures.count) pages or frames of \(name)")
                }
                // Outlines for the picture shown; the others' codes are listed.
                for (i, d) in read.pictures[read.shownIndex].detections.enumerated() {
                    self.track(ScanEvent(kind: .add, id: Self.stillIDs + i, detection: d, frame: 0, time: 0))
                }
                self.takeStill(read.pictures, shownIndex: read.shownIndex)
            }
        })
    }

    /// Track ids of a still's outlines, above any a live feed gives.
    private static let stillIDs = 1_000_000

    /// An intake for what is read without a live feed (no camera): kept as the feed's would be.
    private func oneOffIntake() -> Intake {
        Intake(reader: Reader(keys: context.keyringKeys()),
               keeping: .inbox(open: { [context] () throws(InboxError) -> Inbox in try context.openInbox() },
                               dedupe: context.dedupePolicy))
    }

    /// Hands every picture's codes to the intake in order, in one intake, so that the parts of
    /// a message spread over a document's pages come together.
    private func takeStill(_ pictures: [StillPicture], shownIndex: Int) {
        let take = { (intake: Intake) in pictures.map { intake.take($0.detections, from: $0.source) } }
        let done = { [weak self] (outcomes: [[Outcome]]) in
            for (index, picture) in outcomes.enumerated() {
                for (i, outcome) in picture.enumerated() {
                    self?.received(outcome, trackID: index == shownIndex ? Self.stillIDs + i : nil)
                }
            }
        }
        if let feed {
            feed.withIntake(take, done: done)
        } else {
            let work = UncheckedBox((take, oneOffIntake()))
            Worker.run({ UncheckedBox(work.value.0(work.value.1)) }, then: { done($0.value) })
        }
    }
}

/// Why a still image could not be read, beside the decoder's own errors.
struct StillFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
