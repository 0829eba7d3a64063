import Testing
@testable import QRSealKit

@Suite("Segment planning")
struct SegmentPlannerTests {
    @Test("pure digits, pure upper-case and lower-case text each take one segment of their mode")
    func singleModes() {
        #expect(SegmentPlanner.plan(Array("0123456789".utf8), version: 1).map(\.mode) == [.numeric])
        #expect(SegmentPlanner.plan(Array("HELLO WORLD".utf8), version: 1).map(\.mode) == [.alphanumeric])
        #expect(SegmentPlanner.plan(Array("hello world".utf8), version: 1).map(\.mode) == [.byte])
    }

    @Test("a long run of digits inside text gets its own numeric segment")
    func mixed() {
        let text = Array("order 31415926535897932384 shipped".utf8)
        let plan = SegmentPlanner.plan(text, version: 10)
        #expect(plan.map(\.mode) == [.byte, .numeric, .byte])
        #expect(plan.flatMap(\.bytes) == text)
        #expect(plan.bitLength(version: 10) < [Segment(mode: .byte, bytes: text)].bitLength(version: 10))
    }

    @Test("the plan is the cheapest of all segmentations (exhaustive on short inputs)")
    func optimal() {
        let alphabet = Array("1A a.".utf8)
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let length = Int.random(in: 1...7, using: &generator)
            let input = (0..<length).map { _ in alphabet.randomElement(using: &generator)! }
            for version in [1, 10, 27] {
                let planned = SegmentPlanner.plan(input, version: version)
                #expect(planned.flatMap(\.bytes) == input)
                #expect(planned.bitLength(version: version) == bruteForceBest(input, version: version),
                        "input \(String(decoding: input, as: UTF8.self)) at version \(version)")
            }
        }
    }

    /// The fewest bits over every assignment of a mode to each byte.
    private func bruteForceBest(_ input: [UInt8], version: Int) -> Int {
        let modes = Segment.Mode.allCases
        var best = Int.max
        func walk(_ i: Int, _ chosen: [Segment.Mode]) {
            if i == input.count {
                var segments: [Segment] = []
                var start = 0
                for j in 1...input.count where j == input.count || chosen[j] != chosen[start] {
                    segments.append(Segment(mode: chosen[start], bytes: Array(input[start..<j])))
                    start = j
                }
                best = min(best, segments.bitLength(version: version))
                return
            }
            for m in modes where m.accepts(input[i]) { walk(i + 1, chosen + [m]) }
        }
        walk(0, [])
        return best
    }
}
