import Testing
@testable import QRSealKit

@Suite("timestamps")
struct TimestampTests {
    @Test("any number of fractional digits is read, cut to milliseconds", arguments: [
        ("2026-01-01T00:00:00.1Z", 100), ("2026-01-01T00:00:00.12Z", 120), ("2026-01-01T00:00:00.123Z", 123),
        ("2026-01-01T00:00:00.1234Z", 123), ("2026-01-01T00:00:00.123456Z", 123),
        ("2026-01-01T00:00:00.999999999999Z", 999), ("2026-01-01T00:00:00.000001+01:00", -3_600_000),
        ("2026-01-01T00:00:00.1234", 123),
    ])
    func fractions(text: String, ms: Int64) throws {
        let midnight = try #require(Timestamp.parse("2026-01-01T00:00:00Z"))
        #expect(Timestamp.parse(text) == midnight + ms)
    }

    @Test("malformed times are refused, not guessed", arguments: [
        "2026-01-01T00:00:00.Z", "2026-01-01T00:00:00.12a4Z", "2026-01-01T00:00:00..1Z", "2026-01-01T00:00:.5Z",
        "2026-02-30", "2026-01-01T24:00", "2026-01-01T00:00:00.5Zjunk", "",
    ])
    func malformed(text: String) {
        #expect(Timestamp.parse(text) == nil)
    }

    @Test("written times read back the same")
    func roundTrip() {
        for ms: Int64 in [0, 1, 999, 1_780_000_000_123, -1] {
            #expect(Timestamp.parse(Timestamp.iso8601(ms)) == ms)
        }
    }
}
