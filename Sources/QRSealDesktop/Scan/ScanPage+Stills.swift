import Foundation
import QRSealKit

/// What the scan page reads besides the live feed: an image file (chosen, dropped or from the
/// screen), a pasted picture or pasted text. A still is shown in place of the preview (which
/// pauses), and what it holds goes through the same intake as the feed's reads.
extension ScanPage {
    func openImage() {
        FileChooser.ask(.open, title: "Open an image", parent: root, accept: "_Open",
                        patterns: [("Images", "*.png"), ("Images", "*.jpg"), ("Images", "*.jpeg"), ("Images", "*.pnm")]) {
            [weak self] path in if let path { self?.scanImage(path) }
        }
    }

    /// Reads a still image file: it is shown in place of the preview (which pauses), its codes
    /// outlined and listed, and what they hold goes through the intake.
    func scanImage(_ path: String) {
        let reader = Reader(keys: context.keyringKeys())
        scanStill(named: DisplayText.escape(path), source: .file(path)) {
            guard let data = FileManager.default.contents(atPath: path) else { throw StillFailure("cannot read the file") }
            return try reader.decoder.decode([UInt8](data))
        }
    }

    /// Pastes what the clipboard holds: a picture is scanned as an image; text goes to the
    /// intake as pasted text (a sealed message a phone copied opens here).
    func paste() {
        root.clipboard.read { [weak self] contents in
            guard let self else { return }
            switch contents {
            case .picture(let width, let height, let rgba):
                self.scanStill(named: "pasted picture", source: IntakeSource(name: "pasted picture", recorded: "clipboard", kind: .file)) {
                    GrayImage(rgba: rgba, width: width, height: height)
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

    private func scanStill(named name: String, source: IntakeSource, load: @escaping () throws -> GrayImage) {
        pauseButton.isActive = true
        let detector = Reader().detector
        let loader = UncheckedBox(load)
        let size = preview.drawnSize
        Worker.run({ () -> Result<(PreviewImage, [Detection]), any Error> in
            Result { () throws -> (PreviewImage, [Detection]) in
                let image = try loader.value()
                return (PreviewImage(Frame(number: 0, time: 0, image: image), fitting: size), detector.detect(in: image))
            }
        }, then: { [weak self] result in
            guard let self else { return }
            switch result {
            case .failure(let error):
                self.context.toast("\(name): \(error)")
            case .success(let (picture, detections)):
                self.problem.isVisible = false
                self.previewBox.isVisible = true
                self.preview.show(picture)
                self.inView.removeAll()
                self.preview.outlines.removeAll()
                if detections.isEmpty { self.context.toast("No code found in \(name)") }
                for (i, d) in detections.enumerated() {
                    self.track(ScanEvent(kind: .add, id: 1_000_000 + i, detection: d, frame: 0, time: 0))
                }
                self.takeStill(detections, source: source, firstID: 1_000_000)
            }
        })
    }

    /// An intake for what is read without a live feed (no camera): kept as the feed's would be.
    private func oneOffIntake() -> Intake {
        Intake(reader: Reader(keys: context.keyringKeys()),
               keeping: .inbox(open: { [context] () throws(InboxError) -> Inbox in try context.openInbox() },
                               dedupe: context.dedupePolicy))
    }

    private func takeStill(_ detections: [Detection], source: IntakeSource, firstID: Int) {
        guard let feed else {
            for (i, outcome) in oneOffIntake().take(detections, from: source).enumerated() { received(outcome, trackID: firstID + i) }
            return
        }
        feed.withIntake({ $0.take(detections, from: source) }, done: { [weak self] outcomes in
            for (i, outcome) in outcomes.enumerated() { self?.received(outcome, trackID: firstID + i) }
        })
    }
}


/// Why a still image could not be read, beside the decoder's own errors.
struct StillFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
