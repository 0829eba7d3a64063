import FoundationEssentials
import Glibc

/// The plan's gates: what decides that a stage can still pay, and which bar regions the
/// codes read so far leave unread.
extension PassPlan {
    /// What decides, from the image, what was read so far and evidence taken once per
    /// image, that a stage can still pay.
    enum Gate: Sendable, Equatable {
        /// Runs on every image.
        case always
        /// Only while nothing has been read.
        case nothingRead
        /// While nothing has been read, or as `moreGroups`.
        case roomForMore
        /// Something has been read, the codes read cover less than a third of the image
        /// (`FinderCensus.leavesRoom`), and the census of the image as it is still groups
        /// three finder patterns, each crossed by at least `FinderCensus.leastGroupedHits`
        /// scan rows, with timing patterns between them (`FinderCensus.Group.timed`),
        /// outside every code read (`FinderCensus.regions`): a page of codes where the
        /// engines read some. Groups without timing patterns, which texture, a code's data
        /// and neighbouring codes' finders make by the hundred on a photographed page, are
        /// still read as regions, but do not keep the plan going.
        case moreGroups
        /// Something has been read.
        case somethingRead
        /// Nothing has been read, or the codes read cover less than a third of the image
        /// (`FinderCensus.leavesRoom`): room for a code of another kind, whatever its
        /// evidence.
        case uncovered
        /// A code of this symbology has been read: one that a reader of our own must meet,
        /// so that its soundly checked read outvotes an engine's misread (`Detector.merged`).
        case read(Symbology)
        /// While nothing has been read, or while a bar region of the image (`BarRegions`,
        /// up to `barRegionsLooked`) is explained by no code read (`unread(_:by:)`; an
        /// EAN-8 or a UPC-E explains only a region hardly wider than itself, as an engine
        /// may have read part of a longer symbol as one of those): a picture of several linear codes whose first pass
        /// read one still has the others read by both plain searches, while fitting grey
        /// profiles, which costs more than both, runs only where they too left bars unread.
        case unreadBars
        /// A bar region shows in the image (`BarRegions`, up to `barRegionsLooked`), read
        /// or not, crossing at least this many bars: the evidence `unreadBars` looks at,
        /// taken once.
        case barsShow(Int)
        /// A QR finder pattern shows on one of the locally thresholded copies the first two
        /// `balanced` batches read (`thresholdedCopies`): in the finder census of the copy,
        /// a pattern crossed by at least `FinderCensus.leastGroupedHits` scan rows whose
        /// rings also show down its column and along a diagonal
        /// (`FinderCensus.holdsConfirmedPattern`). Each pass on those copies reads a QR
        /// code only where a threshold recovers its finders (blurred, low-contrast, unevenly
        /// lit codes): on a photo with no code (a texture, a mesh, bark), the threshold
        /// leaves many finder-like runs but hardly one whose rings close in two directions,
        /// while a code in the same photo shows at least one even when blur and a turn
        /// have broken the other two. Measured over the shared corpus, Tests/Images, the
        /// generated sets and bench/gen_gatecases.py's codes in 640 × 480 pictures to lose
        /// no read (`passes --plan` and bench/passes/compare.py).
        case thresholdedFinders
        /// An EAN or UPC code has been read without an add-on: where the user asked for
        /// add-ons (`ReadingOptions.eanAddOns`), both plain searches still run, as the quick
        /// search often reads the main code alone when an add-on is there.
        case addOnUnread
        /// The image's smaller side is under this many pixels: a crop around one small code,
        /// what the enlarged copies of the last `balanced` batch are for (Micro QR, PDF417
        /// and Data Matrix crops show no QR finder).
        case narrowerThan(Int)
        /// Both gates hold.
        indirect case both(Gate, Gate)
        /// Either gate holds; the first is looked at first.
        indirect case either(Gate, Gate)

        /// Whether the gate holds given `found`, the codes read so far in an image of
        /// `width` × `height` pixels; `census`, `bars` and `finders` give the evidence
        /// (`thresholdedFinders`), each taken once per image when a gate first asks for it.
        func holds(_ found: [Detection], width: Int, height: Int, census: () -> FinderCensus,
                   bars: () -> [BarRegion], finders: () -> Bool) -> Bool {
            func holds(_ gate: Gate) -> Bool {
                gate.holds(found, width: width, height: height, census: census, bars: bars, finders: finders)
            }
            switch self {
            case .always: return true
            case .nothingRead: return found.isEmpty
            case .somethingRead: return !found.isEmpty
            case .uncovered: return found.isEmpty || FinderCensus.leavesRoom(found, width: width, height: height)
            case .read(let symbology): return found.contains { $0.symbology == symbology }
            case .roomForMore:
                return found.isEmpty || holds(.moreGroups)
            case .moreGroups:
                return !found.isEmpty && FinderCensus.leavesRoom(found, width: width, height: height)
                    && census().regions(unexplainedBy: found).contains(where: \.timed)
            case .unreadBars:
                return found.isEmpty || PassPlan.barsUnread(found, bars: bars())
            case .barsShow(let least): return bars().contains { $0.bars >= least }
            case .thresholdedFinders: return finders()
            case .addOnUnread:
                return found.contains { EANAddOn.split($0.bytes, of: $0.symbology)?.addOn.isEmpty == true }
            case .narrowerThan(let side): return min(width, height) < side
            case .both(let a, let b): return holds(a) && holds(b)
            case .either(let a, let b): return holds(a) || holds(b)
            }
        }
    }

    /// How many bar regions `Gate.unreadBars` looks at, largest first: a sheet of every
    /// kind of code holds a dozen, and a region left out would hide its code from the plain
    /// searches once another was read.
    static let barRegionsLooked = 16

    /// How much wider across its bars than an EAN-8 or a UPC-E read in it a bar region may be
    /// for the read to explain it (`unread(_:by:)`). An engine may read the right half of an
    /// EAN-13 or a UPC-A as one of those, and the region of the longer symbol is then 95/67
    /// (1.42) or 95/51 (1.86) times the read's width; the regions of the whole EAN-8s of the
    /// shared corpus, Tests/Images and the generated sets measure 1.04 to 1.22 times it, and
    /// those of whole UPC-Es 1.08 to 2.6 (a region often takes in the digits printed beside a
    /// UPC-E's guards), so that only some of those are spared the grey-profile reader.
    static let shortSpan = 1.3

    /// The most bars a region that a UPC-E read explains may cross, however wide
    /// (`unread(_:by:)`): its 17 and three for the strokes of the digits printed beside its
    /// guards. The left half of an EAN-13 or a UPC-A, whose centre guard ends as a UPC-E's
    /// end guard does, reads as a UPC-E, and its region then crosses the 30 bars of the longer
    /// symbol.
    static let upceBars = 20

    /// Whether some of `bars` is explained by no code in `found` (`unread(_:by:)`,
    /// `Gate.unreadBars`).
    static func barsUnread(_ found: [Detection], bars: [BarRegion]) -> Bool {
        !unread(bars, by: found).isEmpty
    }

    /// Those of `bars` that no code in `found` explains: what the plain searches and the
    /// grey-profile reader still have to read. A two-dimensional or stacked code explains
    /// the region whose centre lies in it or near its corners (its modules make bar-like
    /// blocks); a DataBar Expanded, which may be stacked in rows while a read's corners
    /// give the rows it was read on, the region whose centre lies within its width of it
    /// (each row of a symbol read in zxing-more/rssexpandedstacked-1 is a region of its
    /// own, and the grey-profile reader ran on 37 of them for nothing); an EAN-8 or a
    /// UPC-E, the region whose centre lies in it and which is at most `shortSpan` times
    /// as wide across the bars (a UPC-E: or crosses at most `upceBars` bars); any other linear code, the region whose centre and both
    /// ends along the bars lie in it, since codes printed one above the other, bars in
    /// line, join into one region centred on the middle one.
    static func unread(_ bars: [BarRegion], by found: [Detection]) -> [BarRegion] {
        let matrix = found.filter(\.symbology.isMatrix)
        let stacked = found.filter { $0.symbology == .databarExpanded }
        let short: Set<Symbology> = [.ean8, .upce]
        let linear = found.filter { !$0.symbology.isMatrix && !short.contains($0.symbology) }
        let shortReads = found.filter { short.contains($0.symbology) }
        func within(_ codes: [Detection], _ x: Double, _ y: Double, share: Double) -> Bool {
            codes.contains { d in
                let dx = x - d.center.x, dy = y - d.center.y
                return (dx * dx + dy * dy).squareRoot() < d.extent * share
            }
        }
        return bars.filter { region in
            // The circle round a square symbol: its corners too.
            if within(matrix, region.x, region.y, share: 0.75) || within(stacked, region.x, region.y, share: 1) { return false }
            // Along the bars: perpendicular to the direction across them.
            let ux = -sin(region.angle) * region.along * 0.8, uy = cos(region.angle) * region.along * 0.8
            // An EAN-8 or a UPC-E explains a region no wider than itself (`shortSpan`).
            let (c, s) = (cos(region.angle), sin(region.angle))
            for code in shortReads where within([code], region.x, region.y, share: 0.5) {
                let t = code.corners.map { $0.x * c + $0.y * s }
                if 2 * region.across <= shortSpan * ((t.max() ?? 0) - (t.min() ?? 0)) { return false }
                // A UPC-E's digits are printed beside its guards and widen its region; it
                // explains a region that crosses no more bars than it has (`upceBars`).
                if code.symbology == .upce && region.bars <= upceBars { return false }
            }
            return !within(linear, region.x, region.y, share: 0.5) || !within(linear, region.x + ux, region.y + uy, share: 0.6)
                || !within(linear, region.x - ux, region.y - uy, share: 0.6)
        }
    }
}
