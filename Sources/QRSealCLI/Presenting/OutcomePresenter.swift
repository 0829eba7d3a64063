import FoundationEssentials
import Glibc
import QRSealKit

/// Shows what the intake hands back, in the form asked for (human lines, raw payloads or
/// JSON), for images and live frames alike; writes the files messages carry to the output
/// folder; and counts what could not be read or opened, for the hints and exit status.
struct OutcomePresenter {
    enum Style { case human, raw, json }

    /// A live frame's event, for the fields a live scan adds.
    struct LiveEvent {
        let kind: String
        let id: Int
        let frame: Int
        /// Seconds into the scan.
        let time: Double

        /// `event` and `id` first, `frame` and `time` last in a JSON object.
        var head: [(String, JSON.Value)] { [("event", .string(kind)), ("id", .int(id))] }
        var timing: [(String, JSON.Value)] { [("frame", .int(frame)), ("time", .number((time * 1000).rounded() / 1000))] }
    }

    let style: Style
    let writer: PayloadWriter
    let outputDirectory: String?
    /// Whether parts wait in the inbox between runs (not with --no-store).
    let partsAreKept: Bool

    private(set) var tally = SealedTally()
    /// Messages this run touched that are still incomplete, by id text, latest progress.
    private(set) var pending: [String: Inbox.PartProgress] = [:]
    /// Messages completed in this run.
    private(set) var completed = 0
    /// Distinct new parts kept in this run, and their bytes, for the rate a live scan shows.
    private(set) var newParts = 0
    private(set) var newBytes = 0
    /// Messages whose file this run wrote (or wrote again), so that it is written once.
    private var written: Set<String> = []

    init(style: Style, writer: PayloadWriter, outputDirectory: String?, partsAreKept: Bool) {
        self.style = style
        self.writer = writer
        self.outputDirectory = outputDirectory
        self.partsAreKept = partsAreKept
    }

    /// Counts a failure reported elsewhere, for the exit status.
    mutating func countFailure() { tally.failed += 1 }

    /// Counts an outcome shown elsewhere (live text, shown as its lines settle), and
    /// reports the inbox's failure to keep it.
    mutating func count(_ outcome: Outcome, console: Console) {
        if let content = outcome.content { tally.count(content, source: outcome.source.name, console: console) }
        if let failure = outcome.inboxFailure {
            tally.failed += 1
            report(CLIError(failure), outcome, console)
        }
    }

    /// Shows one outcome; `live` gives a live frame's event (its time also gives the rate
    /// parts arrive at). Returns true when it completed a message.
    @discardableResult
    mutating func present(_ outcome: Outcome, live: LiveEvent? = nil, console: Console) -> Bool {
        var completedNow = false
        switch outcome.event {
        case .message(let content):
            switch outcome.subject {
            case .symbol(let d): symbol(d, content, outcome, live: live, console: console)
            case .text(let block): text(block, content, outcome, console: console)
            case .pasted, .file: break
            }
        case .piece(let piece):
            completedNow = self.piece(piece, outcome, live: live, console: console)
        case .damagedPiece(let error):
            tally.failed += 1
            report(CLIError(message: "\(outcome.source.name): \(error.description)"), outcome, console)
        }
        if let failure = outcome.inboxFailure {
            tally.failed += 1
            report(CLIError(failure), outcome, console)
        }
        return completedNow
    }

    // MARK: Whole messages

    private mutating func symbol(_ d: Detection, _ content: Reader.Content, _ outcome: Outcome, live: LiveEvent?,
                                 console: Console) {
        let name = outcome.source.name
        if let live, live.kind != "add" {
            // Codes stay in view for many frames: their updates and removals are events in JSON only.
            if style == .json {
                console.print(JSON.line(live.head + OutcomeForms.symbolFields(d, source: name, exactCorners: false)
                                        + inboxID(outcome) + live.timing))
            }
            return
        }
        if !outcome.isSeenBefore { tally.count(content, source: name, console: console) }
        var fileNote: String?
        var writeError: CLIError?
        if case .opened(.file(let fileName, let bytes)) = content {
            if outcome.isSeenBefore {
                fileNote = "file \(DisplayText.escape(PayloadWriter.fileName(fileName))) (\(bytes.count) bytes), read before"
            } else {
                (fileNote, writeError) = writer.save(bytes, named: fileName, in: outputDirectory, console: console)
            }
        }
        switch style {
        case .human:
            console.print(OutcomeForms.humanLine(source: name, d, content, fileNote: fileNote))
        case .raw:
            switch content {
            // Text ends its line; binary data comes back byte for byte, nothing added.
            case .plain: console.write(Data(d.bytes + (d.text == nil ? [] : [0x0A])))
            case .opened(.text(let text)): console.print(text)
            case .opened(.file): console.printError("qrseal: \(DisplayText.escape(name)): \(fileNote ?? "")")
            case .locked, .failed: break
            }
        case .json:
            if let live {
                console.print(JSON.line(live.head + OutcomeForms.symbolFields(d, source: name, exactCorners: false)
                                        + inboxID(outcome) + OutcomeForms.sealedFields(content, fileNote: fileNote)
                                        + live.timing))
            } else {
                console.print(JSON.line(OutcomeForms.symbolFields(d, source: name) + OutcomeForms.symbolDetails(d)
                                        + inboxID(outcome) + OutcomeForms.sealedFields(content, fileNote: fileNote)))
            }
        }
        if let writeError { tally.failed += 1; report(writeError, outcome, console) }
    }

    /// A text block of an image (live text is shown by `LiveEvents`, line by line as it settles).
    private mutating func text(_ block: TextBlock, _ content: Reader.Content, _ outcome: Outcome, console: Console) {
        let name = outcome.source.name
        if !outcome.isSeenBefore { tally.count(content, source: name, console: console) }
        switch style {
        case .raw:
            for line in OutcomeForms.rawTextLines(block, content) { console.print(line) }
        case .human:
            for line in OutcomeForms.textLines(source: name, block, content) { console.print(line) }
        case .json:
            console.print(JSON.line(OutcomeForms.textFields(source: name, block, content, inboxID: outcome.kept?.id)))
        }
    }

    private func inboxID(_ outcome: Outcome) -> [(String, JSON.Value)] {
        outcome.kept.map { [("inbox_id", .int(Int($0.id)))] } ?? []
    }

    // MARK: Pieces

    /// Says where a piece's message stands; shows the message when the piece completed it.
    private mutating func piece(_ piece: PieceEvent, _ outcome: Outcome, live: LiveEvent?, console: Console) -> Bool {
        guard let d = outcome.detection else { return false }
        let name = outcome.source.name
        let progress = piece.progress
        for dropped in piece.dropped { Diagnostics.dropped(dropped, console: console) }
        let label = "part \(piece.index + 1) of \(progress.totalParts) of message \(progress.idText)"
        let isNewPart: Bool
        switch piece.state {
        case .waiting(let isNew): isNewPart = isNew
        case .conflicting: isNewPart = true
        case .complete(let message): isNewPart = !message.isRepeat
        case .damaged: isNewPart = false
        }
        if isNewPart, case .piece(let filed) = outcome.classification {
            newParts += 1
            newBytes += filed.bytes.count
        }
        var extra = live?.timing ?? []
        var rate = ""
        if let elapsed = live?.time, elapsed > 0 {
            let kbps = (Double(newBytes) / 1000 / elapsed * 10).rounded() / 10
            rate = ", \(kbps) KB/s"
            extra.insert(("kb_per_s", .number(kbps)), at: 0)
        }
        switch piece.state {
        case .waiting(let isNew):
            pending[progress.idText] = progress
            if isNew { partLine(name, d, "\(label) (\(progress.text)\(rate))", piece, extra, console) }
        case .conflicting(let other):
            pending[progress.idText] = progress
            report(CLIError(message: "\(name): \(label) does not belong with the \(other.have) parts of "
                            + "message \(other.idText) seen before (other part counts or length): kept apart"), outcome, console)
            partLine(name, d, "\(label) (\(progress.text)), kept apart", piece, extra, console)
        case .damaged(let error):
            tally.failed += 1
            pending[progress.idText] = nil
            report(CLIError(message: "\(name): message \(progress.idText): \(error.description); nothing was written",
                            hints: [damagedHint(progress)]), outcome, console)
        case .complete(let message) where message.isRepeat:
            pending[progress.idText] = nil
            repeated(message, progress, label: label, outcome, live: live, console: console)
        case .complete(let message):
            pending[progress.idText] = nil
            completed += 1
            complete(message, progress, d, outcome, extra: extra, console: console)
            return true
        }
        return false
    }

    /// A piece of a message complete before: its file, which the first scan may not have
    /// written, is written when an output folder is given (once a run); an image scan says so.
    private mutating func repeated(_ message: CompletedMessage, _ progress: Inbox.PartProgress, label: String,
                                   _ outcome: Outcome, live: LiveEvent?, console: Console) {
        var fileNote: String?
        var writeError: CLIError?
        if let outputDirectory, case .opened(.file(let fileName, let bytes)) = message.content,
           written.insert(progress.idText).inserted {
            (fileNote, writeError) = writer.saveAgain(bytes, named: fileName, in: outputDirectory, console: console)
        }
        // Live frames show each part again and again: only image scans say so, or a file written.
        if style == .human, live == nil || fileNote != nil, let d = outcome.detection {
            let before = outcome.kept.map { "message received before (inbox item \($0.id))" } ?? "message complete already"
            console.print(DisplayText.escape(outcome.source.name) + ": " + d.symbology.displayName + ": \(label): "
                          + before + (fileNote.map { ": " + $0 } ?? ""))
        } else if style == .raw, let fileNote {
            console.printError("qrseal: \(DisplayText.escape(outcome.source.name)): \(fileNote)")
        }
        if let writeError { tally.failed += 1; report(writeError, outcome, console) }
    }

    /// The rebuilt message: counted, its file written, shown.
    private mutating func complete(_ message: CompletedMessage, _ progress: Inbox.PartProgress, _ d: Detection,
                                   _ outcome: Outcome, extra: [(String, JSON.Value)], console: Console) {
        let content = message.content
        let name = outcome.source.name
        tally.count(content, source: name, console: console)
        var fileNote: String?
        var writeError: CLIError?
        if case .opened(.file(let fileName, let bytes)) = content {
            (fileNote, writeError) = writer.save(bytes, named: fileName, in: outputDirectory, console: console)
            if outputDirectory != nil { written.insert(progress.idText) }
        }
        let item = message.item
        let head = "message \(progress.idText) complete (\(progress.have) of \(progress.totalParts) parts)"
        switch style {
        case .human:
            let body: String
            switch content {
            case .plain: body = item.text.map { DisplayText.escape($0) } ?? "<\(item.bytes.count) bytes of binary data>"
            case .opened(.text(let text)): body = DisplayText.escape(text)
            case .opened(.file): body = fileNote ?? ""
            case let .locked(kind, size): body = "<not opened: \(size) bytes, for a \(kind)>"
            case .failed(let error): body = "<not opened: \(error.description)>"
            }
            console.print(DisplayText.escape(name) + ": " + d.symbology.displayName + (message.isSealed ? " [sealed]" : "")
                          + ": " + head + ": " + body)
        case .raw:
            switch content {
            case .plain: console.write(Data(item.bytes + [0x0A]))
            case .opened(.text(let text)): console.print(text)
            case .opened(.file): console.printError("qrseal: \(DisplayText.escape(name)): \(fileNote ?? "")")
            case .locked, .failed: break
            }
        case .json:
            var fields: [(String, JSON.Value)] = [
                ("event", .string("message")), ("source", .string(name)), ("message_id", .string(progress.idText)),
                ("parts", .int(progress.have)), ("total_parts", .int(progress.totalParts)),
                ("data_parts", .int(progress.dataParts)), ("size", .int(message.size)),
            ]
            if !message.isSealed {
                if case .plain = content, let text = item.text { fields.append(("text", .string(text))) }
                if case .opened(.text(let text)) = content { fields.append(("text", .string(text))) }
            }
            fields += inboxID(outcome)
            if message.isSealed { fields += OutcomeForms.sealedFields(content, fileNote: fileNote) }
            else if case .opened(.file(let fileName, let bytes)) = content {
                fields += [("file_name", .string(PayloadWriter.fileName(fileName))), ("file_size", .int(bytes.count))]
            }
            console.print(JSON.line(fields + extra))
        }
        if let writeError { tally.failed += 1; report(writeError, outcome, console) }
    }

    private func partLine(_ source: String, _ d: Detection, _ text: String, _ piece: PieceEvent,
                          _ extra: [(String, JSON.Value)], _ console: Console) {
        let progress = piece.progress
        switch style {
        case .human: console.print(DisplayText.escape(source) + ": " + d.symbology.displayName + ": " + text)
        case .raw: break
        case .json:
            console.print(JSON.line([
                ("event", .string("part")), ("source", .string(source)), ("format", .string(d.symbology.displayName)),
                ("message_id", .string(progress.idText)), ("part", .int(piece.index + 1)),
                ("total_parts", .int(progress.totalParts)), ("data_parts", .int(progress.dataParts)),
                ("have", .int(progress.have)), ("needed", .int(progress.needed)),
            ] + extra))
        }
    }

    /// What helps a message whose pieces are enough in number but rebuild no message that
    /// passes its check: the sender's own pieces, scanned again, are tried with the others.
    private func damagedHint(_ progress: Inbox.PartProgress) -> String {
        let what = progress.isStructuredAppend
            ? "its codes may be of two sequences with the same count and parity, or misread"
            : "a part of it is not the sender's (misread, altered or forged)"
        guard partsAreKept else { return what + ": scan the sender's codes again, all in one run" }
        return what + ": its parts wait in the inbox; scan the sender's codes of it again to complete it, "
            + "or drop it with: qrseal inbox rm --waiting \(progress.idText)"
    }

    private func report(_ error: CLIError, _ outcome: Outcome, _ console: Console) {
        Diagnostics.report(error, console: console, source: outcome.source.name)
    }

    /// At the end of a run: one hint per message still incomplete.
    /// Says that `source` held no code (nor text, when `text` was asked for): a line on
    /// standard error, or with --json an event `{"event":"nothing_found","source":…}` among
    /// the codes, so that every input given is accounted for.
    func nothingFound(_ source: String, text: Bool, console: Console) {
        let what = text ? "no code or text found" : "no code found"
        switch style {
        case .json: console.print(JSON.line([("event", .string("nothing_found")), ("source", .string(source))]))
        case .human, .raw: console.printError("qrseal: " + DisplayText.escape("\(source): \(what)"))
        }
    }

    func printPending(console: Console) {
        for progress in pending.values.sorted(by: { $0.idText < $1.idText }) {
            Diagnostics.hint("message \(progress.idText): \(progress.text); "
                             + (partsAreKept ? "its parts wait in the inbox: scan any \(progress.needed) more of the others"
                                : "with --no-store its parts are not kept: scan them all in one run"),
                             console: console)
        }
    }
}
