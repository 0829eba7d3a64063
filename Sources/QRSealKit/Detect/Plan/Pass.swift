/// One engine run on one prepared copy of the image.
struct Pass: Sendable, Hashable {
    enum Engine: Hashable, Sendable {
        /// zxing-cpp; `harder` turns on its slower searches (tryHarder, and tryRotate for
        /// linear codes), which pay only when the quick search found nothing.
        case zxing(harder: Bool)
        /// zxing-cpp with one global threshold instead of local ones.
        case zxingGlobal
        /// zbar, without its own inverted retry: inverted copies are passes of their own.
        case zbar
        /// Our own locator and rectifier (`QRLocator`): QR codes only, each decoded by
        /// zxing-cpp from a clean rendering of the modules its grid samples; `wide` lets
        /// finder patterns whose rings blur and thresholding have thinned count.
        case located(wide: Bool)
        /// Our own Aztec reader (`AztecReader`): bull's-eyes, Aztec Runes, and symbols whose
        /// dark modules print thick or thin, which libZXing 1.4 misses or misreads.
        case aztec
        /// Our own Data Matrix reader (`DataMatrixReader`): distorted symbols and several in
        /// one image, which libZXing 1.4 misses.
        case dataMatrix
        /// Our own reader of EAN-13, UPC-A, EAN-8 and UPC-E from grey-level profiles
        /// (`ProfileReader`): blurred and low-resolution photos that binarizing loses.
        case profiles
    }

    let engine: Engine
    let steps: [Step]

    init(_ engine: Engine, _ steps: [Step] = []) {
        self.engine = engine
        self.steps = steps
    }

    /// Whether results of this pass are held to `Symbology.isStronglyChecked`: processed
    /// copies (thresholded, sharpened, tiled) invent bar patterns that weakly checked
    /// linear symbologies would happily read.
    var isStrict: Bool { !steps.isEmpty }

    /// Whether this pass looks for linear codes too. Only the image as it is and its
    /// inverted copy do: linear scanning costs each engine more than its QR search, and
    /// linear codes do not gain from the other copies as QR codes do.
    var readsLinearCodes: Bool { steps.isEmpty || steps == [.invert] }

    /// What this pass reports on `image`, the prepared copy; corners in the copy's pixels.
    /// `binarized` gives the copy as `FinderCensus.binarized(_:)` makes it, `runs` that copy's
    /// runs along its rows, `census` its finder census at a slack, and `fruitless` the triples
    /// read in vain on it, for the locator, so that passes over the same copy share them;
    /// `bars` the copy's bar regions when a gate has found them already; `failures` is told
    /// why zxing-cpp gave no answer, when it gave none.
    func run(on image: GrayImage, symbologies wanted: Set<Symbology>,
             binarized: (() -> [Bool])? = nil, runs: (() -> RowRuns?)? = nil,
             census: ((Double) -> FinderCensus?)? = nil, fruitless: FruitlessTriples? = nil,
             bars: [BarRegion]? = nil, failures: EngineFailures? = nil) -> [Candidate] {
        let symbologies = readsLinearCodes ? wanted : wanted.filter(\.isMatrix)
        guard !symbologies.isEmpty else { return [] }
        switch engine {
        case .zxing(let harder):
            var zxing = ZXingEngine(symbologies: symbologies)
            zxing.failures = failures
            zxing.tryHarder = harder
            zxing.tryRotate = harder
            return zxing.scan(image)
        case .zxingGlobal:
            var zxing = ZXingEngine(symbologies: symbologies)
            zxing.failures = failures
            zxing.binarizer = .globalHistogram
            return zxing.scan(image)
        case .located(let wide):
            guard symbologies.contains(.qr) else { return [] }
            let slack = wide ? 0.75 : 0.5
            return QRLocator(image: image, slack: slack, dark: binarized?(), census: census?(slack),
                             fruitless: fruitless, failures: failures).read()
        case .aztec:
            guard symbologies.contains(.aztec) else { return [] }
            return AztecReader(image: image, dark: binarized?(), runs: runs?() ?? nil).read().map { read in
                var candidate = read.candidate
                candidate.isSoundlyChecked = read.symbol.isSoundlyChecked
                return candidate
            }
        case .dataMatrix:
            guard symbologies.contains(.dataMatrix) else { return [] }
            return DataMatrixReader(image: image, dark: binarized?(), runs: runs?() ?? nil).read().map(\.candidate)
        case .profiles:
            return ProfileReader(symbologies: symbologies).scan(image, regions: bars)
        case .zbar:
            // zbar's DataBar decoder prints assertion warnings to stderr on processed copies;
            // zxing-cpp reads DataBar in those passes instead.
            let set = isStrict ? symbologies.subtracting([.databar, .databarExpanded]) : symbologies
            var zbar = ZBarEngine(symbologies: set)
            zbar.testInverted = false
            return zbar.scan(image)
        }
    }
}
