/// Our own reader of the linear symbologies neither engine reads: GS1 DataBar Limited,
/// Telepen, MSI Plessey and DX film edge (`WidthSearch`), from the widths of bars and spaces.
///
/// In each bar region (`BarRegions`, those the plan's gate found), bands of scan lines are
/// taken across the bars at a sample a pixel, on the pixels' centres (`ProfileReader.bands`), and each band's
/// profile is split into elements at a few thresholds, both ways round (`ElementRun`); each
/// symbology's decoder looks for a symbol whose checks hold in those widths. A symbol is
/// reported only when enough bands read it and none of them reads another symbol of its
/// kind: two for DataBar Limited and Telepen (one, for a strip too thin for more), three
/// for MSI, whose check digits are weak. A DX film edge is read from two bands: its clock
/// track in one and its data track, in line with it, in another (`DXFilmEdgeDecoder`).
struct WidthReader {
    let symbologies: Set<Symbology>

    /// The symbologies this reader reads.
    static let readable: Set<Symbology> = [.databarLimited, .telepen, .msi, .dxFilmEdge]
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

    /// Whether anything asked for is read by this reader.
    static func applies(to symbologies: Set<Symbology>) -> Bool {
        !symbologies.isDisjoint(with: readable)
    }

    /// The symbols read in `regions`, the image's bar regions (`BarRegions.find(in:)`, found
    /// here when not given).
    func scan(_ image: GrayImage, regions: [BarRegion]? = nil) -> [Candidate] {
        guard Self.applies(to: symbologies), image.width >= 16 || image.height >= 16 else { return [] }
        var found: [Candidate] = []
        for region in regions ?? BarRegions.find(in: image, most: Self.regionsRead) {
            for candidate in read(region, in: image)
            where !found.contains(where: { $0.bytes == candidate.bytes && $0.symbology == candidate.symbology }) {
                found.append(candidate)
            }
        }
        return found
    }

    /// What one band read, per symbology: the bytes and where they lie along the region.
    typealias BandReads = [Symbology: (bytes: [UInt8], ends: (Double, Double))]

    /// The symbols `region` holds, each read by enough of its bands.
    func read(_ region: BarRegion, in image: GrayImage) -> [Candidate] {
        guard let bands = ProfileReader.bands(region, in: image, step: 1, count: Self.bands, lines: Self.lines, onPixels: true) else { return [] }
        var reads: [BandReads] = []
        var clocks: [DXFilmEdgeDecoder.Clock] = [], dataRuns: [ElementRun] = []
        for profile in bands.profiles {
            guard let runs = ElementRun.runs(profile, span: bands.span) else {
                reads.append([:])
                continue
            }
            reads.append(read(runs))
            if symbologies.contains(.dxFilmEdge) {
                for run in runs {
                    clocks += DXFilmEdgeDecoder.clocks(run)
                }
                dataRuns += runs
            }
        }
        var found: [Candidate] = []
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
    /// Our own reader of DataBar Limited, Telepen, MSI and DX film edge.
    static var widths: WidthSearch { WidthSearch() }
}
