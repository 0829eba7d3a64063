import FoundationEssentials
import Glibc
import QRSealKit

/// What a live scan does with each event of its session: hands the code or text to the
/// intake (which opens and keeps each content once a session), shows the outcome (one line
/// per add, or every event as JSON), rings the bell; and the counts its summary comes from.
struct LiveEvents {
    let source: IntakeSource
    let beep: Bool
    let intake: Intake
    private(set) var presenter: OutcomePresenter

    /// Add events (a code that leaves and comes back is added again).
    private(set) var added = 0
    /// Text blocks added (stable), as `added` counts codes.
    private(set) var textAdded = 0
    /// Distinct codes and texts kept in the inbox during this scan.
    private(set) var kept = 0
    /// For each text block by id: its lines last printed, what it holds, and its inbox id.
    private var textLines: [Int: Set<String>] = [:]
    private var textOutcomes: [Int: Outcome] = [:]
    private var ask = PassphraseAsk()

    /// Messages in parts completed in this scan.
    var messagesComplete: Int { presenter.completed }

    init(source: IntakeSource, beep: Bool, intake: Intake, presenter: OutcomePresenter) {
        self.source = source
        self.beep = beep
        self.intake = intake
        self.presenter = presenter
    }

    /// Handles one code event. Errors (an inbox that cannot be written, a file that cannot be
    /// saved) are reported and counted; the scan goes on.
    mutating func handle(_ event: ScanEvent, console: Console) {
        let live = OutcomePresenter.LiveEvent(kind: event.kind.rawValue, id: event.id, frame: event.frame, time: event.time)
        let isPiece = Classification(event.detection).isPiece
        // Parts come and go all the time in a stream of them: only their coming into view
        // counts, as it may bring one the inbox lacks (a frame that cycles parts shows each many times).
        if isPiece && event.kind != .add { return }
        var outcome = intake.take([event.detection], from: source)[0]
        if event.kind == .add {
            added += 1
            outcome = reopen(outcome, console: console)
            if !outcome.isSeenBefore, !isPiece, outcome.kept?.isRepeat == false { kept += 1 }
        }
        let completed = presenter.present(outcome, live: live, console: console)
        if beep, event.kind == .add, completed || (!isPiece && !outcome.isSeenBefore) { console.writeError(Data([0x07])) }
    }

    /// Handles one text event: a block's lines printed once it is stable and again as they
    /// change (each new line once), a printed sealed message opened, each stable text kept
    /// in the inbox once; `--json` gives every event.
    mutating func handle(_ event: TextEvent, console: Console) {
        let block = event.block
        let live = OutcomePresenter.LiveEvent(kind: event.kind.rawValue, id: event.id, frame: event.frame, time: event.time)
        if event.textChanged {
            if event.kind == .add { textAdded += 1 }
            let outcome = reopen(intake.take([block], from: source)[0], console: console)
            textOutcomes[event.id] = outcome
            if !outcome.isSeenBefore {
                if outcome.kept?.isRepeat == false { kept += 1 }
                presenter.count(outcome, console: console)
                if beep { console.writeError(Data([0x07])) }
            }
        }
        let outcome = textOutcomes[event.id]
        let content = outcome?.content ?? .plain
        switch presenter.style {
        case .json:
            console.print(JSON.line(live.head + OutcomeForms.textFields(source: source.name, block, content,
                                                                        inboxID: outcome?.kept?.id) + live.timing))
        case .human, .raw:
            guard event.textChanged else { break }
            let before = textLines[event.id] ?? []
            let lines = presenter.style == .raw ? OutcomeForms.rawTextLines(block, content)
                : OutcomeForms.textLines(source: source.name, block, content)
            for line in lines where !before.contains(line) { console.print(line) }
            textLines[event.id] = Set(lines)
        }
        if event.kind == .remove {
            textLines[event.id] = nil
            textOutcomes[event.id] = nil
        }
    }

    /// Counts a failure reported elsewhere, for the exit status.
    mutating func countFailure() { presenter.countFailure() }

    /// Asks once on the terminal for a passphrase when a message needs one and none was given.
    private mutating func reopen(_ outcome: Outcome, console: Console) -> Outcome {
        do { return try ask.reopen([outcome], intake: intake, console: console)[0] } catch {
            presenter.countFailure()
            Diagnostics.report(error, console: console, source: source.name)
            return outcome
        }
    }
}
