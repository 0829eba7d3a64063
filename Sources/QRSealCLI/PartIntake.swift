import Foundation
import QRSealKit

/// What `scan` does with symbols that are parts of larger messages (qrseal parts and QR
/// Structured Append), for images and live frames alike: keeps each in the inbox, says where
/// its message stands, and when a part completes a message, opens it (sealed, with the keys
/// given), prints it and writes a file it carries, as for a single symbol.
struct PartIntake {
    let style: ScanCommand.Style
    /// Where parts wait: the inbox, or with --no-store a temporary one for this run, made
    /// at the first part.
    private var store: ItemStore?
    private let makeStore: () throws(CLIError) -> ItemStore
    let outputDirectory: String?
    let writer: PayloadWriter

    /// Messages this run touched that are still incomplete, by id text, latest progress.
    private(set) var pending: [String: Inbox.PartProgress] = [:]
    /// Messages completed in this run.
    private(set) var completed = 0
    /// Distinct new parts kept in this run.
    private(set) var newParts = 0
    /// Bytes of the parts kept in this run, for the rate a live scan shows.
    private(set) var newBytes = 0

    init(style: ScanCommand.Style, store: ItemStore?, outputDirectory: String?, writer: PayloadWriter) {
        self.style = style
        self.store = store
        isTemporary = store == nil
        makeStore = { () throws(CLIError) in try ItemStore.temporary(policy: .never) }
        self.outputDirectory = outputDirectory
        self.writer = writer
    }

    /// The piece a symbol carries: nil for an ordinary symbol; throws for a damaged part.
    static func piece(_ d: Detection) throws(PartsError) -> Inbox.Piece? {
        if let part = try Part.fromSymbol(d.bytes) { return Inbox.Piece(part) }
        if let sequence = d.structuredAppend {
            return Inbox.Piece(structuredAppend: sequence.index, of: sequence.count, parity: sequence.parity, bytes: d.bytes)
        }
        return nil
    }

    /// Whether `d` is a part of a larger message (damaged ones included).
    static func isPiece(_ d: Detection) -> Bool {
        do { return try piece(d) != nil } catch { return true }
    }

    /// Handles one symbol that `isPiece`; `extra` is added to each JSON line (live frame
    /// fields), and `elapsed` (seconds into a live scan) adds the rate parts arrive at.
    /// Returns true when it completed a message.
    @discardableResult
    mutating func handle(_ d: Detection, source: String, inboxSource: String, kind: InboxItem.SourceKind,
                         reader: inout Reader, tally: inout SealedTally, console: Console,
                         extra: [(String, JSON.Value)] = [], elapsed: Double? = nil) -> Bool {
        let piece: Inbox.Piece
        do {
            guard let p = try Self.piece(d) else { return false }
            piece = p
        } catch {
            tally.failed += 1
            Diagnostics.report(CLIError(message: "\(source): \(error.description)"), console: console, source: source)
            return false
        }
        let receipt: Inbox.PieceReceipt
        do {
            if store == nil { store = try makeStore() }
            guard let r = try store!.receive(piece, symbology: d.symbology.rawValue, source: inboxSource, kind: kind) else { return false }
            receipt = r.receipt
            for dropped in r.dropped { report(dropped, console: console) }
        } catch {
            tally.failed += 1
            Diagnostics.report(error, console: console, source: source)
            return false
        }
        let label = "part \(piece.index + 1) of \(piece.totalParts) of message \(piece.idText)"
        var extra = extra
        var rate = ""
        switch receipt {
        case .waiting(_, isNew: true), .conflicting, .completed: note(piece)
        default: break
        }
        if let elapsed, elapsed > 0 {
            let kbps = (Double(newBytes) / 1000 / elapsed * 10).rounded() / 10
            rate = ", \(kbps) KB/s"
            extra.insert(("kb_per_s", .number(kbps)), at: 0)
        }
        switch receipt {
        case let .waiting(progress, isNew):
            pending[progress.idText] = progress
            guard isNew else { return false }
            line(source, d, "\(label) (\(progress.text)\(rate))", event: "part", piece, progress, extra, console)
        case let .conflicting(progress, other):
            pending[progress.idText] = progress
            Diagnostics.report(CLIError(message: "\(source): \(label) does not belong with the \(other.have) parts of "
                                        + "message \(other.idText) seen before (other part counts or length): kept apart"),
                               console: console, source: source)
            line(source, d, "\(label) (\(progress.text)), kept apart", event: "part", piece, progress, extra, console)
        case let .alreadyComplete(itemID, _):
            // Live frames show each part again and again: only image scans say so.
            if elapsed == nil, style == .human {
                console.print(DisplayText.escape(source) + ": " + d.symbology.displayName + ": \(label): "
                              + "message received before (inbox item \(itemID))")
            }
            return false
        case let .damaged(error, progress):
            tally.failed += 1
            pending[progress.idText] = nil
            Diagnostics.report(CLIError(message: "\(source): message \(progress.idText): \(error.description); nothing was written",
                                        hints: [damagedHint(progress)]),
                               console: console, source: source)
        case let .completed(item, message, progress):
            pending[progress.idText] = nil
            completed += 1
            complete(item, message, progress, d, source: source, reader: &reader, tally: &tally, console: console, extra: extra)
            return true
        }
        return false
    }

    /// What helps a message whose pieces are enough in number but rebuild no message that
    /// passes its check: the sender's own pieces, scanned again, are tried with the others.
    private func damagedHint(_ progress: Inbox.PartProgress) -> String {
        let what = progress.isStructuredAppend
            ? "its codes may be of two sequences with the same count and parity, or misread"
            : "a part of it is not the sender's (misread, altered or forged)"
        guard !isTemporary else { return what + ": scan the sender's codes again, all in one run" }
        return what + ": its parts wait in the inbox; scan the sender's codes of it again to complete it, "
            + "or drop it with: qrseal inbox rm --waiting \(progress.idText)"
    }

    /// Tells of a waiting message dropped to keep the inbox within its limits.
    private func report(_ dropped: Inbox.DroppedMessage, console: Console) {
        let why: String
        switch dropped.reason {
        case .expired: why = "no part of it came for \(Inbox.WaitingLimits().expiry / 86_400_000) days"
        case .tooManyMessages: why = "too many messages were waiting, and it was added to least recently"
        case .tooManyPieces: why = "too many parts were waiting, and it was added to least recently"
        }
        Diagnostics.hint("message \(dropped.progress.idText) (\(dropped.progress.text)) was dropped from the inbox: \(why)",
                         console: console)
    }

    private mutating func note(_ piece: Inbox.Piece) {
        newParts += 1
        newBytes += piece.bytes.count
    }

    /// The rebuilt message: opened when sealed, its file written, printed.
    private func complete(_ item: InboxItem, _ whole: [UInt8], _ progress: Inbox.PartProgress, _ d: Detection,
                          source: String, reader: inout Reader, tally: inout SealedTally, console: Console,
                          extra: [(String, JSON.Value)]) {
        var content: Reader.Content
        if progress.isStructuredAppend {
            content = reader.open(symbolBytes: whole)
        } else {
            switch try? RebuiltMessage.content(of: whole) {
            case .sealed(let envelope)?:
                content = reader.open(envelope: envelope)
                if content.isLocked(kind: "passphrase"), let key = try? KeySources.prompt(console: console, confirm: false) {
                    reader.keys.append(key)
                    content = reader.open(envelope: envelope)
                }
            case .plain(let payload)?: content = .opened(payload)
            case nil: content = .failed(.malformed("rebuilt message"))
            }
        }
        tally.count(content, source: source, console: console)
        var fileNote: String?
        var writeError: CLIError?
        if case .opened(.file(let name, let bytes)) = content {
            (fileNote, writeError) = writer.save(bytes, named: name, in: outputDirectory, console: console)
        }
        let sealed = item.kind == .sealed && !progress.isStructuredAppend
        let head = "message \(progress.idText) complete (\(progress.have) of \(progress.totalParts) parts)"
        switch style {
        case .human:
            let body: String
            switch content {
            case .plain: body = item.text.map { DisplayText.escape($0) } ?? "<\(item.bytes.count) bytes of binary data>"
            case .opened(.text(let text)): body = DisplayText.escape(text)
            case .opened(.file): body = fileNote ?? ""
            case let .sealed(kind, size): body = "<not opened: \(size) bytes, for a \(kind)>"
            case .failed(let error): body = "<not opened: \(error.description)>"
            }
            console.print(DisplayText.escape(source) + ": " + d.symbology.displayName + (sealed ? " [sealed]" : "")
                          + ": " + head + ": " + body)
        case .raw:
            switch content {
            case .plain: console.write(Data(item.bytes + [0x0A]))
            case .opened(.text(let text)): console.print(text)
            case .opened(.file): console.printError("qrseal: \(DisplayText.escape(source)): \(fileNote ?? "")")
            case .sealed, .failed: break
            }
        case .json:
            var fields: [(String, JSON.Value)] = [
                ("event", .string("message")), ("source", .string(source)), ("message_id", .string(progress.idText)),
                ("parts", .int(progress.have)), ("total_parts", .int(progress.totalParts)),
                ("data_parts", .int(progress.dataParts)), ("size", .int(whole.count)),
            ]
            if progress.isStructuredAppend || !sealed {
                if case .plain = content, let text = item.text { fields.append(("text", .string(text))) }
                if case .opened(.text(let text)) = content, !sealed { fields.append(("text", .string(text))) }
            }
            if let id = item.id { fields.append(("inbox_id", .int(Int(id)))) }
            if sealed { fields += ScanCommand.sealedFields(content, fileNote: fileNote) }
            else if case .opened(.file(let name, let bytes)) = content {
                fields += [("file_name", .string(PayloadWriter.fileName(name))), ("file_size", .int(bytes.count))]
            }
            console.print(JSON.line(fields + extra))
        }
        if let writeError { tally.failed += 1; Diagnostics.report(writeError, console: console, source: source) }
    }

    private func line(_ source: String, _ d: Detection, _ text: String, event: String, _ piece: Inbox.Piece,
                      _ progress: Inbox.PartProgress, _ extra: [(String, JSON.Value)], _ console: Console) {
        switch style {
        case .human: console.print(DisplayText.escape(source) + ": " + d.symbology.displayName + ": " + text)
        case .raw: break
        case .json:
            console.print(JSON.line([
                ("event", .string(event)), ("source", .string(source)), ("format", .string(d.symbology.displayName)),
                ("message_id", .string(progress.idText)), ("part", .int(piece.index + 1)),
                ("total_parts", .int(progress.totalParts)), ("data_parts", .int(progress.dataParts)),
                ("have", .int(progress.have)), ("needed", .int(progress.needed)),
            ] + extra))
        }
    }

    /// Whether parts are kept only for this run (--no-store).
    private let isTemporary: Bool

    /// At the end of a run: one hint per message still incomplete.
    func printPending(console: Console) {
        for progress in pending.values.sorted(by: { $0.idText < $1.idText }) {
            Diagnostics.hint("message \(progress.idText): \(progress.text); "
                             + (isTemporary ? "with --no-store its parts are not kept: scan them all in one run"
                                : "its parts wait in the inbox: scan any \(progress.needed) more of the others"),
                             console: console)
        }
    }
}
