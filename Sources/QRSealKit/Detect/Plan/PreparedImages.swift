import FoundationEssentials
import Glibc

/// Prepared copies of one image and what is taken from them (their binarized pixels, the
/// runs along their rows, their finder censuses), each made once however many passes use
/// it, no copy larger than `maxPixels`.
///
/// The passes of one batch run side by side and often ask for the same product at once:
/// zbar's pass and the evidence gate the same thresholded copy, two copies their parent,
/// our Aztec and Data Matrix readers the same runs. The first to ask makes it, holding no
/// lock; the others wait for that product alone while other products are made beside it.
/// A product asks only for those it is made from (a copy for its parent; binarized pixels
/// for their copy; runs and censuses for both), never for one made from it, so no two
/// threads can wait for each other.
final class PreparedImages: @unchecked Sendable {
    /// What is made once per image.
    enum Product: Hashable, Sendable {
        case copy([Step])
        case binarized([Step])
        case runs([Step])
        case census([Step], slack: Double)
    }

    private let original: GrayImage
    private let maxPixels: Int
    /// Told of every copy made, as `copy STEPS`, with the CPU time its own step took (its
    /// parent's not included): bench/passes' profile of the plan. Nil everywhere else.
    private let profile: (@Sendable (_ stage: String, _ cpuMilliseconds: Double, _ reads: [Detection]) -> Void)?
    /// Told when a thread starts making a product (`making` true) and when one waits for a
    /// product another thread is making (false, under the lock: it must not block). Tests
    /// count and order them with it; nil everywhere else.
    var observe: (@Sendable (_ product: Product, _ making: Bool) -> Void)?

    private let condition = Condition()
    /// Each product made, as the type its method returns.
    private var made: [Product: Any] = [:]
    /// The products a thread is making now.
    private var underway: Set<Product> = []
    private var fruitlessCache: [[Step]: FruitlessTriples] = [:]

    var width: Int { original.width }
    var height: Int { original.height }

    init(_ image: GrayImage, maxPixels: Int,
         profile: (@Sendable (_ stage: String, _ cpuMilliseconds: Double, _ reads: [Detection]) -> Void)? = nil) {
        original = image
        self.maxPixels = maxPixels
        self.profile = profile
    }

    /// The copy `steps` make, with the mapping from its pixels to the original's, or nil
    /// when a step does not apply.
    func image(for steps: [Step]) -> (GrayImage, PixelMapping)? {
        if steps.isEmpty { return (original, .identity) }
        return once(.copy(steps)) { () -> (GrayImage, PixelMapping)? in
            guard let (parent, parentMapping) = image(for: Array(steps.dropLast())) else { return nil }
            let start = profile == nil ? 0 : threadCPUMilliseconds()
            defer { profile?("copy \(steps)", threadCPUMilliseconds() - start, []) }
            guard let (child, childMapping) = steps.last!.apply(to: parent, maxPixels: maxPixels) else { return nil }
            return (child, childMapping.then(parentMapping))
        }
    }

    /// The copy `steps` make as `Binarizer.binarized(_:)` gives it, made once however many
    /// passes (the locator's two runs, the census of unread finder patterns) use it; nil when
    /// a step does not apply.
    func binarized(for steps: [Step]) -> [Bool]? {
        guard let (copy, _) = image(for: steps) else { return nil }
        return once(.binarized(steps)) { Binarizer.binarized(copy) }
    }

    /// The runs along the rows of the copy `binarized(for:)` gives (`RowRuns`), found once
    /// however many of our readers scan its rows; nil when a step does not apply.
    func rowRuns(for steps: [Step]) -> RowRuns? {
        guard let dark = binarized(for: steps), let (copy, _) = image(for: steps) else { return nil }
        return once(.runs(steps)) { RowRuns(dark: dark, width: copy.width, height: copy.height) }
    }

    /// The finder census of the copy `steps` make, runs allowed to stray by `slack`, taken
    /// once however many passes use it (the locator, the regions and the decision to go on
    /// after a read share the one at 0.5); nil when a step does not apply. Only the census of
    /// the image as it is looks down the columns beside a pattern's centre too
    /// (`FinderCensus.init(dark:width:height:slack:besideCentre:)`): on a thresholded copy,
    /// whose census is the evidence that a code is there (`PassPlan.Gate.thresholdedFinders`),
    /// that would let a texture's finder-like runs pass for one.
    func census(for steps: [Step], slack: Double) -> FinderCensus? {
        guard let dark = binarized(for: steps), let (copy, _) = image(for: steps) else { return nil }
        return once(.census(steps, slack: slack)) {
            FinderCensus(dark: dark, width: copy.width, height: copy.height, slack: slack, besideCentre: steps.isEmpty)
        }
    }

    /// The triples the locator read nothing from on the copy `steps` make, shared by its
    /// runs there (`FruitlessTriples`).
    func fruitlessTriples(for steps: [Step]) -> FruitlessTriples {
        condition.lock(); defer { condition.unlock() }
        if let made = fruitlessCache[steps] { return made }
        let made = FruitlessTriples()
        fruitlessCache[steps] = made
        return made
    }

    /// What a pass on `copy`, the copy `steps` make, hands its reader: the binarized copy,
    /// its runs, its census and the locator's fruitless triples, each made once here for
    /// every pass on it; `bars` and `failures` as the detector has them.
    func readerInput(_ copy: GrayImage, for steps: [Step], bars: [BarRegion]?, failures: EngineFailures) -> ReaderInput {
        var input = ReaderInput(copy)
        input.binarized = { self.binarized(for: steps) ?? Binarizer.binarized(copy) }
        input.runs = { self.rowRuns(for: steps) }
        input.census = { self.census(for: steps, slack: $0) }
        input.fruitless = fruitlessTriples(for: steps)
        input.bars = bars
        input.failures = failures
        return input
    }

    /// `product`, made by `make` on this thread unless it is made already or another thread
    /// is making it, when this one waits for it. The lock is held only to look and to store.
    private func once<Value>(_ product: Product, _ make: () -> Value) -> Value {
        condition.lock()
        while made[product] == nil, underway.contains(product) {
            observe?(product, false)
            condition.wait()
        }
        if let value = made[product] {
            condition.unlock()
            return value as! Value
        }
        underway.insert(product)
        condition.unlock()
        observe?(product, true)
        let value = make()
        condition.lock()
        made[product] = value
        underway.remove(product)
        condition.broadcast()
        condition.unlock()
        return value
    }
}
