/// One received message or scan, as the inbox keeps it.
public struct InboxItem: Equatable, Sendable {
    /// Where an item came from.
    public enum SourceKind: String, CaseIterable, Sendable {
        case file, camera, stream, text
    }

    /// Assigned by the inbox; nil before the item is stored.
    public var id: Int64?
    /// Milliseconds since 1970-01-01 UTC.
    public var receivedAt: Int64
    public var sourceKind: SourceKind
    /// The file path, device, stream name, or "-" for standard input.
    public var source: String
    /// A `Symbology` raw value, or "text" for pasted text.
    public var symbology: String
    /// The payload exactly as received; for a sealed message, the sealed bytes.
    public var bytes: [UInt8]
    /// The payload as text, when it is text.
    public var text: String?
    public var kind: ContentKind
    /// Corner points in the source image, when there was an image.
    public var corners: [Point]
    public var label: String?
    public var pinned: Bool
    /// The name of the file the item carries, when it is an unsealed file rebuilt from
    /// parts: its bytes are the file's, and `inbox open` writes them under this name.
    /// (A sealed item names its file inside the seal.)
    public var fileName: String?

    public init(id: Int64? = nil, receivedAt: Int64, sourceKind: SourceKind, source: String,
                symbology: String, bytes: [UInt8], text: String?, kind: ContentKind,
                corners: [Point] = [], label: String? = nil, pinned: Bool = false, fileName: String? = nil) {
        self.id = id
        self.receivedAt = receivedAt
        self.sourceKind = sourceKind
        self.source = source
        self.symbology = symbology
        self.bytes = bytes
        self.text = text
        self.kind = kind
        self.corners = corners
        self.label = label
        self.pinned = pinned
        self.fileName = fileName
    }

    /// An item for a detected symbol, its kind recognised from its content.
    public init(detection: Detection, receivedAt: Int64, sourceKind: SourceKind, source: String) {
        let kind = ContentClassifier.classify(bytes: detection.bytes, text: detection.text,
                                              symbology: detection.symbology.rawValue).kind
        self.init(receivedAt: receivedAt, sourceKind: sourceKind, source: source,
                  symbology: detection.symbology.rawValue, bytes: detection.bytes, text: detection.text,
                  kind: kind, corners: detection.corners)
    }
}

/// When `add` skips an item as a repeat.
public enum DedupePolicy: String, CaseIterable, Sendable {
    /// The same content from the same source as that source's last item is skipped.
    case consecutive
    /// Content already in the inbox is skipped.
    case always
    /// Everything is stored.
    case never
}

/// Which items `list`, `count`, `remove` and `export` consider.
public struct InboxQuery: Sendable {
    public var kind: ContentKind?
    /// Milliseconds since the epoch, inclusive.
    public var since: Int64?
    /// Milliseconds since the epoch, exclusive.
    public var until: Int64?
    /// A substring of the text or label, any case.
    public var search: String?
    public var pinnedOnly = false
    public var limit: Int?

    public init(kind: ContentKind? = nil, since: Int64? = nil, until: Int64? = nil,
                search: String? = nil, pinnedOnly: Bool = false, limit: Int? = nil) {
        self.kind = kind
        self.since = since
        self.until = until
        self.search = search
        self.pinnedOnly = pinnedOnly
        self.limit = limit
    }
}
