// Inbox import lines (`InboxImportReader`: JSON lines and CSV with quoted, multi-line
// cells, versions 1 and 2): any file is refused naming a line or read as items and pieces of
// waiting messages that export and import again to the same records, in both formats.
@testable import QRSealKit

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzImport(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let lines = bytes(data, size).split(separator: 0x0A, omittingEmptySubsequences: false)
        .map { String(decoding: $0, as: UTF8.self) }
    var reader = InboxImportReader(nextLine: feeder(lines))
    var records = 0
    while let record = try? reader.next() {
        records += 1
        require(records <= lines.count, "more records than lines")
        if case .piece(let waiting) = record {
            require(waiting.piece.bytes.count <= Inbox.WaitingPiece.maxBytes, "a piece larger than a symbol holds")
        }
        for format in InboxFormat.allCases {
            let line: String
            switch record {
            case .item(let item): line = format.encode(item)
            case .piece(let piece): line = format.encode(piece)
            }
            let exported = format.header + "\n" + line
            var again = InboxImportReader(nextLine: feeder(exported.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)))
            let result = Result { () throws(InboxError) in try again.next() }
            require((try? result.get()) == record, "\(format) export does not import again: \(exported.debugDescription) gives \(result)")
        }
    }
    return 0
}

/// A `nextLine` closure over `lines`.
func feeder(_ lines: [String]) -> () -> String? {
    var remaining = lines[...]
    return { remaining.popFirst() }
}
