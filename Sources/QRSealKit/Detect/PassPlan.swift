/// Which passes run, in which order: chosen by measurement on the zxing-cpp and zbar
/// sample images and on the generated hard images (see bench/README.md), by how many
/// unread images a pass reads per millisecond it costs.
///
/// Gates: what decides, from the image and what was read so far, that a batch can still pay.
/// They are counts and sizes, never the clock, and each was measured over the shared corpus,
/// Tests/Images and the generated sets to lose no read (`passes --plan`, bench/README.md
/// "Where the time goes"). `Detector.detect(in:)` applies them in this order:
/// - nothing read yet: every batch of the effort runs;
/// - `profiled` (the grey-profile EAN/UPC reader), at `balanced`: only while a
///   bar region lies outside every linear code read but an EAN-8 or UPC-E (`profilesPay`);
///   it runs whatever else was read, and the gates below do not apply to it;
/// - something read (`balanced`): the next batch runs only while the codes read cover less
///   than a third of the image (`FinderCensus.leavesRoom`) and the census of the image as it
///   is still groups three finder patterns, each crossed by at least
///   `FinderCensus.leastGroupedHits` scan rows, outside every code read (`FinderCensus.regions`);
/// - `regions`, after `regionsAfter` batches: only where something was read; on a photo
///   larger than `pyramidAbove`, right after the quick search as well, at every effort, so
///   that `fast` reads a sheet region by region (`balanced` still runs the locator and the
///   plain searches after them, for codes whose finders formed no group); at most
///   `FinderCensus.maxRegions` a round;
/// - per pass: a copy larger than `Detector.maxPixels`, or a step that does not apply to the
///   image's size (`Step.apply`), skips the pass; an image thinner than a matrix code
///   (`Detector.smallestMatrixSide`) runs only the passes that read linear codes;
/// - inside the locator (`located`, `widelyLocated`), per triple of finder patterns: one
///   whose timing patterns, sampled through the first mapping within
///   `QRLocator.nearFinderModules` of the finders, miss more than `QRLocator.nearFinderErrors`
///   modules is dropped before its alignment patterns are looked for, unless its version
///   information was read; a grid's timing patterns are checked from their bands alone
///   before every module is sampled (`ModuleGrid.timingModules`); and a triple the narrow
///   run tried to the end in vain is not tried again by the wide one (`FruitlessTriples`).
/// A new pass goes into a batch here; if it can only pay given some evidence (finder
/// patterns, a bar-like region, a bull's-eye), that evidence is computed once per image and
/// cached in `PreparedImages`, as the census is, and the gate named in this list.
enum PassPlan {
    /// Always runs: zxing-cpp's quick search on the image as it is, which reads most codes
    /// in about a millisecond, and beside it our Aztec reader, whose bull's-eye search
    /// rejects an image without one in one pass over its rows. The Aztec reader runs here,
    /// not later, because its read must meet zxing-cpp's on the same symbol: libZXing 1.4
    /// misreads some Aztec symbols, and a read soundly checked by our Reed–Solomon decoder
    /// wins over a different one (`Detector.merged`). Our Data Matrix reader runs here for
    /// the same reason; an image without an L-shaped region costs it one labelling of its
    /// dark and of its light pixels.
    static let first: [Pass] = [Pass(.zxing(harder: false)), Pass(.aztec), Pass(.dataMatrix)]

    /// The quick search at `effort`. Live frames (`fast`) leave our Data Matrix reader out:
    /// on a noisy 720p frame with a dense QR code in view its labelling costs about as much
    /// as the rest of the batch and halved the live frame rate, while zxing-cpp's quick
    /// search still reads Data Matrix there.
    static func first(for effort: Effort) -> [Pass] {
        effort == .fast ? first.filter { $0.engine != .dataMatrix } : first
    }

    /// The batches that may follow, each run side by side, most productive first. Every
    /// batch runs whatever the machine's load (`Effort.timeBudget` is only a safety net),
    /// so work is bounded by the image's size instead: above `pyramidAbove` pixels (a large
    /// photo, where each pass takes long), the prepared copies of `balanced` are made from
    /// a copy shrunk to that size, while both engines' plain searches and the regions around
    /// unexplained finder patterns (`regions`) still see every pixel.
    static func further(for effort: Effort, pixels: Int) -> [[Pass]] {
        switch effort {
        // Our locator (issue 10, items 4 and 7) runs first after the quick search at every
        // effort: it costs a finder scan when it finds no triple. On a large photo it sees
        // every pixel, as the plain searches do.
        case .fast: return located
        case .balanced: return located + plain + profiled + widelyLocated + onPyramid(balanced, pixels: pixels)
        case .thorough: return located + plain + profiled + widelyLocated + onPyramid(balanced, pixels: pixels) + thorough
        }
    }

    /// Our own locator and rectifier (`QRLocator`), alone in its batch: dense and curved
    /// QR codes that the engines' own detectors sample wrongly.
    static let located: [[Pass]] = [[Pass(.located(wide: false))]]

    /// The locator again, accepting finder patterns whose rings blur has thinned: it reads
    /// codes the first run misses (and misses some it reads), so it comes after the plain
    /// searches, which read most images it would otherwise cost.
    static let widelyLocated: [[Pass]] = [[Pass(.located(wide: true))]]

    /// Four megapixels: a screenshot, a scan or a downsized photo.
    static let pyramidAbove = 4_000_000

    /// `batches` with every pass made on the image shrunk to `pyramidAbove` pixels, when the
    /// image holds more.
    static func onPyramid(_ batches: [[Pass]], pixels: Int) -> [[Pass]] {
        guard pixels > pyramidAbove else { return batches }
        return batches.map { $0.map { Pass($0.engine, [.fitPixels(pyramidAbove)] + $0.steps) } }
    }

    /// After how many of `further`'s batches the regions around unexplained finder patterns
    /// are read: after the locator, both engines' plain searches and the grey-profile
    /// reader, which read most codes of a sheet. These first batches run even past the time
    /// budget, as the quick search does.
    static let regionsAfter = located.count + plain.count + profiled.count

    /// How many times the regions of a large photo are made again from the patterns the
    /// codes read so far leave unexplained, while new codes are read.
    static let regionRounds = 4

    /// zxing-cpp on each region around finder patterns no code read explains, one by one
    /// (at most `FinderCensus.maxRegions`): the codes of a crowded page or a large photo
    /// that the searches over the whole image missed, since libZXing 1.4 tries only the
    /// first 256 combinations of similar finder patterns in one image. Regions whose
    /// modules are under three pixels are also read enlarged twice.
    static func regions(_ census: FinderCensus, unexplainedBy found: [Detection], width: Int, height: Int) -> [Pass] {
        census.regions(unexplainedBy: found, width: width, height: height).flatMap { r -> [Pass] in
            let region = Step.region(x: r.x, y: r.y, width: r.width, height: r.height)
            let pass = Pass(.zxing(harder: true), [region])
            return r.module < 3 ? [pass, Pass(.zxing(harder: true), [region, .upscale(2)])] : [pass]
        }
    }

    /// Batches of two passes, run on two cores. Between them they read every image of the
    /// zxing-cpp and zbar samples and of Tests/Images/hard that any pass reads.
    /// zxing-cpp on a sharpened copy (`sharpen(radius: 3)`), once second in this list, was
    /// dropped when the locator came: nothing of the corpus, of Tests/Images or of the
    /// generated sets was read by it and by no other pass (bench/README.md, "Where the time goes").
    static let balanced: [[Pass]] = [
        // zbar on a local threshold, for codes zxing-cpp's finder misses (dotted, textured,
        // without a quiet zone, out of focus, uneven light); light on dark.
        [Pass(.zbar, [.threshold(0.025)]), Pass(.zxing(harder: false), [.invert])],
        // Noise and low contrast; out of focus.
        [Pass(.zbar, [.blur(radius: 1), .threshold(0.08)])],
        // Tiny codes and codes without a quiet zone.
        [Pass(.zxing(harder: true), [.pad(0.1), .enlargeTo(400)]), Pass(.zxing(harder: true), [.upscale(2), .threshold(0.05)])],
    ]

    /// The first batch after the quick search: both engines' own searches on the image as
    /// it is, for what the prepared copies damage and for linear codes turned 90°, which the
    /// quick search skips. They are cheap, and what plain zbarimg or ZXingReader reads must
    /// never be missed, so they come before every copy and always run.
    static let plain: [[Pass]] = [[Pass(.zbar), Pass(.zxing(harder: true))]]

    /// Our own EAN/UPC reader on grey levels (`ProfileReader`), after both plain searches:
    /// it reads blurred and low-resolution bars both engines lose, and its reads outvote
    /// theirs where an engine reads part of a symbol as a shorter one (`Detector.merged`).
    /// It runs whatever was read, unless every bar region is a code read already
    /// (`profilesPay`): fitting profiles costs more than both engines' searches, and where
    /// an engine read the whole symbol it can only agree.
    static let profiled: [[Pass]] = [[Pass(.profiles)]]

    /// Whether the grey-profile reader can still add a read: some bar region of the image
    /// (`BarRegions`) has its centre outside every linear code read, an EAN-8 or a UPC-E
    /// not counted (an engine may have read part of a longer symbol as one of those).
    static func profilesPay(_ found: [Detection], image: GrayImage) -> Bool {
        let whole = found.filter { !$0.symbology.isMatrix && $0.symbology != .ean8 && $0.symbology != .upce }
        return BarRegions.find(in: image).contains { region in
            !whole.contains { d in
                let dx = region.x - d.center.x, dy = region.y - d.center.y
                return (dx * dx + dy * dy).squareRoot() < d.extent / 2
            }
        }
    }

    /// What `.thorough` adds: further passes that read images no earlier pass did, then
    /// tiles, for pages of many small codes.
    static let thorough: [[Pass]] = [
        [Pass(.zxing(harder: true), [.blur(radius: 1), .threshold(0.08)]), Pass(.zbar, [.invert])],
        [Pass(.zxing(harder: true), [.threshold(0.05)]), Pass(.zbar, [.upscale(2)])],
        [Pass(.zxing(harder: true), [.sharpen(radius: 2)]), Pass(.zbar, [.sharpen(radius: 2)])],
        [Pass(.zxingGlobal), Pass(.zbar, [.sharpen(radius: 3), .threshold(0.03)])],
        [Pass(.zxing(harder: true), [.upscale(2), .sharpen(radius: 2)]), Pass(.zbar, [.growDark(1)])],
        [Pass(.zxing(harder: true), [.shrinkTo(800)]), Pass(.zbar, [.shrinkTo(800)])],
        [Pass(.zbar, [.blur(radius: 2)]), Pass(.zbar, [.growLight(1)])],
    ] + tiles(2) + tiles(3)

    /// Both engines on each of `n` × `n` overlapping tiles, one batch per tile.
    static func tiles(_ n: Int) -> [[Pass]] {
        (0..<n).flatMap { row in
            (0..<n).map { column in
                [Pass(.zxing(harder: true), [.tile(count: n, column: column, row: row)]),
                 Pass(.zbar, [.tile(count: n, column: column, row: row)])]
            }
        }
    }

    /// Every pass of every plan.
    static let catalogue: [Pass] = first + (located + plain + profiled + widelyLocated + balanced + thorough).flatMap { $0 }
}
