/// zxing-cpp (in the engine's helper) as a pass runs it: `harder` turns on its slower
/// searches (tryHarder, and tryRotate for linear codes), which pay only when the quick
/// search found nothing; `globalThreshold` binarizes with one threshold for the whole image
/// instead of local ones. The harder search leaves GS1 DataBar and DataBar Expanded to our
/// width reader (`WidthReader`), which reads them at any angle: libZXing 1.4 looks for
/// DataBar in a call of its own (`zxs_read_gray`), over every row again and turned, which
/// cost a third of the harder search's time over the shared corpus (77 of 281 ms) for four
/// Expanded Stacked symbols that our reader reads too.
struct ZXingSearch: SymbolReader {
    var harder = false
    var globalThreshold = false

    var description: String { globalThreshold ? "zxingGlobal" : "zxing(harder: \(harder))" }

    /// What the harder search leaves to our own readers.
    static let leftToOurs: Set<Symbology> = [.databar, .databarExpanded]

    func read(_ input: ReaderInput, symbologies: Set<Symbology>) -> [Candidate] {
        var wanted = harder ? symbologies.subtracting(Self.leftToOurs) : symbologies
        // Turning every row four ways for linear codes pays only where bars show: on the image
        // as it is, whose bar regions the plan found (`ReaderInput.bars`), none means matrix
        // codes alone are looked for, as zbar's scan of every pixel does not run there.
        if harder, input.bars?.isEmpty == true { wanted = wanted.filter(\.isMatrix) }
        var zxing = ZXingEngine(symbologies: wanted)
        zxing.failures = input.failures
        zxing.eanAddOns = input.reading.eanAddOns
        if globalThreshold {
            zxing.binarizer = .globalHistogram
        } else {
            zxing.tryHarder = harder
            zxing.tryRotate = harder
        }
        return zxing.scan(input.image)
    }
}

/// zbar as a pass runs it, without its own inverted retry: inverted copies are passes of
/// their own. With `linearOnly`, its QR search is left out: on a large photo that search
/// costs five times its linear scan, and runs on a smaller copy instead (`PassPlan.plain`).
/// With `productCodesOnly`, only its EAN/UPC decoders run (`PassPlan.linearCopies`).
struct ZBarSearch: SymbolReader {
    var linearOnly = false
    var productCodesOnly = false

    var description: String { productCodesOnly ? "zbar(products)" : linearOnly ? "zbar(linear)" : "zbar" }

    func read(_ input: ReaderInput, symbologies: Set<Symbology>) -> [Candidate] {
        // zbar's DataBar decoder prints assertion warnings to stderr on processed copies;
        // zxing-cpp reads DataBar in those passes instead.
        var set = input.isStrict ? symbologies.subtracting([.databar, .databarExpanded]) : symbologies
        if linearOnly { set = set.filter { !$0.isMatrix } }
        if productCodesOnly { set = set.filter { $0.eanModules != nil } }
        guard !set.isEmpty else { return [] }
        var zbar = ZBarEngine(symbologies: set)
        zbar.testInverted = false
        zbar.eanAddOns = input.reading.eanAddOns
        return zbar.scan(input.image)
    }
}

extension SymbolReader where Self == ZXingSearch {
    /// zxing-cpp, its slower searches on when `harder`.
    static func zxing(harder: Bool) -> ZXingSearch { ZXingSearch(harder: harder) }
    /// zxing-cpp with one global threshold instead of local ones.
    static var zxingGlobal: ZXingSearch { ZXingSearch(globalThreshold: true) }
}

extension SymbolReader where Self == ZBarSearch {
    /// zbar.
    static var zbar: ZBarSearch { ZBarSearch() }
    /// zbar's linear scan alone.
    static var zbarLinear: ZBarSearch { ZBarSearch(linearOnly: true) }
    /// zbar's EAN/UPC decoders alone (EAN-13, UPC-A, EAN-8, UPC-E and the ISBNs).
    static var zbarProducts: ZBarSearch { ZBarSearch(linearOnly: true, productCodesOnly: true) }
}
