import Foundation
import QRSealKit

/// What a live scan does with each event of its session: prints it (one line per add, or
/// every event as JSON), opens sealed messages, keeps each new code in the inbox once, rings
/// the bell; and the counts its summary and exit status come from.
struct LiveEvents {
    /// The device or stream as messages name it ("-" for standard input).
    let name: String
    /// The source as the inbox records it: the device, the stream's absolute path, or "-".
    let inboxSource: String
    let sourceKind: InboxItem.SourceKind
    let style: ScanCommand.Style
    let store: ItemStore?
    let beep: Bool
    let outputDirectory: String?
    let writer: PayloadWriter
    var reader: Reader

    /// Add events (a code that leaves and comes back is added again).
    private(set) var added = 0
    /// Text blocks added (stable), as `added` counts codes.
    private(set) var textAdded = 0
    /// Distinct codes kept in the inbox during this scan.
    private(set) var kept = 0
    /// What could not be read or opened.
    private(set) var tally = SealedTally()
    /// Contents already handled in this scan: each is opened, stored and rung for once.
    private var seen: [Content: Reader.Content] = [:]
    /// The inbox id of each content kept (or found a repeat), for `--json`'s `inbox_id`.
    private var inboxIDs: [Content: Int64] = [:]
    /// The contents of the stable texts already handled, and what opening them gave.
    private var textSeen: [[UInt8]: Reader.Content] = [:]
    /// For each text block by id: its lines last printed, and the inbox id of its text.
    private var textLines: [Int: Set<String>] = [:]
    private var textInboxIDs: [Int: Int64] = [:]
    private var prompted = false

    private struct Content: Hashable {
        let symbology: Symbology
        let bytes: [UInt8]
    }

    /// Parts of larger messages seen in the frames.
    var parts: PartIntake
    /// Messages in parts completed in this scan.
    var messagesComplete: Int { parts.completed }

    init(name: String, inboxSource: String, sourceKind: InboxItem.SourceKind, style: ScanCommand.Style,
         store: ItemStore?, beep: Bool, outputDirectory: String?, writer: PayloadWriter, reader: Reader,
         parts: PartIntake) {
        self.parts = parts
        self.name = name
        self.inboxSource = inboxSource
        self.sourceKind = sourceKind
        self.style = style
        self.store = store
        self.beep = beep
        self.outputDirectory = outputDirectory
        self.writer = writer
        self.reader = reader
    }

    /// Handles one event. Errors (an inbox that cannot be written, a file that cannot be
    /// saved) are reported and counted; the scan goes on.
    mutating func handle(_ event: ScanEvent, console: Console) {
        let key = Content(symbology: event.detection.symbology, bytes: event.detection.bytes)
        guard event.kind == .add else {
            // Parts come and go all the time in a stream of them: only new ones are reported.
            if style == .json, !PartIntake.isPiece(event.detection) { console.print(JSON.line(withInboxID(Self.eventFields(event, name: name), key))) }
            return
        }
        if PartIntake.isPiece(event.detection) {
            // A part counts once, as new, whenever it comes back into view: it may be one the
            // inbox lacks (a frame that cycles parts shows each many times).
            added += 1
            let completed = parts.handle(event.detection, source: name, inboxSource: inboxSource, kind: sourceKind,
                                         reader: &reader, tally: &tally, console: console,
                                         extra: [("frame", .int(event.frame)), ("time", .number((event.time * 1000).rounded() / 1000))],
                                         elapsed: event.time)
            if completed && beep { console.writeError(Data([0x07])) }
            return
        }
        added += 1
        let isNew = seen[key] == nil
        let content = isNew ? open(event.detection, console: console) : seen[key]!
        seen[key] = content
        var fileNote: String?
        var writeError: CLIError?
        if isNew, case .opened(.file(let fileName, let bytes)) = content {
            (fileNote, writeError) = writer.save(bytes, named: fileName, in: outputDirectory, console: console)
        } else if case .opened(.file(let fileName, let bytes)) = content {
            fileNote = "file \(DisplayText.escape(PayloadWriter.fileName(fileName))) (\(bytes.count) bytes), read before"
        }
        // Kept before printing, for the id; an inbox failure is reported after the line.
        var storeError: CLIError?
        if isNew, let store {
            do {
                if let stored = try store.keepOne(event.detection, source: inboxSource, kind: sourceKind) {
                    inboxIDs[key] = stored.id
                    if !stored.isRepeat { kept += 1 }
                }
            } catch {
                storeError = error
            }
        }
        print(event, content, fileNote: fileNote, inboxID: inboxIDs[key], console: console)
        if let writeError { tally.failed += 1; Diagnostics.report(writeError, console: console, source: name) }
        if let storeError { tally.failed += 1; Diagnostics.report(storeError, console: console, source: name) }
        if isNew && beep { console.writeError(Data([0x07])) }
    }

    /// Handles one text event: a block's lines printed once it is stable and again as they
    /// change (each new line once), a printed sealed message opened, each stable text kept
    /// in the inbox once; `--json` gives every event.
    mutating func handle(_ event: TextEvent, console: Console) {
        let block = event.block
        let key = block.sealedArmor ?? Array(block.text.utf8)
        var content = textSeen[key] ?? .plain
        var storeError: CLIError?
        if event.textChanged {
            if event.kind == .add { textAdded += 1 }
            if textSeen[key] == nil {
                content = reader.open(textBlock: block)
                textSeen[key] = content
                tally.count(content, source: name, console: console)
                if let store {
                    do {
                        if let stored = try store.store([TextScan.item(block, source: inboxSource, kind: sourceKind)])?.first {
                            textInboxIDs[event.id] = stored.id
                            if !stored.isRepeat { kept += 1 }
                        }
                    } catch {
                        storeError = error
                    }
                }
                if beep { console.writeError(Data([0x07])) }
            }
        }
        switch style {
        case .json:
            var fields: [(String, JSON.Value)] = [("event", .string(event.kind.rawValue)), ("id", .int(event.id))]
            fields += TextScan.jsonFields(source: name, block, content, inboxID: textInboxIDs[event.id])
            fields += [("frame", .int(event.frame)), ("time", .number((event.time * 1000).rounded() / 1000))]
            console.print(JSON.line(fields))
        case .human, .raw:
            guard event.textChanged else { break }
            let before = textLines[event.id] ?? []
            let lines = style == .raw ? rawLines(block, content) : TextScan.humanLines(source: name, block, content)
            for line in lines where !before.contains(line) { console.print(line) }
            textLines[event.id] = Set(lines)
        }
        if event.kind == .remove { textLines[event.id] = nil }
        if let storeError { tally.failed += 1; Diagnostics.report(storeError, console: console, source: name) }
    }

    /// What `--raw` prints of a block: its lines, or a printed sealed message's opened text.
    private func rawLines(_ block: TextBlock, _ content: Reader.Content) -> [String] {
        switch content {
        case .plain: return block.lines.map(\.text)
        case .opened(.text(let text)): return [text]
        default: return []
        }
    }

    /// Counts a failure reported elsewhere, for the exit status.
    mutating func countFailure() { tally.failed += 1 }

    /// Classifies a code, asking once on the terminal for a passphrase when one is needed
    /// and none was given, and counts what could not be opened. Every frame spends the one
    /// opening budget of the run (docs/FORMAT.md, section 2.5), as the images of a scan do.
    private mutating func open(_ detection: Detection, console: Console) -> Reader.Content {
        var content = reader.classify(detection).content
        if content.isLocked(kind: "passphrase"), !prompted {
            prompted = true
            if let key = try? KeySources.prompt(console: console, confirm: false) {
                reader.keys.append(key)
                content = reader.classify(detection).content
            }
        }
        tally.count(content, source: name, console: console)
        return content
    }

    /// `fields` with `inbox_id` before the timing fields, when the content was kept.
    private func withInboxID(_ fields: [(String, JSON.Value)], _ key: Content) -> [(String, JSON.Value)] {
        guard let id = inboxIDs[key] else { return fields }
        return fields.dropLast(2) + [("inbox_id", .int(Int(id)))] + fields.suffix(2)
    }

    private func print(_ event: ScanEvent, _ content: Reader.Content, fileNote: String?, inboxID: Int64?,
                       console: Console) {
        let d = event.detection
        switch style {
        case .human:
            console.print(ScanCommand.humanLine(source: name, d, content, fileNote: fileNote))
        case .raw:
            switch content {
            case .plain: console.write(Data(d.bytes + [0x0A]))
            case .opened(.text(let text)): console.print(text)
            case .opened(.file): console.printError("qrseal: \(DisplayText.escape(name)): \(fileNote ?? "")")
            case .sealed, .failed: break
            }
        case .json:
            var fields = Self.eventFields(event, name: name)
            let timing = fields.suffix(2)
            fields.removeLast(2)
            if let inboxID { fields.append(("inbox_id", .int(Int(inboxID)))) }
            fields += ScanCommand.sealedFields(content, fileNote: fileNote) + timing
            console.print(JSON.line(fields))
        }
    }

    /// `event`, `id`, the symbol's fields as `scan --json` gives them, `frame` and `time` (last).
    static func eventFields(_ event: ScanEvent, name: String) -> [(String, JSON.Value)] {
        let d = event.detection
        var fields: [(String, JSON.Value)] = [
            ("event", .string(event.kind.rawValue)), ("id", .int(event.id)), ("source", .string(name)),
            ("format", .string(d.symbology.displayName)), ("symbology", .string(d.symbology.rawValue)),
        ]
        if let text = d.text { fields.append(("text", .string(text))) }
        fields.append(("bytes_base64", .string(Data(d.bytes).base64EncodedString())))
        fields.append(("corners", .array(d.corners.map { .array([.number(round($0.x)), .number(round($0.y))]) })))
        fields.append(("frame", .int(event.frame)))
        fields.append(("time", .number((event.time * 1000).rounded() / 1000)))
        return fields
    }

    /// Corner coordinates to a tenth of a pixel: enough, and stable in text.
    private static func round(_ v: Double) -> Double { (v * 10).rounded() / 10 }
}

extension ItemStore {
    /// Stores one code read live: its id and whether the duplicate policy took it for a
    /// repeat; nil when the inbox failed before.
    func keepOne(_ detection: Detection, source: String, kind: InboxItem.SourceKind) throws(CLIError) -> Inbox.Kept? {
        let item = InboxItem(detection: detection, receivedAt: Self.now(), sourceKind: kind, source: source)
        return try store([item])?.first
    }
}
