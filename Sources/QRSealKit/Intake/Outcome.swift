import FoundationEssentials
import Glibc

/// Where something was received from.
public struct IntakeSource: Sendable, Equatable {
    /// As messages name it: the path as given, the device, the stream, or "-".
    public let name: String
    /// As the inbox records it: an absolute path, the device, or "-".
    public let recorded: String
    public let kind: InboxItem.SourceKind

    public init(name: String, recorded: String, kind: InboxItem.SourceKind) {
        self.name = name
        self.recorded = recorded
        self.kind = kind
    }

    /// An image or text file, or "-" for standard input: recorded as an absolute path.
    /// `part` names the page or frame of a file of several ("page 3"): messages then name
    /// the source "sheet.pdf (page 3)"; the inbox records the file.
    public static func file(_ path: String, part: String? = nil) -> IntakeSource {
        IntakeSource(name: part.map { "\(path) (\($0))" } ?? path,
                     recorded: path == "-" ? path : URL(fileURLWithPath: path).standardizedFileURL.path,
                     kind: .file)
    }
}

/// What became of one thing received: a symbol, a text block or a pasted text.
public struct Outcome: Sendable {
    public enum Subject: Sendable {
        case symbol(Detection)
        case text(TextBlock)
        /// Text given as it is, such as a sealed message a phone's scanner showed.
        case pasted(String)
        /// A file given whole, such as a binary age file.
        case file([UInt8])
    }

    public enum Event: Sendable {
        /// A whole message: a plain code or text, or a sealed message opened, locked or failed.
        case message(Reader.Content)
        /// A piece of a larger message, filed with the others of its message.
        case piece(PieceEvent)
        /// A qrseal part whose header does not read: not filed.
        case damagedPiece(PartsError)
    }

    public let subject: Subject
    public let source: IntakeSource
    public let classification: Classification
    public internal(set) var event: Event
    /// Where the inbox keeps it: its id, or for a repeat the id of the item it repeats; for a
    /// piece that completed its message, the message's item. Nil when nothing is kept.
    public let kept: Inbox.Kept?
    /// The inbox failed while keeping this; said once, after which nothing more is kept
    /// (pieces then wait in memory until the run ends).
    public let inboxFailure: InboxError?
    /// The same content came before in this session and was handled then: not opened or
    /// kept again (live scans, where a code stays in view for many frames).
    public let isSeenBefore: Bool

    /// The content of a whole message, or of the message a piece completed.
    public var content: Reader.Content? {
        switch event {
        case .message(let content): return content
        case .piece(let piece): return piece.completed?.content
        case .damagedPiece: return nil
        }
    }

    /// Whether it is a sealed message left shut for want of a key of `kind`.
    public func isLocked(_ kind: KeyKind) -> Bool { content?.isLocked(kind) ?? false }

    /// The symbol, when it was one.
    public var detection: Detection? {
        if case .symbol(let d) = subject { return d }
        return nil
    }
}

/// A piece of a larger message, filed: where its message stands.
public struct PieceEvent: Sendable {
    /// 0-based.
    public let index: Int
    public let progress: Inbox.PartProgress
    public let state: State
    /// Waiting messages dropped to keep the inbox within its limits, which the user should hear of.
    public let dropped: [Inbox.DroppedMessage]

    public enum State: Sendable {
        /// Kept, waiting for more; `isNew` false when that piece was there already.
        case waiting(isNew: Bool)
        /// Kept apart: another message waits with the same id but other part counts or length.
        case conflicting(other: Inbox.PartProgress)
        /// The message is whole: now, or (`CompletedMessage.isRepeat`) before this piece came.
        case complete(CompletedMessage)
        /// Enough pieces, but no set of them rebuilds a message that passes its check.
        case damaged(PartsError)
    }

    public var completed: CompletedMessage? {
        if case .complete(let message) = state { return message }
        return nil
    }
}

/// A message rebuilt from its pieces.
public struct CompletedMessage: Sendable {
    /// The item it is kept as (with its id when kept in the inbox).
    public let item: InboxItem
    /// The rebuilt message's size in bytes.
    public let size: Int
    /// Whether the message was sealed (qrseal parts of a sealed message).
    public let isSealed: Bool
    /// True when it was complete before this piece came (a rescan, or the rest of a sequence).
    public let isRepeat: Bool
    /// Sealed: opened, locked or failed. Unsealed qrseal parts: `.opened` with their text or
    /// file. Structured Append: the joined bytes as one code's (plain, or opened when sealed).
    public internal(set) var content: Reader.Content
}
