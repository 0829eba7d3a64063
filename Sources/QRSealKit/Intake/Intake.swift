import FoundationEssentials
import Glibc

/// The one path from what was read to what was received: each symbol, text block or pasted
/// text is classified once, opened with the keys at hand, filed as a piece when it is one
/// (rebuilding its message when complete) and kept in the inbox as its policy says. It never
/// prints or prompts: a front end that can ask for a passphrase asks when an outcome
/// `isLocked(.passphrase)`, hands the key to `add(_:)` and calls `reopen(_:)`.
///
/// Not for use from several threads at once.
public final class Intake {
    /// Where what is received goes.
    public enum Keeping {
        /// Nothing is kept. Pieces wait in memory until their message is complete or the
        /// intake ends: nothing of them reaches a disk.
        case nothing
        /// Kept in the inbox `open` gives, opened at the first thing to keep, so that what
        /// was read is still handed back when the inbox cannot take it.
        case inbox(open: () throws(InboxError) -> Inbox, dedupe: DedupePolicy)
    }

    public private(set) var reader: Reader
    private let keeping: Keeping
    private let oncePerSession: Bool
    private let clock: () -> Int64
    private var inbox: Inbox?
    private var inboxFailed = false
    /// Where pieces wait without an inbox, made at the first piece.
    private var memory: Inbox?
    /// With `oncePerSession`: outcomes of the contents handled so far.
    private var seen: [SeenKey: Outcome] = [:]

    private struct SeenKey: Hashable {
        let symbology: String
        let bytes: [UInt8]
    }

    /// `oncePerSession`: the same content (symbology and bytes) is opened and kept once, and
    /// later handed back as `isSeenBefore`; pieces are always filed, as the inbox ignores a
    /// piece it holds. `clock` gives milliseconds since 1970 (tests set it).
    public init(reader: Reader, keeping: Keeping, oncePerSession: Bool = false,
                clock: @escaping () -> Int64 = Intake.now) {
        self.reader = reader
        self.keeping = keeping
        self.oncePerSession = oncePerSession
        self.clock = clock
    }

    /// Milliseconds since 1970-01-01 UTC.
    public static func now() -> Int64 { Int64((Date().timeIntervalSince1970 * 1000).rounded()) }

    /// Whether what is received is kept in an inbox.
    public var keepsItems: Bool {
        if case .inbox = keeping { return true }
        return false
    }

    /// Adds a key to try on the sealed messages that come next, and on those `reopen` is given.
    public func add(_ key: SealKey) { reader.keys.append(key) }

    /// Whether a passphrase is among the keys.
    public var hasPassphrase: Bool { reader.keys.contains(where: \.isPassphrase) }

    // MARK: Taking

    /// The symbols of one image or frame, handled in order; whole ones are kept together, at
    /// one time, as one visit of `source`.
    public func take(_ detections: [Detection], from source: IntakeSource) -> [Outcome] {
        take(detections.map { d in
            (.symbol(d), Classification(d), SeenKey(symbology: d.symbology.rawValue, bytes: d.bytes))
        }, from: source) { d, time in
            guard case .symbol(let d) = d else { return nil }
            return InboxItem(detection: d, receivedAt: time, sourceKind: source.kind, source: source.recorded)
        }
    }

    /// The text blocks recognised in one image or frame, as `take(_:from:)` takes symbols.
    public func take(_ blocks: [TextBlock], from source: IntakeSource) -> [Outcome] {
        take(blocks.map { block in
            (.text(block), Classification(block), SeenKey(symbology: "text", bytes: block.sealedArmor ?? Array(block.text.utf8)))
        }, from: source) { subject, time in
            guard case .text(let block) = subject else { return nil }
            let text = block.sealedArmor.map { String(decoding: $0, as: UTF8.self) } ?? block.text
            return InboxItem(receivedAt: time, sourceKind: source.kind, source: source.recorded, symbology: "text",
                             bytes: Array(text.utf8), text: text, kind: block.kind, corners: block.corners)
        }
    }

    /// Text given as it is (a sealed message as a phone's scanner shows it, or an armored
    /// age file): a sealed message is kept as its canonical text and opened; other text is
    /// not a message, and fails.
    public func take(pasted text: String, from source: IntakeSource) -> Outcome {
        let trimmed = text.trimmingWhitespace()
        let bytes = Array(trimmed.utf8)
        let classification: Classification, kept: String
        if AgeArmor.isArmored(bytes) {
            (classification, kept) = (.age(bytes), trimmed)
        } else {
            do {
                let envelope = try Armor.envelope(fromText: text)
                (classification, kept) = (.sealed(envelope: envelope), Armor.text(for: envelope))
            } catch {
                return Outcome(subject: .pasted(text), source: source, classification: .damagedSealed(error),
                               event: .message(.failed(error)), kept: nil, inboxFailure: nil, isSeenBefore: false)
            }
        }
        let item = InboxItem(receivedAt: clock(), sourceKind: source.kind, source: source.recorded, symbology: "text",
                             bytes: Array(kept.utf8), text: kept,
                             kind: ContentClassifier.classify(bytes: Array(kept.utf8), text: kept, symbology: "text").kind)
        let (stored, failure) = keep([item])
        return Outcome(subject: .pasted(text), source: source, classification: classification,
                       event: .message(reader.open(classification)), kept: stored.first ?? nil, inboxFailure: failure,
                       isSeenBefore: false)
    }

    /// A file or standard input given whole that is not an image: a binary age file (opened,
    /// not kept: it is a file the user has), or text (`take(pasted:)`); nil for bytes that
    /// are neither.
    public func take(given bytes: [UInt8], from source: IntakeSource) -> Outcome? {
        if AgeFile.isAgeFile(bytes), !AgeArmor.isArmored(bytes) {
            return Outcome(subject: .file(bytes), source: source, classification: .age(bytes),
                           event: .message(reader.open(.age(bytes))), kept: nil, inboxFailure: nil, isSeenBefore: false)
        }
        return String(validating: bytes, as: UTF8.self).map { take(pasted: $0, from: source) }
    }

    /// Opens again, with the keys now at hand, what an outcome left locked; anything else
    /// is handed back as it was.
    public func reopen(_ outcome: Outcome) -> Outcome {
        guard case .locked = outcome.content else { return outcome }
        var reopened = outcome
        switch outcome.event {
        case .message:
            reopened.event = .message(reader.open(outcome.classification))
        case .piece(let piece):
            guard var message = piece.completed else { return outcome }
            message.content = content(of: message.item, fromParts: true)
            reopened.event = .piece(PieceEvent(index: piece.index, progress: piece.progress, state: .complete(message),
                                               dropped: piece.dropped))
        case .damagedPiece:
            return outcome
        }
        if oncePerSession, let key = seenKey(reopened) { seen[key] = reopened.seenAgain(as: reopened.subject) }
        return reopened
    }

    /// A locked outcome opened with one more key, kept for what follows only when it opens
    /// the message: a mistyped passphrase is not tried again on every later message. On a
    /// wrong key the outcome comes back failed, and the session still holds it locked, so
    /// another key may be tried.
    public func reopen(_ outcome: Outcome, with key: SealKey) -> Outcome {
        let seenBefore = seenKey(outcome).map { ($0, seen[$0]) }
        reader.keys.append(key)
        let reopened = reopen(outcome)
        if case .failed = reopened.content {
            reader.keys.removeLast()
            if let (key, before) = seenBefore { seen[key] = before }
        }
        return reopened
    }

    /// What an inbox item holds, opened with the keys at hand: a sealed message opened,
    /// locked or failed; an unsealed file rebuilt from parts as that file; anything else plain.
    public func content(of item: InboxItem) -> Reader.Content {
        content(of: item, fromParts: false)
    }

    // MARK: Inside

    private typealias Taken = (subject: Outcome.Subject, classification: Classification, key: SeenKey)

    private func take(_ taken: [Taken], from source: IntakeSource,
                      item: (Outcome.Subject, Int64) -> InboxItem?) -> [Outcome] {
        let time = clock()
        var outcomes: [Outcome?] = Array(repeating: nil, count: taken.count)
        var whole: [(index: Int, item: InboxItem)] = []
        for (n, t) in taken.enumerated() {
            if oncePerSession, !t.classification.isPiece, let before = seen[t.key] {
                outcomes[n] = before.seenAgain(as: t.subject)
            } else if case .piece(let piece) = t.classification {
                outcomes[n] = file(piece, t, symbology: t.key.symbology, source: source, time: time)
            } else if case .damagedPiece(let error) = t.classification {
                outcomes[n] = Outcome(subject: t.subject, source: source, classification: t.classification,
                                      event: .damagedPiece(error), kept: nil, inboxFailure: nil, isSeenBefore: false)
            } else if let made = item(t.subject, time) {
                whole.append((n, made))
            }
        }
        // Whole ones: kept first (one transaction, one time), then opened.
        let (kept, failure) = keep(whole.map(\.item))
        for (m, (n, _)) in whole.enumerated() {
            let t = taken[n]
            let outcome = Outcome(subject: t.subject, source: source, classification: t.classification,
                                  event: .message(reader.open(t.classification)), kept: kept[m],
                                  inboxFailure: m == 0 ? failure : nil, isSeenBefore: false)
            if oncePerSession { seen[t.key] = outcome.seenAgain(as: t.subject) }
            outcomes[n] = outcome
        }
        return outcomes.map { $0! }
    }

    /// Keeps `items` as the policy says: each one's id (nil when nothing is kept), and the
    /// inbox's failure when it failed now.
    private func keep(_ items: [InboxItem]) -> ([Inbox.Kept?], InboxError?) {
        let none = [Inbox.Kept?](repeating: nil, count: items.count)
        guard !items.isEmpty, case .inbox(_, let policy) = keeping else { return (none, nil) }
        do throws(InboxError) {
            guard let inbox = try openInbox() else { return (none, nil) }
            return (try inbox.keep(items, dedupe: policy), nil)
        } catch {
            inboxFailed = true
            return (none, error)
        }
    }

    /// The inbox, opened at the first use; nil when there is none or it failed before.
    private func openInbox() throws(InboxError) -> Inbox? {
        guard !inboxFailed, case .inbox(let open, _) = keeping else { return nil }
        if inbox == nil { inbox = try open() }
        return inbox
    }

    /// Files a piece where pieces wait: the inbox, or memory when nothing is kept or the
    /// inbox failed.
    private func file(_ piece: Inbox.Piece, _ t: Taken, symbology: String, source: IntakeSource, time: Int64) -> Outcome {
        var failure: InboxError?
        var store: Inbox?
        do throws(InboxError) { store = try openInbox() } catch {
            inboxFailed = true
            failure = error
        }
        let isInbox = store != nil
        do throws(InboxError) {
            if store == nil {
                if memory == nil { memory = try Inbox.inMemory() }
                store = memory
            }
            let received = try store!.receive(piece, symbology: symbology, receivedAt: time, sourceKind: source.kind,
                                              source: source.recorded)
            let (state, itemID) = try state(of: received.receipt, piece, in: store!)
            let event = PieceEvent(index: piece.index, progress: received.receipt.progress, state: state,
                                   dropped: received.dropped)
            return Outcome(subject: t.subject, source: source, classification: t.classification, event: .piece(event),
                           kept: isInbox ? itemID.map { Inbox.Kept(id: $0, isRepeat: event.completed?.isRepeat ?? false) } : nil,
                           inboxFailure: failure, isSeenBefore: false)
        } catch {
            if isInbox { inboxFailed = true }
            let progress = Inbox.PartProgress(piece, have: 0)
            return Outcome(subject: t.subject, source: source, classification: t.classification,
                           event: .piece(PieceEvent(index: piece.index, progress: progress, state: .waiting(isNew: false),
                                                    dropped: [])),
                           kept: nil, inboxFailure: failure ?? error, isSeenBefore: false)
        }
    }

    /// A receipt as a piece's state, its message opened when complete; the id of the item it became.
    private func state(of receipt: Inbox.PieceReceipt, _ piece: Inbox.Piece,
                       in store: Inbox) throws(InboxError) -> (PieceEvent.State, Int64?) {
        switch receipt {
        case .waiting(_, let isNew): return (.waiting(isNew: isNew), nil)
        case .conflicting(_, let other): return (.conflicting(other: other), nil)
        case .damaged(let error, _): return (.damaged(error), nil)
        case let .completed(item, whole, _):
            return (.complete(completed(item, size: whole.count, piece, isRepeat: false)), item.id)
        case .alreadyComplete(let itemID, _):
            let item = try store.item(itemID)
            return (.complete(completed(item, size: item.bytes.count, piece, isRepeat: true)), itemID)
        }
    }

    private func completed(_ item: InboxItem, size: Int, _ piece: Inbox.Piece, isRepeat: Bool) -> CompletedMessage {
        CompletedMessage(item: item, size: size, isSealed: piece.kind == .parts && item.kind == .sealed,
                         isRepeat: isRepeat, content: content(of: item, fromParts: piece.kind == .parts))
    }

    /// An item's content; `fromParts`: an unsealed qrseal message's text counts as opened.
    private func content(of item: InboxItem, fromParts: Bool) -> Reader.Content {
        if let name = item.fileName { return .opened(.file(name: name, bytes: item.bytes)) }
        let classification = Classification(symbolBytes: item.bytes)
        if classification.isSealed { return reader.open(classification) }
        if fromParts, let text = item.text { return .opened(.text(text)) }
        return .plain
    }

    private func seenKey(_ outcome: Outcome) -> SeenKey? {
        switch outcome.subject {
        case .symbol(let d): return SeenKey(symbology: d.symbology.rawValue, bytes: d.bytes)
        case .text(let block): return SeenKey(symbology: "text", bytes: block.sealedArmor ?? Array(block.text.utf8))
        case .pasted, .file: return nil
        }
    }
}

extension Outcome {
    /// This outcome as handed back for the same content seen again, as `subject`.
    func seenAgain(as subject: Subject) -> Outcome {
        Outcome(subject: subject, source: source, classification: classification, event: event, kept: kept,
                inboxFailure: nil, isSeenBefore: true)
    }
}

extension Inbox.PieceReceipt {
    /// Where the message stands after this receipt.
    public var progress: Inbox.PartProgress {
        switch self {
        case .waiting(let p, _), .conflicting(let p, _), .completed(_, _, let p), .alreadyComplete(_, let p), .damaged(_, let p):
            return p
        }
    }
}

extension Inbox.PartProgress {
    /// Where a message stands with `have` of its pieces known.
    init(_ piece: Inbox.Piece, have: Int) {
        self.init(idText: piece.idText, have: have, needed: piece.stillNeeded([]), totalParts: piece.totalParts,
                  dataParts: piece.dataParts, length: piece.length, isStructuredAppend: piece.kind == .structuredAppend,
                  firstSeen: 0, source: "")
    }
}
