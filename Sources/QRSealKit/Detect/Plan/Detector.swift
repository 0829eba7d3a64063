/// Finds and decodes every symbol in a raster.
///
/// zxing-cpp's quick search reads the image as it is first; then, beside our locator, our
/// Aztec reader (`AztecReader`: Runes, and symbols libZXing 1.4 misses or misreads) and our
/// Data Matrix reader (`DataMatrixReader`: distorted symbols, several in one image), each
/// while the codes read leave room for one or include one of its kind. While nothing has been read,
/// or while finder patterns or bars lie outside every code read (or always, at `.thorough`),
/// further passes run two at a time: both engines' own searches on the image as it is,
/// then both on each region around finder patterns no code read explains, then zbar and
/// zxing-cpp on prepared copies of the image (thresholded, inverted, sharpened, padded,
/// enlarged, tiled; of a smaller pyramid level for a large photo), in the order
/// measurement found most productive. The plan is data (`PassPlan.stages(for:pixels:)`):
/// batches of stages, each with a gate, which one loop runs. What is read depends on the image
/// and the effort only: work is bounded by counts and sizes, and the time budget is a
/// safety net a normal image never reaches. Every engine result passes `SymbolCheck`;
/// results are merged by content and position, so a symbol found twice is reported once,
/// and corners are in the input's pixels.
public struct Detector: Sendable {
    public var symbologies: Set<Symbology>
    /// How many passes may run and for how long.
    public var effort: Effort
    /// Replaces the effort's time budget (`Effort.timeBudget(pixels:)`), the safety net
    /// that stops starting passes on a pathological input: once the passes have spent it
    /// (CPU time, on every thread together), no further budgeted stage starts.
    public var timeBudget: TimeBudget?
    /// No prepared copy of the image (padded, enlarged, …) holds more pixels than this; a
    /// pass whose copy would is skipped. The CLI passes its `--max-pixels`.
    public var maxPixels: Int
    /// How what is read is reported: Code 39 Full ASCII, EAN add-ons (`ReadingOptions`).
    public var reading = ReadingOptions()
    /// Told of every pass and census, with the CPU time its thread spent and what it read:
    /// bench/passes' profile of the plan (`passes --plan`). Nil everywhere else.
    var profile: (@Sendable (_ stage: String, _ cpuMilliseconds: Double, _ reads: [Detection]) -> Void)? = nil

    public init(symbologies: Set<Symbology> = Symbology.defaultSet, effort: Effort = .balanced,
                maxPixels: Int = ImageDecoder.defaultMaxPixels) {
        self.symbologies = symbologies
        self.effort = effort
        self.maxPixels = maxPixels
    }

    /// Every distinct symbol in `image`, in reading order (top to bottom, left to right),
    /// with corners in `image`'s pixels.
    public func detect(in image: GrayImage) -> [Detection] {
        examine(image).detections
    }

    /// What `detect(in:)` finds, and why a library in the engine gave no answer on some pass
    /// (each failure once): the other passes and readers still ran, but a symbol only that
    /// library would have read may be missing.
    public func examine(_ image: GrayImage) -> DetectorReport {
        let failures = EngineFailures()
        let detections = detect(in: image, failures: failures)
        return DetectorReport(detections: detections, failures: failures.all)
    }

    private func detect(in image: GrayImage, failures: EngineFailures) -> [Detection] {
        guard image.width > 0, image.height > 0, !symbologies.isEmpty else { return [] }
        let budget = timeBudget ?? effort.timeBudget(pixels: image.width * image.height)
        // The CPU time the passes have spent, on every thread: unlike the clock, it does not
        // grow with the machine's load.
        var spent = 0.0
        let prepared = PreparedImages(image, maxPixels: maxPixels, profile: profile)
        // Every read so far, merged afresh after each batch so that a conflict, once seen,
        // stays seen.
        var reads: [Detection] = []
        var found: [Detection] = []
        // The evidence gates look at, taken once, when a gate first asks for it.
        var census: FinderCensus?
        var bars: [BarRegion]?
        func takenCensus() -> FinderCensus {
            census = census ?? takeCensus(prepared)
            return census!
        }
        func foundBars() -> [BarRegion] {
            bars = bars ?? findBars(image)
            return bars!
        }
        var finders: Bool?
        func thresholdedFinders() -> Bool {
            finders = finders ?? findThresholdedFinders(prepared)
            return finders!
        }
        // On a crowded page some groups of finder patterns join the patterns of
        // neighbouring codes; once the codes around them are read, their patterns are
        // explained and the rest regroup, so the regions are made again (those not read
        // before) while new codes come.
        var tried: Set<Pass> = []
        func readRegions() {
            for _ in 0..<PassPlan.regionRounds {
                let regions = PassPlan.regions(takenCensus(), unexplainedBy: found)
                    .filter { !tried.contains($0) }
                guard !regions.isEmpty else { break }
                tried.formUnion(regions)
                let before = found.count
                reads += run(regions, on: prepared, spent: &spent, failures: failures)
                found = Self.merged(reads)
                if found.count == before { break }
            }
        }
        for batch in PassPlan.stages(for: effort, pixels: image.width * image.height, addOns: reading.eanAddOns) {
            // The time budget is a safety net that a normal image never reaches.
            let due = batch.filter { stage in
                !(stage.budgeted && !budget.allows(spentMilliseconds: spent))
                    && stage.gate.holds(found, width: image.width, height: image.height, census: takenCensus,
                                       bars: foundBars, finders: thresholdedFinders)
            }
            let passes = due.filter { $0.afterwards == nil }.flatMap(\.passes)
            if !passes.isEmpty {
                reads += run(passes, on: prepared, spent: &spent, bars: bars, read: found, failures: failures)
                found = Self.merged(reads)
            }
            if due.contains(where: { $0.work == .regions }) { readRegions() }
            let later = due.filter { stage in
                stage.afterwards?.holds(found, width: image.width, height: image.height, census: takenCensus,
                                        bars: foundBars, finders: thresholdedFinders) == true
            }.flatMap(\.passes)
            if !later.isEmpty {
                // Only the bar regions no code read explains are left to read; found once
                // here for the readers of the stage (the grey-profile and turned MicroPDF417
                // readers) when no gate has found them yet.
                reads += run(later, on: prepared, spent: &spent, bars: PassPlan.unread(foundBars(), by: found),
                             read: found, failures: failures)
                found = Self.merged(reads)
            }
        }
        return found.map { $0.withGeometry(from: image) }
    }

    /// The bar regions of the image as it is, for `PassPlan.Gate.unreadBars`: up to
    /// `PassPlan.barRegionsLooked`, so that a sheet of several linear codes shows each.
    private func findBars(_ image: GrayImage) -> [BarRegion] {
        let start = profile == nil ? 0 : threadCPUMilliseconds()
        let bars = BarRegions.find(in: image, most: PassPlan.barRegionsLooked)
        profile?("bar regions", threadCPUMilliseconds() - start, [])
        return bars
    }

    /// Whether a finder pattern shows on one of the thresholded copies of the first two
    /// `balanced` batches (`PassPlan.Gate.thresholdedFinders`), made on the pyramid level of
    /// a large photo as those passes' copies are; the copies and their censuses stay in
    /// `prepared` for the passes. As for a pass, making a copy is not in the profile.
    private func findThresholdedFinders(_ prepared: PreparedImages) -> Bool {
        PassPlan.thresholdedCopies.contains { copySteps in
            let steps = PassPlan.onPyramid(copySteps, pixels: prepared.width * prepared.height)
            guard let (copy, _) = prepared.image(for: steps) else { return false }
            let start = profile == nil ? 0 : threadCPUMilliseconds()
            defer { profile?("thresholded finders \(copySteps)", threadCPUMilliseconds() - start, []) }
            guard let dark = prepared.binarized(for: steps), let census = prepared.census(for: steps, slack: 0.5) else { return false }
            return census.holdsConfirmedPattern(on: dark, width: copy.width, height: copy.height)
        }
    }

    /// The finder census of the image as it is, for the regions and the decision to go on.
    private func takeCensus(_ prepared: PreparedImages) -> FinderCensus {
        let start = profile == nil ? 0 : threadCPUMilliseconds()
        let census = prepared.census(for: [], slack: 0.5)!
        profile?("census", threadCPUMilliseconds() - start, [])
        return census
    }

    /// The fewest pixels a matrix code takes on a side: 10 modules (the smallest Data
    /// Matrix) of one pixel. A thinner image holds none, so only passes that read linear
    /// codes run on it, and no copy is made for the others.
    static let smallestMatrixSide = 10

    /// Runs `passes` side by side and checks every result; adds the CPU time they took to
    /// `spent`, in milliseconds. `bars` are the bar regions of the image as it is, when a
    /// gate found them, so that the grey-profile reader does not find them again; `read`,
    /// the codes read before (`ReaderInput.isInsideRead`).
    private func run(_ passes: [Pass], on prepared: PreparedImages, spent: inout Double,
                     bars: [BarRegion]? = nil, read found: [Detection] = [], failures: EngineFailures) -> [Detection] {
        let strongly = symbologies.filter(\.isStronglyChecked)
        let quads = found.filter { $0.corners.count == 4 }.map(\.corners)
        let mayHoldMatrix = min(prepared.width, prepared.height) >= Self.smallestMatrixSide
        let results = concurrentMap(passes) { pass -> ([Detection], Double) in
            let wanted = pass.isStrict ? strongly : symbologies
            guard !wanted.isEmpty, mayHoldMatrix || pass.readsLinearCodes else { return ([], 0) }
            let start = threadCPUMilliseconds()
            guard let (copy, mapping) = prepared.image(for: pass.steps) else { return ([], threadCPUMilliseconds() - start) }
            let copied = threadCPUMilliseconds()
            // Each reader of bars takes the largest few of them it can afford.
            var input = prepared.readerInput(copy, for: pass.steps, bars: pass.steps.isEmpty ? bars : nil, failures: failures)
            input.reading = reading
            if !quads.isEmpty { input.isInsideRead = { p in let q = mapping.apply(p); return quads.contains { $0.encloses(q) } } }
            let read = pass.run(on: input, symbologies: wanted).compactMap {
                SymbolCheck.detection(from: $0, mapping: mapping, inputWidth: prepared.width,
                                      inputHeight: prepared.height, wanted: wanted, reading: reading)
            }.map { detection in
                var detection = detection
                detection.engine = pass.engine
                return detection
            }
            let end = threadCPUMilliseconds()
            profile?("\(pass)", end - copied, read)
            return (read, end - start)
        }
        spent += results.reduce(0) { $0 + $1.1 }
        return results.flatMap(\.0)
    }
}

/// What `Detector.examine(_:)` found in one image.
public struct DetectorReport: Sendable {
    /// Every distinct symbol, in reading order.
    public var detections: [Detection]
    /// Why a library in the engine gave no answer on some pass, each once: the image may
    /// hold a symbol only that library would have read.
    public var failures: [EngineFailure]

    public init(detections: [Detection], failures: [EngineFailure] = []) {
        self.detections = detections
        self.failures = failures
    }
}

extension Detection {
    /// This QR code with the version (and level) `QRGeometry` reads from the image, when it
    /// had none and the image confirms them and any level the engine gave.
    func withGeometry(from image: GrayImage) -> Detection {
        guard symbology == .qr, version == nil, model == nil, let (version, level) = QRGeometry.read(image, corners: corners),
              errorCorrection == nil || errorCorrection == level else { return self }
        var read = self
        read.version = version
        read.errorCorrection = level
        return read
    }
}
