// Inbox import lines (`InboxImportReader`: JSON lines and CSV with quoted, multi-line
// cells): any file is refused naming a line or read as items that export and import again
// to the same items, in both formats.
@testable import QRSealKit

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzImport(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let lines = bytes(data, size).split(separator: 0x0A, omittingEmptySubsequences: false)
        .map { String(decoding: $0, as: UTF8.self) }
    var reader = InboxImportReader(nextLine: feeder(lines))
    var items = 0
    while let item = try? reader.next() {
        items += 1
        require(items <= lines.count, "more items than lines")
        for format in InboxFormat.allCases {
            let exported = (format == .csv ? InboxFormat.csvHeader + "\n" : "") + format.encode(item)
            var again = InboxImportReader(nextLine: feeder(exported.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)))
            let result = Result { () throws(InboxError) in try again.next() }
            require((try? result.get()) == item, "\(format) export does not import again: \(exported.debugDescription) gives \(result)")
        }
    }
    return 0
}

/// A `nextLine` closure over `lines`.
func feeder(_ lines: [String]) -> () -> String? {
    var remaining = lines[...]
    return { remaining.popFirst() }
}
