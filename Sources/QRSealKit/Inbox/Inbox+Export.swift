/// The whole inbox as an export file, and such a file imported back: what `qrseal inbox
/// export` and `import` and the desktop app's inbox page share.
extension Inbox {
    /// The export in `format`: its header line, every item, then the pieces of messages still
    /// waiting for parts, which an import receives as if they were scanned again. CSV lines
    /// end in CR LF (RFC 4180), JSON lines in LF.
    public func export(_ format: InboxFormat) throws(InboxError) -> String {
        let lineEnd = format == .csv ? "\r\n" : "\n"
        var text = format.header + lineEnd
        do {
            try forEach { item in text += format.encode(item) + lineEnd }
            try forEachWaitingPiece { piece in text += format.encode(piece) + lineEnd }
        } catch let error as InboxError {
            throw error
        } catch {
            throw .sqlite("\(error)")
        }
        return text
    }

    /// Imports the lines `nextLine` gives (an export file's, without line breaks, then nil), all
    /// or nothing, as `importRecords` does; a line that is not an export's throws `.badImport`.
    public func importLines(_ nextLine: @escaping () -> String?) throws(InboxError) -> Imported {
        var reader = InboxImportReader(nextLine: nextLine)
        return try importRecords { () throws(InboxError) -> InboxRecord? in try reader.next() }
    }
}
