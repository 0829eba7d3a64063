import Foundation

/// Prepared copies of one image, each made once however many passes use it, none larger
/// than `maxPixels`.
final class PreparedImages: @unchecked Sendable {
    private let original: GrayImage
    private let maxPixels: Int
    private var cache: [[Step]: (GrayImage, PixelMapping)?] = [:]
    private var binarizedCache: [[Step]: [Bool]] = [:]
    private var runsCache: [[Step]: RowRuns] = [:]
    private var censusCache: [CensusKey: FinderCensus] = [:]
    private var fruitlessCache: [[Step]: FruitlessTriples] = [:]
    private struct CensusKey: Hashable { let steps: [Step]; let slack: Double }
    private let lock = NSLock()
    /// Held while a binarized copy or its runs are made, so that two passes running side by
    /// side (our Aztec and Data Matrix readers in the quick search) make them once between them.
    private let making = NSLock()

    /// Told of every copy made, as `copy STEPS`, with the CPU time its own step took (its
    /// parent's not included): bench/passes' profile of the plan. Nil everywhere else.
    private let profile: (@Sendable (_ stage: String, _ cpuMilliseconds: Double, _ reads: [Detection]) -> Void)?

    var width: Int { original.width }
    var height: Int { original.height }

    init(_ image: GrayImage, maxPixels: Int,
         profile: (@Sendable (_ stage: String, _ cpuMilliseconds: Double, _ reads: [Detection]) -> Void)? = nil) {
        original = image
        self.maxPixels = maxPixels
        self.profile = profile
    }

    /// The copy `steps` make as `FinderCensus.binarized(_:)` gives it, made once however many
    /// passes (the locator's two runs, the census of unread finder patterns) use it; nil when
    /// a step does not apply.
    func binarized(for steps: [Step]) -> [Bool]? {
        lock.lock()
        let hit = binarizedCache[steps]
        lock.unlock()
        if let hit { return hit }
        guard let (copy, _) = image(for: steps) else { return nil }
        making.lock(); defer { making.unlock() }
        lock.lock()
        let made = binarizedCache[steps]
        lock.unlock()
        if let made { return made }
        let dark = FinderCensus.binarized(copy)
        lock.lock()
        binarizedCache[steps] = dark
        lock.unlock()
        return dark
    }

    /// The runs along the rows of the copy `binarized(for:)` gives (`RowRuns`), found once
    /// however many of our readers scan its rows; nil when a step does not apply.
    func rowRuns(for steps: [Step]) -> RowRuns? {
        lock.lock()
        let hit = runsCache[steps]
        lock.unlock()
        if let hit { return hit }
        guard let dark = binarized(for: steps), let (copy, _) = image(for: steps) else { return nil }
        making.lock(); defer { making.unlock() }
        lock.lock()
        let made = runsCache[steps]
        lock.unlock()
        if let made { return made }
        let runs = RowRuns(dark: dark, width: copy.width, height: copy.height)
        lock.lock()
        runsCache[steps] = runs
        lock.unlock()
        return runs
    }

    /// The finder census of the copy `steps` make, runs allowed to stray by `slack`, taken
    /// once however many passes use it (the locator, the regions and the decision to go on
    /// after a read share the one at 0.5); nil when a step does not apply.
    func census(for steps: [Step], slack: Double) -> FinderCensus? {
        let key = CensusKey(steps: steps, slack: slack)
        lock.lock()
        let hit = censusCache[key]
        lock.unlock()
        if let hit { return hit }
        guard let dark = binarized(for: steps), let (copy, _) = image(for: steps) else { return nil }
        let made = FinderCensus(dark: dark, width: copy.width, height: copy.height, slack: slack)
        lock.lock()
        censusCache[key] = made
        lock.unlock()
        return made
    }

    /// The triples the locator read nothing from on the copy `steps` make, shared by its
    /// runs there (`FruitlessTriples`).
    func fruitlessTriples(for steps: [Step]) -> FruitlessTriples {
        lock.lock(); defer { lock.unlock() }
        if let made = fruitlessCache[steps] { return made }
        let made = FruitlessTriples()
        fruitlessCache[steps] = made
        return made
    }

    /// The copy `steps` make, with the mapping from its pixels to the original's, or nil
    /// when a step does not apply.
    func image(for steps: [Step]) -> (GrayImage, PixelMapping)? {
        if steps.isEmpty { return (original, .identity) }
        lock.lock()
        let hit = cache[steps]
        lock.unlock()
        if let hit { return hit }
        var made: (GrayImage, PixelMapping)?
        if let (parent, parentMapping) = image(for: Array(steps.dropLast())) {
            let start = profile == nil ? 0 : threadCPUMilliseconds()
            if let (child, childMapping) = steps.last!.apply(to: parent, maxPixels: maxPixels) {
                made = (child, childMapping.then(parentMapping))
            }
            profile?("copy \(steps)", threadCPUMilliseconds() - start, [])
        }
        lock.lock()
        cache[steps] = .some(made)
        lock.unlock()
        return made
    }
}
