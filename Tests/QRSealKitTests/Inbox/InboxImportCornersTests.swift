import Testing
@testable import QRSealKit

/// Corners survive a JSON export and import to the bit (found by `Fuzz/Targets/import.swift`:
/// Foundation's JSONSerialization on Linux reads some decimal doubles as a neighbouring value).
@Suite("Inbox: import corners")
struct InboxImportCornersTests {
    private func item(corners: [Point]) -> InboxItem {
        InboxItem(receivedAt: 0, sourceKind: .file, source: "a.png", symbology: "qr",
                  bytes: Array("hi".utf8), text: "hi", kind: .text, corners: corners)
    }

    private func imported(_ line: String) throws -> InboxItem? {
        var lines = [line][...]
        var reader = InboxImportReader(nextLine: { lines.popFirst() })
        return try reader.next()?.item
    }

    @Test("corners with 17 significant digits import exactly as they were exported")
    func exactCorners() throws {
        let corners = [Point(x: 2628.9447096116382, y: 289.78222412750944),
                       Point(x: 2182.3308275851705, y: 1.7777777777777778e+58),
                       Point(x: 0.1, y: 30.5), Point(x: -7, y: 1e-300)]
        let original = item(corners: corners)
        let back = try imported(InboxFormat.json.encode(original))
        #expect(back?.corners == corners)
    }

    @Test("corners that are not numbers are refused naming the line")
    func badCorners() {
        let line = #"{"received_at":"2026-12-01T00:00:00Z","source_kind":"file","source":"a.png","#
            + #""symbology":"qr","kind":"text","text":"hi","bytes_base64":"aGk=","corners":[[1,"x"]]}"#
        #expect(throws: InboxError.badImport(line: 1, reason: "corners must be a list of [x, y] pairs")) {
            try imported(line)
        }
    }
}
