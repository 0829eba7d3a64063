/// Our own reader of the linear symbologies neither engine reads: GS1 DataBar Limited,
/// Telepen, MSI Plessey and DX film edge (`WidthSearch`), from the widths of bars and spaces;
/// and of the DataBar Expanded symbols they miss: zbar 0.23 reads none of the longest, and
/// libZXing 1.4 no Expanded Stacked.
///
/// In each bar region (`BarRegions`, those the plan's gate found), bands of scan lines are
/// taken across the bars at a sample a pixel, on the pixels' centres (`ProfileReader.bands`), and each band's
/// profile is split into elements at a few thresholds, both ways round (`ElementRun`); each
/// symbology's decoder looks for a symbol whose checks hold in those widths. A symbol is
/// reported only when enough bands read it and none of them reads another symbol of its
/// kind: two for DataBar Limited and Telepen (one, for a strip too thin for more), three
/// for MSI, whose check digits are weak. A DX film edge is read from two bands: its clock
/// track in one and its data track, in line with it, in another (`DXFilmEdgeDecoder`).
/// Where a band crosses a whole pair of a DataBar Expanded (a finder and both characters
/// beside it), `expandedLines` single scan lines are taken across every region whose bands
/// crossed a part of one, so that each row of a stacked symbol is crossed by a few, and
/// their pairs vote for its characters (`DataBarExpandedDecoder`).
struct WidthReader {
    let symbologies: Set<Symbology>

    /// The symbologies this reader reads.
    static let readable: Set<Symbology> = [.databarLimited, .telepen, .msi, .dxFilmEdge, .databarExpanded]
    /// Bands that must agree on an MSI symbol.
    static let msiAgreeing = 3
    /// Bands of scan lines per region: enough that a DX film edge's two tracks, each a
    /// fifth of the region's height or less, each have one.
    static let bands = 9
    /// Scan lines a band averages: a sample a pixel costs more than the grey-profile
    /// reader's, and bars read by their widths need less of the noise averaged out.
    static let lines = 4
    /// The bar regions read, largest first: a strip of film holds a code every half frame,
    /// each a region, and the film's picture more.
    static let regionsRead = 6
    /// Scan lines a DataBar Expanded is read on: a few for each of a stacked symbol's rows,
    /// up to 11 of them; at most one every `expandedLineSpacing` pixels along the bars,
    /// which leaves a dozen for a row 34 modules high at a pixel a module.
    static let expandedLines = 48
    static let expandedLineSpacing = 3.0
    /// Scan lines that must show a character of a DataBar Expanded.
    static let expandedAgreeing = 2

    /// Whether anything asked for is read by this reader.
    static func applies(to symbologies: Set<Symbology>) -> Bool {
        !symbologies.isDisjoint(with: readable)
    }

    /// The symbols read in `regions`, the image's bar regions (`BarRegions.find(in:)`, found
    /// here when not given).
    func scan(_ image: GrayImage, regions: [BarRegion]? = nil) -> [Candidate] {
        guard Self.applies(to: symbologies), image.width >= 16 || image.height >= 16 else { return [] }
        var found: [Candidate] = [], expanded: [(region: BarRegion, crossing: ExpandedCrossing)] = []
        func add(_ candidate: Candidate) {
            if !found.contains(where: { $0.bytes == candidate.bytes && $0.symbology == candidate.symbology }) { found.append(candidate) }
        }
        for region in regions ?? BarRegions.find(in: image, most: Self.regionsRead) {
            read(region, in: image, expanded: &expanded).forEach(add)
        }
        // A row of a stacked symbol may hold a finder and one character alone: read when
        // another region shows a whole pair.
        if expanded.contains(where: { $0.crossing == .whole }),
           let candidate = Self.readExpanded(expanded.compactMap { expandedVotes($0.region, in: image) }) {
            add(candidate)
        }
        return found
    }

    /// What one band read, per symbology: the bytes and where they lie along the region.
    typealias BandReads = [Symbology: (bytes: [UInt8], ends: (Double, Double))]

    /// What a region's bands show of a DataBar Expanded: no pair, a finder with one
    /// character beside it, or with both.
    enum ExpandedCrossing { case none, part, whole }

    /// The symbols `region` holds, each read by enough of its bands; the region added to
    /// `expanded` when they cross a pair of a DataBar Expanded.
    func read(_ region: BarRegion, in image: GrayImage, expanded: inout [(region: BarRegion, crossing: ExpandedCrossing)]) -> [Candidate] {
        guard let bands = ProfileReader.bands(region, in: image, step: 1, count: Self.bands, lines: Self.lines, onPixels: true) else { return [] }
        var reads: [BandReads] = []
        var clocks: [DXFilmEdgeDecoder.Clock] = [], dataRuns: [ElementRun] = []
        var expandedCrossed = ExpandedCrossing.none
        for profile in bands.profiles {
            guard let runs = ElementRun.runs(profile, span: bands.span) else {
                reads.append([:])
                continue
            }
            reads.append(read(runs))
            if symbologies.contains(.databarExpanded), expandedCrossed != .whole {
                let pieces = runs.flatMap(DataBarExpandedDecoder.piecesBothWays)
                if !pieces.isEmpty { expandedCrossed = pieces.contains { $0.left != nil && $0.right != nil } ? .whole : .part }
            }
            if symbologies.contains(.dxFilmEdge) {
                for run in runs {
                    clocks += DXFilmEdgeDecoder.clocks(run)
                }
                dataRuns += runs
            }
        }
        var found: [Candidate] = []
        if expandedCrossed != .none { expanded.append((region, expandedCrossed)) }
        for symbology in [Symbology.databarLimited, .telepen, .msi] where symbologies.contains(symbology) {
            let agreeing = symbology == .msi ? Self.msiAgreeing : (bands.profiles.count >= 2 ? 2 : 1)
            let readings = reads.compactMap { $0[symbology] }
            guard let first = readings.first, readings.allSatisfy({ $0.bytes == first.bytes }),
                  readings.count >= agreeing else { continue }
            found.append(Candidate(symbology: symbology, bytes: first.bytes, corners: corners(first.ends, region, bands)))
        }
        if symbologies.contains(.dxFilmEdge), !clocks.isEmpty {
            for dx in DXFilmEdgeDecoder.read(dataRuns, clocks: clocks) {
                found.append(Candidate(symbology: .dxFilmEdge, bytes: dx.bytes, corners: corners(dx.ends, region, bands)))
            }
        }
        return found
    }

    /// The votes of one region's scan lines for a DataBar Expanded's characters, and the
    /// corners of the part of it where they lie.
    typealias ExpandedVotes = (votes: DataBarExpandedDecoder.Votes, corners: [Point])

    /// What `expandedLines` scan lines across `region` show of a DataBar Expanded.
    func expandedVotes(_ region: BarRegion, in image: GrayImage) -> ExpandedVotes? {
        // The bands span 80 % of the region's length along the bars.
        let count = min(Self.expandedLines, max(4, Int(1.6 * region.along / Self.expandedLineSpacing)))
        guard let lines = ProfileReader.bands(region, in: image, step: 1, count: count, lines: 1, onPixels: true)
        else { return nil }
        var votes = DataBarExpandedDecoder.Votes(), from = Double.infinity, to = -Double.infinity
        for profile in lines.profiles {
            guard let runs = ElementRun.runs(profile, span: lines.span) else { continue }
            let pieces = runs.flatMap(DataBarExpandedDecoder.piecesBothWays)
            DataBarExpandedDecoder.vote(pieces, into: &votes)
            for piece in pieces {
                from = min(from, piece.from)
                to = max(to, piece.to)
            }
        }
        return votes.isEmpty ? nil : (votes, corners((from, to), region, lines))
    }

    /// The DataBar Expanded the regions' votes show: those of the first region whose votes
    /// read alone, or else of all of them together, as the rows of a stacked symbol are
    /// regions of their own (`BarRegions` parts them at the separators).
    static func readExpanded(_ regions: [ExpandedVotes]) -> Candidate? {
        for region in regions {
            if let bytes = DataBarExpandedDecoder.decode(region.votes, minimum: expandedAgreeing) {
                return Candidate(symbology: .databarExpanded, bytes: bytes, corners: region.corners)
            }
        }
        guard regions.count > 1 else { return nil }
        let votes = regions.reduce(into: DataBarExpandedDecoder.Votes()) { all, region in
            all.merge(region.votes) { $0.merging($1, uniquingKeysWith: +) }
        }
        guard let bytes = DataBarExpandedDecoder.decode(votes, minimum: expandedAgreeing) else { return nil }
        let xs = regions.flatMap { $0.corners.map(\.x) }, ys = regions.flatMap { $0.corners.map(\.y) }
        guard let x0 = xs.min(), let x1 = xs.max(), let y0 = ys.min(), let y1 = ys.max() else { return nil }
        return Candidate(symbology: .databarExpanded, bytes: bytes,
                         corners: [Point(x: x0, y: y0), Point(x: x1, y: y0), Point(x: x1, y: y1), Point(x: x0, y: y1)])
    }

    /// What the runs of one band read: for each symbology, the first symbol found at the
    /// thresholds in turn, left to right, then right to left.
    func read(_ runs: [ElementRun]) -> BandReads {
        var reads: BandReads = [:]
        let decoders: [(Symbology, (ElementRun) -> (bytes: [UInt8], ends: (Double, Double))?)] = [
            (.databarLimited, DataBarLimitedDecoder.find), (.telepen, TelepenDecoder.find), (.msi, MSIDecoder.find),
        ]
        for (symbology, find) in decoders where symbologies.contains(symbology) {
            search: for run in runs {
                if let read = find(run) { reads[symbology] = read; break search }
                let reversed = run.reversed
                if let read = find(reversed) {
                    reads[symbology] = (read.bytes, (run.unreversed(read.ends.0), run.unreversed(read.ends.1)))
                    break search
                }
            }
        }
        return reads
    }

    /// The corners of the part of `region` between `ends` (samples of its bands).
    func corners(_ ends: (Double, Double), _ region: BarRegion, _ bands: ProfileReader.Bands) -> [Point] {
        ProfileReader.corners(region, from: bands.t0 + ends.0 * bands.step, to: bands.t0 + ends.1 * bands.step)
    }
}

/// `WidthReader` as a pass runs it, on the bar regions a gate found, when it found them.
struct WidthSearch: SymbolReader {
    var description: String { "widths" }

    func read(_ input: ReaderInput, symbologies: Set<Symbology>) -> [Candidate] {
        WidthReader(symbologies: symbologies).scan(input.image, regions: input.bars.map { Array($0.prefix(WidthReader.regionsRead)) })
    }
}

extension SymbolReader where Self == WidthSearch {
    /// Our own reader of DataBar Limited, Telepen, MSI, DX film edge and DataBar Expanded.
    static var widths: WidthSearch { WidthSearch() }
}
