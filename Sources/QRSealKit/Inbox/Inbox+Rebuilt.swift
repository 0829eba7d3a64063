extension Inbox.Piece {
    /// The inbox item the whole message of this piece's kind becomes.
    ///
    /// A qrseal message: a sealed one as its binary armor (so that `inbox open` opens it as
    /// any sealed item), plain text as text, a plain file as its bytes with its name (in
    /// `fileName`, and in the label a listing shows). A Structured Append sequence: its bytes
    /// as one code's, their text read as any code's without a declared character set.
    /// Throws when a qrseal message's content does not read.
    func item(whole: [UInt8], symbology: String, receivedAt: Int64, sourceKind: InboxItem.SourceKind,
              source: String) throws(PartsError) -> InboxItem {
        let bytes: [UInt8], text: String?
        var fileName: String?
        switch kind {
        case .structuredAppend:
            (bytes, text) = (whole, TextDecoding.text(from: whole))
        case .parts:
            switch try RebuiltMessage.content(of: whole) {
            case .sealed(let envelope): (bytes, text) = (Armor.magic + envelope, nil)
            case .plain(.text(let t)): (bytes, text) = (Array(t.utf8), t)
            case .plain(.file(let name, let content)): (bytes, text, fileName) = (content, nil, name)
            }
        }
        let kind = ContentClassifier.classify(bytes: bytes, text: text, symbology: symbology).kind
        return InboxItem(receivedAt: receivedAt, sourceKind: sourceKind, source: source, symbology: symbology,
                         bytes: bytes, text: text, kind: kind,
                         label: fileName.flatMap { $0.isEmpty ? nil : "file " + $0 }, fileName: fileName)
    }
}
