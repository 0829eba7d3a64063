import Foundation
import Testing
@testable import QRSealKit

@Suite("Encoding input far beyond any symbol")
struct LargeInputTests {
    /// This process's peak resident set so far, in bytes.
    private func peakBytes() -> Int {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        return Int(usage.ru_maxrss) * 1024
    }

    @Test("20 MB of text is refused with its size and the largest prefix that fits, in bounded memory")
    func twentyMegabytes() throws {
        let line = "hello world\n"
        let text = String(repeating: line, count: 20_000_000 / line.utf8.count)
        let before = peakBytes()
        let encoder = QREncoder(level: .medium)
        var caught: SymbolError?
        do { _ = try encoder.encode(.text(text)) } catch { caught = error }
        // Planning the whole input used to take gigabytes; a bounded prefix takes a few megabytes.
        #expect(peakBytes() - before < 64 << 20)
        guard case let .tooLarge(size, fits, level)? = caught else {
            Issue.record("expected tooLarge, got \(String(describing: caught))")
            return
        }
        #expect(size == text.utf8.count && size > 19_000_000 && level == .medium)
        // The prefix named is the largest that really fits.
        let prefix = { (n: Int) in String(text.utf8.prefix(n))! }
        #expect(try encoder.encode(.text(prefix(fits))).version == 40)
        #expect(throws: SymbolError.self) { try encoder.encode(.text(prefix(fits + 1))) }
    }

    @Test("beyond the digits version 40 holds, nothing is planned: the limit is exact at every level",
          arguments: ErrorCorrection.allCases)
    func digitLimit(level: ErrorCorrection) throws {
        let most = QRCapacity.mostBytes(level: level)
        let encoder = QREncoder(level: level)
        #expect(try encoder.encode(.text(String(repeating: "9", count: most))).version == 40)
        #expect(throws: SymbolError.tooLarge(size: most + 1, fits: most, level: level)) {
            try encoder.encode(.text(String(repeating: "9", count: most + 1)))
        }
    }

    @Test("the planner's segments of a megabyte of mixed input cover it exactly and beat one byte segment")
    func plannerScales() {
        let unit = Array("0123456789012345 ABC xyz ".utf8)
        let input = Array((0..<(1 << 20) / unit.count).map { _ in unit }.joined())
        let plan = SegmentPlanner.plan(input, version: 40)
        #expect(plan.flatMap(\.bytes) == input)
        #expect(plan.bitLength(version: 40) < [Segment(mode: .byte, bytes: input)].bitLength(version: 40))
    }
}
