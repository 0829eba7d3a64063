/// What a pass runs on its prepared copy: an engine (zxing-cpp, zbar) or one of our own
/// readers. Every pass calls its reader the same way, so a new symbology is a folder with
/// a conforming type (and a static member below for the plan to name it by) plus a line
/// in `PassPlan`. Readers are small values saying how to search, made once in the plan;
/// the per-image work happens in `read(_:symbologies:)`.
protocol SymbolReader: Hashable, Sendable, CustomStringConvertible {
    /// The candidates in `input.image` among `symbologies` (those the pass asks for and may
    /// read, never empty); corners in the copy's pixels.
    func read(_ input: ReaderInput, symbologies: Set<Symbology>) -> [Candidate]
}

/// What a pass hands its reader: the prepared copy and what passes over the same copy share,
/// each made once when a reader first asks (`PreparedImages`).
struct ReaderInput {
    /// The prepared copy.
    let image: GrayImage
    /// Whether the pass's results are held to `Symbology.isStronglyChecked` (`Pass.isStrict`).
    var isStrict = false
    /// The copy binarized (`Binarizer.binarized(_:)`).
    var binarized: () -> [Bool]
    /// Its runs along the rows (`RowRuns`), nil when they cannot be made.
    var runs: () -> RowRuns? = { nil }
    /// Its finder census at a slack, nil when it cannot be taken.
    var census: (Double) -> FinderCensus? = { _ in nil }
    /// The triples the locator read in vain on this copy, shared by its runs.
    var fruitless: FruitlessTriples? = nil
    /// The copy's bar regions, when a gate has found them already (`BarRegions`).
    var bars: [BarRegion]? = nil
    /// Told why zxing-cpp gave no answer, when it gave none.
    var failures: EngineFailures? = nil
    /// What the user asked of the reading (EAN add-ons).
    var reading = ReadingOptions()
    /// Whether a point of the copy lies inside a code read before the pass's batch began:
    /// a QR code's finder pattern is that code's, and no reader need look for another
    /// symbol there.
    var isInsideRead: (Point) -> Bool = { _ in false }

    /// `image` alone: every reader makes what it needs from it.
    init(_ image: GrayImage) {
        self.image = image
        binarized = { Binarizer.binarized(image) }
    }
}
