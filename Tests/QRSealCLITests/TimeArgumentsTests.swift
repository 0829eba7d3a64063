import Testing
import QRSealKit
@testable import QRSealCLI

/// Durations on the command line: `inbox rm --older-than` and `scan --forget-after` take the
/// same units.
@Suite("time arguments")
struct TimeArgumentsTests {
    @Test("durations in ms, s, m, h, d and w, with or without a fraction", arguments: [
        ("500ms", 500), ("90s", 90_000), ("1.5s", 1500), ("45m", 2_700_000), ("12h", 43_200_000),
        ("30d", 2_592_000_000), ("1.5d", 129_600_000), ("2w", 1_209_600_000), ("0s", 0),
    ] as [(String, Int64)])
    func durations(text: String, ms: Int64) {
        #expect(TimeArguments.duration(text) == ms)
    }

    @Test("anything else is not a duration", arguments: [
        "", "s", "30", "-1d", ".5s", "1.s", "1e3s", "infs", "nans", "1.2.3s", "30 d", "30x", "9999999999999999999w",
    ])
    func notDurations(text: String) {
        #expect(TimeArguments.duration(text) == nil)
    }

    @Test("--forget-after takes frames or any of those durations up to an hour")
    func forgetAfter() throws {
        #expect(try LiveScan.forgetAfter("30") == .frames(30))
        #expect(try LiveScan.forgetAfter("500ms") == .seconds(0.5))
        #expect(try LiveScan.forgetAfter("2m") == .seconds(120))
        #expect(try LiveScan.forgetAfter("1h") == .seconds(3600))
        #expect(throws: CLIError.self) { try LiveScan.forgetAfter("2h") }
        #expect(throws: CLIError.self) { try LiveScan.forgetAfter("0s") }
    }
}
