import Testing
@testable import QRSealKit

/// The shortcuts of the grey-profile fit (`ProfileFit+Shapes`, the bounded searches of
/// `ProfileFit+Digits`) give what the plain definitions give: a read they changed would
/// be a read lost or a wrong one.
@Suite("ProfileFit: code shapes and bounded searches")
struct ProfileFitShapeTests {
    /// A generator with a fixed seed, so that a failure can be replayed.
    struct Seeded: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return state
        }
    }

    /// The darkness of `pattern`'s inner modules by its definition: each dark inner module's
    /// weight, and the spread weight at each inner boundary where a bar begins or ends.
    static func darkness(_ pattern: [UInt8], modules: [Double], rises: [Double], falls: [Double]) -> Double {
        var d = 0.0
        for i in 1...5 where pattern[i] == 1 { d += modules[i - 1] }
        for i in 1...6 where pattern[i] != pattern[i - 1] { d += pattern[i] == 1 ? rises[i - 1] : falls[i - 1] }
        return d
    }

    @Test("every L, G and R code's shape gives the darkness of its modules and edges")
    func shapes() {
        var random = Seeded(state: 7)
        let codes = EANLayout.patterns.map { ($0, true) } + EANLayout.rightPatterns.map { ($0, false) }
        #expect(ProfileFit.leftShapes.count == 20 && ProfileFit.rightShapes.count == 10)
        for _ in 0..<50 {
            let modules = (0..<5).map { _ in Double.random(in: 0...1, using: &random) }
            let rises = (0..<6).map { _ in Double.random(in: -0.3...0.3, using: &random) }
            let falls = (0..<6).map { _ in Double.random(in: -0.3...0.3, using: &random) }
            var sums = [0.0], r = [0.0] + rises, f = [0.0] + falls
            for m in modules { sums.append(sums.last! + m) }
            sums += [0]
            for (index, (pattern, left)) in codes.enumerated() {
                let shape = left ? ProfileFit.leftShapes[index] : ProfileFit.rightShapes[index - 20]
                let got = ProfileFit.darkness(shape, &sums, &r, &f)
                let want = Self.darkness(pattern, modules: modules, rises: rises, falls: falls)
                #expect(abs(got - want) < 1e-12, "code \(index): \(got) vs \(want)")
            }
        }
    }

    /// Window costs of random misfits for `layout`, as `ProfileFit.windowCosts` lays them out.
    static func costs(_ layout: EANLayout, _ random: inout Seeded) -> ProfileFit.WindowCosts {
        let n = layout.slots.count
        return ProfileFit.WindowCosts(
            first: (0..<20).map { _ in Double.random(in: 0...50, using: &random) },
            pairs: (0..<n).map { $0 == 0 ? [] : (0..<400).map { _ in Double.random(in: 0...50, using: &random) } },
            last: (0..<20).map { _ in Double.random(in: 0...50, using: &random) })
    }

    @Test("a bounded search finds the cheapest sequence when it lies under the bound, and nothing else")
    func boundedSequence() {
        var random = Seeded(state: 11)
        for layout in EANLayout.all {
            let fit = ProfileFit(layout: layout, profile: [Double](repeating: 200, count: 300), left: 20, right: 280, sigma: 0.8)
            for _ in 0..<4 {
                let t = Self.costs(layout, &random)
                for rule in layout.rules.prefix(12) {
                    guard let whole = fit.sequence(rule, t) else { continue }
                    let bound = fit.lowestCost(rule, t)
                    #expect(bound <= whole.cost + 1e-9, "the check-free bound passes the rule's cost")
                    let under = fit.sequence(rule, t, below: whole.cost * 1.01)
                    #expect(under?.codes == whole.codes && under?.cost == whole.cost)
                    #expect(fit.sequence(rule, t, below: whole.cost * 0.99) == nil)
                    // Excluding the best's code in a slot gives the same bounded or not, when under the bound.
                    let excluded = (slot: 1, code: whole.codes[1])
                    if let other = fit.sequence(rule, t, excluding: excluded) {
                        #expect(other.codes[1] != whole.codes[1])
                        #expect(fit.sequence(rule, t, excluding: excluded, below: other.cost * 1.01)?.cost == other.cost)
                        #expect(fit.sequence(rule, t, excluding: excluded, below: other.cost * 0.99) == nil)
                    }
                }
            }
        }
    }
}
