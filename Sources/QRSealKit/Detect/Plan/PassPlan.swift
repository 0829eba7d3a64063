import FoundationEssentials
import Glibc

/// Which passes run, in which order, and when: the plan as data. Chosen by measurement on
/// the zxing-cpp and zbar sample images and on the generated hard images (bench/passes, "The detection plan" in
/// bench/README.md), by how many unread images a pass reads per millisecond it costs.
///
/// The plan is an ordered list of batches (`stages(for:pixels:)`); a batch is one or more
/// stages run side by side on the cores, each a set of passes (or the regions, made from
/// the finder census and what was read) with a gate: a named condition on the image, what
/// was read so far and evidence taken once per image (`Gate`). `Detector.detect(in:)` is
/// a plain loop: for each batch, the stages whose gates hold run together, and their reads
/// are merged; a stage with a second gate (`Stage.afterwards`) runs after the others of its
/// batch, when that gate holds on what they read. Gates are counts and sizes, never the clock, and each was measured over the
/// shared corpus, Tests/Images and the generated sets to lose no read (`passes --plan`,
/// bench/passes/compare.py). The stages, in order:
///
/// | stage | `fast` | `balanced` | `thorough` |
/// |---|---|---|---|
/// | `first` (quick search; our Aztec reader beside it at `fast`) | always | always | always |
/// | `regions`, on a photo larger than `pyramidAbove` only | always | always | always |
/// | `located` | `nothingRead` | `roomForMore` (always on a large photo) | always |
/// | after it, `ours` (our Aztec, Data Matrix, rMQR and MicroPDF417 readers; on a large photo's 4-megapixel level) | — | each `read` (its kind) or `uncovered` (MicroPDF417's: and `barsShow`), before the locator and after it | always |
/// | `midrangeLocated` | `nothingRead` | `roomForMore` (always on a large photo) | always |
/// | `plain` (on a large photo at `balanced`, `largeLinear`: zbar's linear scan over every pixel, under `unreadBars` alone, and `plainOnPyramid`: zbar's QR search and zxing-cpp's harder search on the 4-megapixel level), and beside it in the same batch: | — | `roomForMore` or `unreadBars` (or `addOnUnread`, add-ons asked for); zbar over every pixel, while nothing is read, `barsShow` (`linearScanGate`; zxing-cpp's harder search looks for linear codes only where bar regions show, `ZXingSearch`) | always |
/// | `profiled[0]` (our width reader and MicroPDF417 reader across bar regions), after both plain searches | — | `unreadBars`, before them and after them | always |
/// | `profiled[1]` (the grey-profile reader), after those | — | `unreadBars` | always |
/// | `linearCopies` (zbar's EAN/UPC decoders on darkened and enlarged copies; on a large photo's 4-megapixel level) | — | `nothingRead` and `barsShow(productBars)` (the enlarged copy: and `narrowerThan(400)`) | always |
/// | `regions` | — | `somethingRead` (always on a large photo) | `somethingRead` (always on a large photo) |
/// | `widelyLocated` | — | `roomForMore` and `thresholdedFinders` (`roomForMore` on a large photo) | always |
/// | `balanced` (on a 4-megapixel level of a large photo): the inverted copy | — | `roomForMore` | always |
/// | the thresholded copies | — | `roomForMore` and `thresholdedFinders` | always |
/// | the enlarged copies | — | `roomForMore`, and `narrowerThan(400)` or `thresholdedFinders` (rMQR's: `narrowerThan(rmqrCropsBelow)`) | always |
/// | `thorough` | — | — | always |
///
/// On a large photo the regions are read first, then both runs of the locator, whatever
/// was read: the regions are for codes up to version 10, and a scanned page of qrseal's
/// own sheet, four version-40 codes at 300 dpi, forms no group for them while the quick
/// search reads two of its codes. What follows runs under the same gates as on a smaller
/// image: the census counts only groups whose timing patterns hold
/// (`FinderCensus.Group.timed`) as codes left unread, and a finder blurred to a thin ring
/// is still counted, so a page whose regions read every code stops there, where the
/// searches over every pixel of it cost several times zxing-cpp 3.1's whole reading
/// (the generated sheets, bench/README.md). The stages after the second `regions` start only
/// while the passes have spent less CPU time than the effort's time budget
/// (`Stage.budgeted`), a safety net a normal image never reaches. Below the stages:
/// - per pass: a copy larger than `Detector.maxPixels`, or a step that does not apply to the
///   image's size (`Step.apply`), skips the pass; an image thinner than a matrix code
///   (`Detector.smallestMatrixSide`) runs only the passes that read linear codes;
/// - the regions: at most `FinderCensus.maxRegions` a round, `regionRounds` rounds while new
///   codes are read, each region tried once;
/// - inside the locator (`located`, `midrangeLocated`, `widelyLocated`), per triple of finder patterns: one
///   whose timing patterns, sampled through the first mapping within
///   `QRLocator.nearFinderModules` of the finders, miss more than `QRLocator.nearFinderErrors`
///   modules is dropped before its alignment patterns are looked for, unless its version
///   information was read; a grid's timing patterns are checked from their bands alone
///   before every module is sampled (`ModuleGrid.timingModules`), and a grid that reads
///   nothing is fitted to the module edges only when they nearly hold
///   (`QRLocator.fittedTimingShare`); and a triple the narrow
///   run tried to the end in vain is not tried again by the wide one (`FruitlessTriples`).
/// A new pass goes into a stage here; if it can only pay given some evidence (finder
/// patterns, a bar-like region, a bull's-eye), that evidence is computed once per image and
/// cached in `PreparedImages`, as the census is, and named as a `Gate`, as the finder
/// patterns on the thresholded copies are (`Gate.thresholdedFinders`): with nothing read,
/// every other gate of the budgeted stages holds, and a photo with no code would run them all.
enum PassPlan {
    /// One stage of the plan: what runs, and the gate that must hold for it to.
    struct Stage: Sendable, Equatable {
        enum Work: Sendable, Equatable {
            /// These passes, side by side.
            case passes([Pass])
            /// zxing-cpp on each region around finder patterns no code read explains
            /// (`regions(_:unexplainedBy:)`), in up to `regionRounds` rounds.
            case regions
        }
        let work: Work
        let gate: Gate
        /// Whether the stage starts only before the effort's time budget has run out.
        var budgeted = false
        /// When set, the stage runs after the other stages of its batch, and only if this
        /// gate also holds on what they read: `gate` is looked at before the batch, as for
        /// every stage, and this one after it.
        var afterwards: Gate? = nil

        /// The passes of a `.passes` stage, none for the regions.
        var passes: [Pass] {
            if case .passes(let passes) = work { return passes }
            return []
        }
    }

    /// The batches `Detector` runs at `effort` on an image of `pixels` pixels, in order;
    /// the stages of a batch run side by side (the table above). Above `pyramidAbove`
    /// pixels (a large photo, where each pass takes long), the photo is read region by
    /// region first, at every effort, so that `fast` reads a sheet region by region, and
    /// every later pass of `balanced` runs on a copy shrunk to that size, while the
    /// locator, zbar's linear scan and the regions still see every pixel. With `addOns`
    /// (the user asked for EAN add-ons), the plain searches also run while an EAN or UPC
    /// code is read without one (`Gate.addOnUnread`).
    static func stages(for effort: Effort, pixels: Int, addOns: Bool = false) -> [[Stage]] {
        let large = pixels > pyramidAbove
        func stage(_ passes: [Pass], _ gate: Gate, budgeted: Bool = false, afterwards: Gate? = nil) -> [Stage] {
            [Stage(work: .passes(passes), gate: gate, budgeted: budgeted, afterwards: afterwards)]
        }
        let quick = stage(effort == .fast ? first + [Pass(.aztec)] : first, .always)
        let regionsFirst: [[Stage]] = large ? [[Stage(work: .regions, gate: .always)]] : []
        switch effort {
        case .fast:
            return [quick] + regionsFirst + (located + midrangeLocated).map { stage($0, .nothingRead) }
        case .balanced, .thorough:
            let thorough = effort == .thorough
            let early: Gate = thorough || large ? .always : .roomForMore
            let later: Gate = thorough ? .always : .roomForMore
            // Both plain searches run, whatever was read, while bars lie outside every code
            // read: a picture of several linear codes whose first pass read one.
            let barsGate: Gate = addOns ? .either(.unreadBars, .addOnUnread) : .unreadBars
            let plainGate: Gate = thorough ? .always : .either(.roomForMore, barsGate)
            let profilesGate: Gate = thorough ? .always : .unreadBars
            // Each pass on a prepared copy runs given the evidence it needs (`copyEvidence`).
            let copies = balanced.enumerated().map { index, batch in
                batch.flatMap { pass in
                    stage([onPyramid(pass, pixels: pixels)],
                          thorough ? later : .both(later, copyEvidence(pass, batch: index)), budgeted: true)
                }
            }
            // The wide locator reads blurred finders that a threshold restores; a large
            // photo's copies are made on its pyramid level, and it sees every pixel.
            let wide: Gate = thorough || large ? later : .both(later, .thresholdedFinders)
            let rest = widelyLocated.map { stage($0, wide, budgeted: true) } + copies
                + (thorough ? self.thorough : []).map { stage($0, later, budgeted: true) }
            // On a large photo at `balanced`, our own readers run on its pyramid level, as
            // zbar's QR search and zxing-cpp's harder search do (`plainOnPyramid`): each labels
            // or scans every pixel it is given, and over a page of QR codes they cost more
            // together than zxing-cpp 3.1's whole reading. The readers of bars see every
            // pixel, as fine and blurred bars need, on the bar regions no code read explains.
            let level = { (pass: Pass) in large && !thorough ? onPyramid(pass, pixels: pixels) : pass }
            // After the locator in their batch: a dense code it reads leaves no room for another.
            let own = ours.flatMap { stage([level($0)], thorough ? .always : ownGate($0), afterwards: thorough ? nil : ownGate($0)) }
            // On a large photo zbar's linear scan runs while bars are unread (`largeLinear`);
            // zbar's scan of every pixel runs, while nothing is read, only where bars show
            // (`linearScanGate`).
            let plainStages = thorough ? stage(plain[0], .always)
                : large ? stage(largeLinear, linearScanGate(barsGate)) + stage(plainOnPyramid(pixels: pixels), plainGate)
                : plain[0].flatMap { stage([$0], $0.reader is ZBarSearch ? linearScanGate(plainGate) : plainGate) }
            // The readers of bars' gate is looked at before both plain searches, and again,
            // as `unreadBars`, on what they read: they run after them, where bars are still
            // unread, and the grey-profile reader after the others (`profiled`).
            return [quick] + regionsFirst + located.map { stage($0, early) + own } + midrangeLocated.map { stage($0, early) }
                + [plainStages + stage(profiled[0], profilesGate, afterwards: thorough ? nil : .unreadBars)]
                + [stage(profiled[1], profilesGate, afterwards: thorough ? nil : .unreadBars)]
                + [linearCopies.flatMap { stage([onPyramid($0, pixels: pixels)], thorough ? .always : linearCopyGate($0)) }]
                + [[Stage(work: .regions, gate: large ? .always : .somethingRead)]]
                + rest
        }
    }

    /// Always runs: zxing-cpp's quick search on the image as it is, which reads most codes
    /// in about a millisecond. Live frames (`fast`) run our Aztec reader beside it, whose
    /// bull's-eye search rejects a frame without one in one pass over its rows; they leave
    /// our Data Matrix reader out: on a noisy 720p frame with a dense QR code in view its
    /// labelling costs about as much as the rest of the batch and halved the live frame
    /// rate, while zxing-cpp's quick search still reads Data Matrix there.
    static let first: [Pass] = [Pass(.zxing(harder: false))]

    /// Our own Aztec, Data Matrix and rMQR readers (`AztecReader`, `DataMatrixReader`,
    /// `RMQRReader`): Runes,
    /// turned, distorted and damaged symbols libZXing 1.4 misses or misreads. At `balanced`
    /// they run in the locator's batch, after it, each while nothing was read, a
    /// code of its kind was read (`Gate.read`: libZXing 1.4 misreads some Aztec symbols, and
    /// a read soundly checked by our Reed–Solomon decoder must meet it to win,
    /// `Detector.merged`), or the codes read leave room for another (`Gate.uncovered`),
    /// looked at before the locator and again after it: on a photo that the quick search or
    /// the locator read whole they cost nothing, where each cost about a millisecond (a
    /// labelling of the dark and the light pixels, a pass over the rows), and beside the
    /// locator they had cost more than it over the generated dense photos, which it reads.
    /// Our rMQR reader (`RMQRReader`), which no engine has, runs under the same gate: it
    /// starts from the finder census the locator before it takes anyway, and tries only the
    /// first `RMQRReader.maxPatterns` patterns.
    /// Our MicroPDF417 reader (`MicroPDF417Reader`) runs beside them the same way: no engine
    /// reads MicroPDF417, and its scan of the rows and columns for row address patterns
    /// read with a codeword beside them on neighbouring lines costs about as much as their
    /// labelling, and rejects a picture without one there. Its codewords are bars, so it
    /// runs, but where one was read, only where a bar region shows (`Gate.barsShow`): every
    /// MicroPDF417 of the shared corpus, Tests/Images and the generated sets shows one, while
    /// the generated dense photos and sheets show none and had spent half its time over
    /// them (516 of 893 images' ms: now 255).
    static let ours: [Pass] = ownKinds.map(\.pass)

    /// Each of `ours` with the symbology it reads, which its gate (`ownGate`) looks for.
    static let ownKinds: [(pass: Pass, kind: Symbology)] = [
        (Pass(.aztec), .aztec), (Pass(.dataMatrix), .dataMatrix), (Pass(.rmqr), .rmqr), (Pass(.microPDF417), .microPDF417),
    ]

    /// The gate of our own reader `pass` (one of `ours`) at `balanced`.
    static func ownGate(_ pass: Pass) -> Gate {
        guard let kind = ownKinds.first(where: { $0.pass == pass })?.kind else { return .uncovered }
        let room: Gate = kind == .microPDF417 ? .both(.uncovered, .barsShow(BarRegions.minBars)) : .uncovered
        return .either(.read(kind), room)
    }

    /// Our own locator and rectifier (`QRLocator`), alone in its batch: dense and curved
    /// QR codes that the engines' own detectors sample wrongly. It runs first after the
    /// quick search at every effort, as it reads dense and curled codes that no later pass
    /// would, for little: it costs a finder scan when
    /// it finds no triple. On a large photo it sees every pixel, as zbar's linear scan does.
    static let located: [[Pass]] = [[Pass(.located(wide: false))]]

    /// The locator again, its patterns found on `Binarizer.midrange(_:)`'s pixels, in a batch
    /// of its own right after the first run: blurred dense codes at about 3 pixels a
    /// module, whose finder patterns the shared binarized copy loses at the code's corners
    /// (most of bench/gen_dense.py's `dense-hard`). After the first run, so that it costs
    /// nothing where that one read the code, and before the plain searches, which do not
    /// read those codes. Narrow: on the midrange pixels of a texture the wide census finds
    /// many finder-like patterns, and its triples cost thirty times as much on photos with
    /// no code (zxing-nothing), for one more dense code in 32 (a curled one whose version
    /// information the narrow patterns' module sizes miss).
    static let midrangeLocated: [[Pass]] = [[Pass(.located(wide: false, midrange: true))]]

    /// The locator again, accepting finder patterns whose rings blur has thinned: it reads
    /// codes the first run misses (and misses some it reads), so it comes after the plain
    /// searches, which read most images it would otherwise cost.
    static let widelyLocated: [[Pass]] = [[Pass(.located(wide: true))]]

    /// Four megapixels: a screenshot, a scan or a downsized photo.
    static let pyramidAbove = 4_000_000

    /// `steps` made on the image shrunk to `pyramidAbove` pixels, when the image holds more:
    /// how the copies of `balanced` are made on a large photo.
    static func onPyramid(_ steps: [Step], pixels: Int) -> [Step] {
        pixels > pyramidAbove ? [.fitPixels(pyramidAbove)] + steps : steps
    }

    /// `pass` on the image shrunk to `pyramidAbove` pixels, when the image holds more.
    static func onPyramid(_ pass: Pass, pixels: Int) -> Pass {
        Pass(pass.reader, onPyramid(pass.steps, pixels: pixels))
    }

    /// How many times the regions of a large photo are made again from the patterns the
    /// codes read so far leave unexplained, while new codes are read.
    static let regionRounds = 4

    /// zxing-cpp on each region around finder patterns no code read explains, one by one
    /// (at most `FinderCensus.maxRegions`): the codes of a crowded page or a large photo
    /// that the searches over the whole image missed, since libZXing 1.4 tries only the
    /// first 256 combinations of similar finder patterns in one image. Regions whose
    /// modules are under three pixels are also read enlarged twice.
    static func regions(_ census: FinderCensus, unexplainedBy found: [Detection]) -> [Pass] {
        census.regions(unexplainedBy: found).flatMap { group -> [Pass] in
            let box = group.box
            let region = Step.region(x: box.x, y: box.y, width: box.width, height: box.height)
            let pass = Pass(.zxing(harder: true), [region])
            return group.module < 3 ? [pass, Pass(.zxing(harder: true), [region, .upscale(2)])] : [pass]
        }
    }

    /// Batches of two passes, run on two cores. Between them they read every image of the
    /// zxing-cpp and zbar samples and of Tests/Images/hard that any pass reads.
    /// zxing-cpp on a sharpened copy (`sharpen(radius: 3)`), once second in this list, was
    /// dropped when the locator came: nothing of the corpus, of Tests/Images or of the
    /// generated sets was read by it and by no other pass (`passes --plan`).
    static let balanced: [[Pass]] = [
        // zbar on a local threshold, for codes zxing-cpp's finder misses (dotted, textured,
        // without a quiet zone, out of focus, uneven light); light on dark.
        [Pass(.zbar, thresholdedCopies[0]), Pass(.zxing(harder: false), [.invert])],
        // Noise and low contrast; out of focus.
        [Pass(.zbar, thresholdedCopies[1])],
        // Tiny codes and codes without a quiet zone; our rMQR reader on such crops, as they
        // are and light on dark.
        [Pass(.zxing(harder: true), [.pad(0.1), .enlargeTo(400)]), Pass(.zxing(harder: true), [.upscale(2), .threshold(0.05)]),
         Pass(.rmqr, [.pad(0.1), .upscale(2)]), Pass(.rmqr, [.invert, .pad(0.1), .upscale(2)])],
    ]

    /// The smaller side under which our rMQR reader also reads the image padded and
    /// enlarged: without a quiet zone, or under 21 pixels high, an rMQR symbol's finder
    /// escapes the census. Wider, those passes cost about 1 % of the corpus's detection time
    /// (`passes --plan`) and read nothing more.
    static let rmqrCropsBelow = 120

    /// The locally thresholded copies of the first two `balanced` batches, on which
    /// `Gate.thresholdedFinders` looks for finder patterns.
    static let thresholdedCopies: [[Step]] = [[.threshold(0.025)], [.blur(radius: 1), .threshold(0.08)]]

    /// What a pass of `balanced` batch `index` needs besides `Gate.roomForMore`: the
    /// inverted copy nothing (light-on-dark codes of every kind show no dark finder, and
    /// zxing-cpp's quick search costs about a millisecond on it); the thresholded copies a
    /// finder pattern on them (`Gate.thresholdedFinders`); the enlarged copies of the last
    /// batch the same, or an image whose smaller side is under 400 pixels, the
    /// `enlargeTo(400)` it starts with.
    static func copyEvidence(_ pass: Pass, batch index: Int) -> Gate {
        if pass.steps == [.invert] { return .always }
        // A crop too small or too tight for the census of the image as it is
        // (`RMQRSearch`): an rMQR symbol of 17 rows at six pixels a module is 102 high.
        if pass.reader is RMQRSearch { return .narrowerThan(rmqrCropsBelow) }
        return index == balanced.count - 1 ? .either(.narrowerThan(400), .thresholdedFinders) : .thresholdedFinders
    }

    /// The first batch after the quick search: both engines' own searches on the image as
    /// it is, for what the prepared copies damage and for linear codes turned 90°, which the
    /// quick search skips. They are cheap, and what plain zbarimg or ZXingReader reads must
    /// never be missed, so they come before every copy, and at `balanced` they run while
    /// nothing was read or finder groups remain (`Gate.roomForMore`).
    static let plain: [[Pass]] = [[Pass(.zbar), Pass(.zxing(harder: true))]]

    /// The gate of zbar's plain search over every pixel of the image as it is (`plain`, or
    /// `largeLinear` on a large photo) at `balanced`: `gate` once something is read; while
    /// nothing is, only where a bar region shows (`Gate.barsShow`). Its linear scan is most
    /// of its cost and runs on every row and column: on the 21 textures of
    /// zxing-nothing/falsepositives-1 it cost 285 ms for no read, more than zxing-cpp 3.1
    /// takes to read every one of them. Measured over the shared corpus, Tests/Images and the
    /// generated sets, every code it reads first where nothing else had read one lies on an
    /// image where bars show, its QR codes too (each also shows the bars of a linear code
    /// or a QR code's blocks); a short code whose wide bars part its region in pieces is
    /// joined again (`BarRegions.joined(_:)`).
    static func linearScanGate(_ gate: Gate) -> Gate {
        .either(.both(.nothingRead, .barsShow(BarRegions.minBars)), .both(.somethingRead, gate))
    }

    /// The plain searches at `balanced` on a large photo: zbar's linear scan over every
    /// pixel, as fine bars need (`largeLinear`), while zxing-cpp's harder search and zbar's
    /// QR search run on the pyramid level (`plainOnPyramid`). Over a photo of a page of
    /// codes, zbar's QR search costs five times its linear scan and zxing-cpp's harder
    /// search as much as zxing-cpp 3.1's whole reading, while the small codes they would
    /// read there at full size are the regions' (measured on the generated sheets: 5.3 of
    /// 8 s of `passes --plan` went to zbar's QR search alone). The linear scan runs while
    /// nothing is read or a bar region is left unread (`Gate.unreadBars`, not `roomForMore`):
    /// on a page of QR codes that the regions read whole it was the costliest stage left,
    /// 1.4 of 2.6 s of `passes --plan` over the six generated sheets, for no read, while a
    /// small blurred EAN-13 among a 12-megapixel texture still shows as an unread bar region
    /// and keeps it in the plan (GateImageTests). It scans every row and column, as zbarimg does:
    /// over every other one (`ZBAR_CFG_X_DENSITY` 2), which would halve its cost, zbar read
    /// a DataBar out of a texture of finder-like squares.
    static let largeLinear: [Pass] = [Pass(.zbarLinear)]

    /// zxing-cpp's harder search and zbar's (QR) search on the pyramid level of a large
    /// photo of `pixels` pixels (`largeLinear`).
    static func plainOnPyramid(pixels: Int) -> [Pass] {
        [Pass(.zxing(harder: true)), Pass(.zbar)].map { onPyramid($0, pixels: pixels) }
    }

    /// The readers of bar regions the plain searches left unread, in two batches after them.
    ///
    /// First, in the plain searches' batch, their gate looked at before them (at `balanced`,
    /// `unreadBars`) and again after them: our reader of the linear codes neither engine
    /// reads (`WidthReader`: DataBar Limited, Telepen, MSI, DX film edge, and the DataBar
    /// Expanded and Expanded Stacked symbols they miss), a few bands of scan lines per
    /// region split into bars and spaces, and our MicroPDF417 reader across the same
    /// regions, at their angle: a MicroPDF417 turned off the axes, which its pass along the
    /// rows and columns (`ours`) cannot read, shows as one.
    ///
    /// Then, in a batch of its own under `unreadBars`, our EAN/UPC reader on grey levels
    /// (`ProfileReader`): it reads blurred and low-resolution bars both engines lose, and
    /// its reads outvote theirs where an engine reads part of a symbol as a shorter one
    /// (`Detector.merged`). Fitting grey profiles costs several times what the readers
    /// before it cost, so it runs only on the bar regions that they too left unread
    /// (`unread(_:by:)`): beside them, it had spent 290 of its 970 ms over the shared
    /// corpus on the Telepen, DX film edge and DataBar symbols the width reader read at the
    /// same time (`passes --plan`).
    static let profiled: [[Pass]] = [[Pass(.widths), Pass(.turnedMicroPDF417)], [Pass(.profiles)]]

    /// zbar's linear scan on three copies, in a batch of its own after the grey-profile
    /// reader, while nothing has been read and a bar region of a product code's bars shows
    /// (`productBars`): the last look at a
    /// photo of one product code that both plain searches and the grey profiles missed
    /// (under the gate of the grey profiles, `unreadBars`, they cost a third of the 1D
    /// folders' reading time more; without bars to look for, or enlarged whatever the
    /// image's size, they doubled the cost of a photo without a code, zxing-nothing;
    /// `linearCopyGate`).
    /// A darkened one (`Step.darken`): a washed-out photo of blurred bars, whose narrow
    /// light gaps stay too close to the light around them for zbar's edge threshold, while
    /// the gamma spreads the light levels apart (zxing-1d/upce-2/38, ean13-2/17 and
    /// upca-2/49, which zbarimg reads only through ImageMagick's darker grey of their
    /// colours); the same sharpened, where the blur also spreads each bar over its
    /// neighbours (upca-2/10 and 11). A smoothly enlarged one (`Step.upscale`, an image
    /// whose smaller side is under 400 pixels): a small photo whose narrowest bars and
    /// spaces are a pixel or two wide, too few for zbar's edges (zxing-1d/upce-2/02). Only zbar's EAN/UPC decoders
    /// run on them (`ZBarSearch.productCodesOnly`): zbar reads a Code 128's FNC4
    /// characters as plain ones, and at `thorough`, where the copies run whatever was read,
    /// three more such reads outvoted zxing-cpp's right one (zxing-1d/code128-1/6).
    static let linearCopies: [Pass] = [
        Pass(.zbarProducts, [.darken(2)]), Pass(.zbarProducts, [.darken(2), .sharpen(radius: 2)]),
        Pass(.zbarProducts, [.upscale(2)]),
    ]

    /// The gate of `pass`, one of `linearCopies`, at `balanced`: nothing read and a bar
    /// region crossing as many bars as a product code shows (`productBars`); for the enlarged copy also an image whose smaller side is under 400
    /// pixels, a crop around one code, as for the enlarged copies of `balanced`'s last
    /// batch (a 640 × 480 photo without a code, enlarged, cost as much as its whole reading).
    static func linearCopyGate(_ pass: Pass) -> Gate {
        let gate: Gate = .both(.nothingRead, .barsShow(productBars))
        return pass.steps.contains(.upscale(2)) ? .both(gate, .narrowerThan(400)) : gate
    }

    /// The bars a region must cross for `linearCopies` to look at it: two thirds of the 17
    /// of a UPC-E, the product code with the fewest. Each photo of zxing-1d those copies
    /// read first shows a region of 18 to 35; 6 of the 21 photos of zxing-nothing show one
    /// of 4 to 9 bars at most (texture), on which the copies had cost about a sixth of
    /// their reading, and one of 18.
    static let productBars = 12

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
    static let catalogue: [Pass] = first + ours + largeLinear + plainOnPyramid(pixels: pyramidAbove + 1) + linearCopies + (located + midrangeLocated + plain + profiled + widelyLocated + balanced + thorough).flatMap { $0 }
}
