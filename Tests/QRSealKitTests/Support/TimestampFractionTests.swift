import Testing
@testable import QRSealKit

/// Fractions of a second longer than milliseconds, as other tools write them (found by
/// `Fuzz/Targets/import.swift`: the digit padding loop trapped on a fourth digit).
@Suite("Support: timestamp fractions")
struct TimestampFractionTests {
    @Test("more than three fractional digits are read to the millisecond, not a crash")
    func longFractions() {
        let milliseconds = Timestamp.parse("2026-01-01T00:00:00.123Z")
        #expect(milliseconds != nil)
        #expect(Timestamp.parse("2026-01-01T00:00:00.1234Z") == milliseconds)
        #expect(Timestamp.parse("2026-01-01T00:00:00.123456Z") == milliseconds)
        #expect(Timestamp.parse("2026-01-01T00:00:00.123999999+00:00") == milliseconds)
    }

    @Test("one and two fractional digits are tenths and hundredths")
    func shortFractions() {
        let base = Timestamp.parse("2026-01-01T00:00:00Z")!
        #expect(Timestamp.parse("2026-01-01T00:00:00.5Z") == base + 500)
        #expect(Timestamp.parse("2026-01-01T00:00:00.05Z") == base + 50)
    }

    @Test("an import line with microseconds is read")
    func importMicroseconds() throws {
        let line = #"{"received_at":"2026-12-01T11:58:03.123456Z","source_kind":"file","source":"a.png","#
            + #""symbology":"qr","kind":"text","text":"hi","bytes_base64":"aGk="}"#
        var lines = [line][...]
        var reader = InboxImportReader(nextLine: { lines.popFirst() })
        let item = try reader.next()
        #expect(item?.receivedAt == Timestamp.parse("2026-12-01T11:58:03.123Z"))
    }
}
