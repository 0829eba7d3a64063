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
        let item = try reader.next()?.item
        #expect(item?.receivedAt == Timestamp.parse("2026-12-01T11:58:03.123Z"))
    }
}

/// Times are kept within what ISO 8601 with four-digit years can write (found by
/// `Fuzz/Targets/timestamp.swift`: year 0000 an hour east of UTC was written as `00-1-12-31`).
@Suite("Support: timestamp range")
struct TimestampRangeTests {
    @Test("times before year 0000 or after 9999 in UTC are refused, so every time read can be written")
    func outsideRange() {
        #expect(Timestamp.parse("0000-01-01T00:00:00+01:00") == nil)
        #expect(Timestamp.parse("9999-12-31T23:30:00-01:00") == nil)
        #expect(Timestamp.parse("0000-01-01", defaultOffsetMinutes: 60) == nil)
    }

    @Test("the first and last millisecond of the range write and read back")
    func edges() throws {
        for text in ["0000-01-01T00:00:00.000Z", "9999-12-31T23:59:59.999Z"] {
            let time = try #require(Timestamp.parse(text))
            #expect(Timestamp.iso8601(time) == text)
        }
    }
}
