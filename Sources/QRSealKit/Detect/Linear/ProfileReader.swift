import FoundationEssentials
import Glibc

/// Our own reader of EAN-13, UPC-A, EAN-8 and UPC-E from grey levels (`ProfileSearch`):
/// for blurred, noisy and low-resolution photos whose bars the engines' binarization loses.
///
/// In each region of coherent gradient (`BarRegions`), parallel scan lines are taken
/// across the bars at the region's angle; neighbouring lines are averaged into a few bands
/// (noise falls, the bars stay), and each band's profile is read on its own
/// (`ProfileDecoder`). A reading counts only when its check digit and parity hold, it fits
/// far better than the best other valid sequence, the rules did not have to pull it far
/// from what the bars say, and it fits the profile closely; a symbol is reported only when
/// several bands agree on it and none reads anything else: a wrong read is worse than a miss.
struct ProfileReader {
    let symbologies: Set<Symbology>

    /// How many times likelier (as a misfit difference in noise units) the reading must be
    /// than the best valid sequence that differs from it.
    static let minMargin = 40.0
    /// How far (in noise units) the parity and check-digit rules may pull a reading from
    /// the cheapest sequence of codes.
    static let maxCorrection = 4.0
    /// The largest root-mean-square misfit, as a fraction of the contrast.
    static let maxMisfit = 0.15
    /// Bands per region.
    static let bands = 5
    /// Bands that must agree, when the region is tall enough for that many.
    static let minAgreeing = 2

    /// Whether anything asked for is read by this reader.
    static func applies(to symbologies: Set<Symbology>) -> Bool {
        !symbologies.isDisjoint(with: [.ean13, .upca, .ean8, .upce, .isbn13, .isbn10, .databar])
    }

    /// What a scan cost, counted rather than timed: the bands whose profiles were taken, and
    /// the placements of a layout refined on them (the costly part, a hundred renderings of
    /// a symbol each). A region with nothing like a symbol is dropped before any refinement.
    struct Work: Sendable {
        var bands = 0
        var refined = 0
    }

    /// The symbols read in `regions`, the image's bar regions (`BarRegions.find(in:)`, found
    /// here when not given).
    func scan(_ image: GrayImage, regions: [BarRegion]? = nil) -> [Candidate] {
        var work = Work()
        return scan(image, regions: regions, work: &work)
    }

    /// `scan(_:regions:)`, adding what it cost to `work`.
    func scan(_ image: GrayImage, regions: [BarRegion]? = nil, work: inout Work) -> [Candidate] {
        guard Self.applies(to: symbologies), image.width >= 32 || image.height >= 32 else { return [] }
        var found: [Candidate] = []
        for region in regions ?? BarRegions.find(in: image) {
            if let candidate = read(region, in: image, work: &work),
               !found.contains(where: { $0.bytes == candidate.bytes && $0.symbology == candidate.symbology }) {
                found.append(candidate)
            }
        }
        return found
    }

    /// The symbol `region` holds, when its bands agree on one.
    func read(_ region: BarRegion, in image: GrayImage, work: inout Work) -> Candidate? {
        guard let bands = Self.bands(region, in: image) else { return nil }
        if symbologies.contains(.databar), let databar = Self.dataBar(bands, region: region) { return databar }
        guard !symbologies.isDisjoint(with: [.ean13, .upca, .ean8, .upce, .isbn13, .isbn10]) else { return nil }
        var votes: [[UInt8]: (symbology: Symbology, count: Int, ends: (Double, Double))] = [:]
        var seeds: [ProfileDecoder.Placement]?
        let needed = bands.profiles.count >= Self.minAgreeing ? Self.minAgreeing : 1
        for (index, band) in bands.profiles.enumerated() {
            work.bands += 1
            let fitted = ProfileDecoder.fitted(band, span: bands.span, seeds: seeds, refined: &work.refined)
            let all = fitted.map(\.reading)
            if index == 0 {
                guard all.contains(where: Self.isPromising) else { return nil }
                // Coarse to fine: the other bands start where the middle one's promising
                // readings lie.
                seeds = fitted.filter { Self.isPromising($0.reading) }.map(\.placement)
            }
            for reading in all where Self.accepts(reading) {
                guard let (symbology, bytes) = payload(reading) else { continue }
                let ends = (bands.t0 + reading.ends.0 * bands.step, bands.t0 + reading.ends.1 * bands.step)
                votes[bytes, default: (symbology, 0, ends)].count += 1
                break
            }
            // The bands left cannot change a vote already lost.
            let left = bands.profiles.count - index - 1
            if votes.count > 1 || (votes.first?.value.count ?? 0) + left < needed { return nil }
        }
        guard votes.count == 1, let (bytes, vote) = votes.first, vote.count >= needed else { return nil }
        return Candidate(symbology: vote.symbology, bytes: bytes, corners: Self.corners(region, from: vote.ends.0, to: vote.ends.1))
    }

    /// The GS1 DataBar the bands of `region` read as (`DataBarDecoder`), when `minAgreeing`
    /// of them (one, for a strip too thin for more) read the same and none another: element
    /// widths measured where each band crosses thresholds between its dark and light, checked
    /// by the characters' tables and the checksum the finders carry. Cheap beside the EAN
    /// fits: a threshold and a pass over the elements per band.
    static func dataBar(_ bands: Bands, region: BarRegion) -> Candidate? {
        let needed = bands.profiles.count >= minAgreeing ? minAgreeing : 1
        var read: [UInt8]?, count = 0, ends = (0.0, 0.0)
        for profile in bands.profiles {
            guard let found = DataBarDecoder.read(profile, span: bands.span) else { continue }
            if let earlier = read, earlier != found.bytes { return nil }
            if read == nil { ends = found.ends }
            read = found.bytes
            count += 1
        }
        guard let bytes = read, count >= needed else { return nil }
        let t0 = bands.t0 + ends.0 * bands.step, t1 = bands.t0 + ends.1 * bands.step
        return Candidate(symbology: .databar, bytes: bytes, corners: corners(region, from: t0, to: t1))
    }

    /// The corners of the part of `region` from `t0` to `t1` along its angle.
    static func corners(_ region: BarRegion, from t0: Double, to t1: Double) -> [Point] {
        let (c, s) = (cos(region.angle), sin(region.angle))
        return [(t0, -region.along), (t1, -region.along), (t1, region.along), (t0, region.along)].map { t, o in
            Point(x: region.x + c * t - s * o, y: region.y + s * t + c * o)
        }
    }

    /// The bands of a region: grey-level profiles across its bars, each the mean of a few
    /// neighbouring scan lines, the middle band first (when it shows nothing like a symbol,
    /// neither will the others). Sample i of a profile lies `t0 + i * step` pixels from the
    /// region's centre along its angle; `span` is where the region's bars lie, in samples.
    struct Bands {
        var profiles: [[Double]]
        var span: ClosedRange<Double>
        var t0: Double, step: Double
    }

    /// At most `most` bands of at most `lines` scan lines; `step`, when given, is the pixels a sample (else about 2.5 samples a module of a
    /// 95-module symbol filling the region). With `onPixels`, the samples fall on pixel
    /// centres along the axis the scan lines run nearest (exactly so for bars upright or
    /// level): what a reader that splits the profile at a threshold needs, as bars a pixel
    /// or two wide (Telepen at 1.5 pixels a module), each sampled halfway between two pixels,
    /// would be averaged with their neighbours into a grey that no threshold splits. The
    /// grey-profile fits model that blur, and take the samples where they fall.
    static func bands(_ region: BarRegion, in image: GrayImage, step fixedStep: Int? = nil, count most: Int = bands,
                      lines: Int = 8, onPixels: Bool = false) -> Bands? {
        let (c, s) = (cos(region.angle), sin(region.angle))
        let margin = max(12, 0.35 * region.across)
        // The scan lines' extent across the bars, clipped to the image along the centre line
        // but for a quiet zone's length beyond it, where the edge pixels go on: a symbol
        // cropped tight, its quiet zone cut by the image's border, still has one.
        let step = max(1, fixedStep ?? Int(2 * region.across / 95 / 2.5))
        let outside = region.across / 8 + Double(4 * step + 2)
        var t0 = -(region.across + margin), t1 = region.across + margin
        for (p, d, size) in [(region.x, c, image.width), (region.y, s, image.height)] where abs(d) > 1e-9 {
            let a = (-outside - p) / d, b = (Double(size - 1) + outside - p) / d
            t0 = max(t0, min(a, b)); t1 = min(t1, max(a, b))
        }
        if onPixels {
            let (origin, rate) = abs(c) >= abs(s) ? (region.x, c) : (region.y, s)
            let first = origin + rate * t0
            if first.isFinite { t0 += (first.rounded() - first) / rate }
        }
        guard t1 - t0 >= 32 else { return nil }
        let length = Int((t1 - t0) / Double(step))
        guard length >= 32 else { return nil }
        // Bands across the middle 80 % of the bars' length, each averaging its lines.
        let usable = 0.8 * region.along
        let count = max(1, min(most, Int(2 * usable / 2)))
        let height = max(1, min(lines, Int(2 * usable / Double(count))))
        let span = ((-region.across - t0) / Double(step))...((region.across - t0) / Double(step))
        let order = (0..<count).sorted { abs(2 * $0 - (count - 1)) < abs(2 * $1 - (count - 1)) }
        let profiles = order.map { band -> [Double] in
            let centre = count == 1 ? 0 : -usable + 2 * usable * (Double(band) + 0.5) / Double(count)
            var profile = [Double](repeating: 0, count: length)
            for line in 0..<height {
                let offset = centre + Double(line) - Double(height - 1) / 2
                let ox = region.x - s * offset, oy = region.y + c * offset
                for i in 0..<length {
                    var sum = 0.0
                    for sub in 0..<step {
                        let t = t0 + Double(i * step + sub)
                        sum += image.bilinear(ox + c * t, oy + s * t, centres: .whole, outside: .edge)
                    }
                    profile[i] += sum / Double(step)
                }
            }
            return profile.map { $0 / Double(height) }
        }
        return Bands(profiles: profiles, span: span, t0: t0, step: Double(step))
    }

    /// Whether a reading looks enough like a symbol for the other bands to be worth reading.
    static func isPromising(_ r: ProfileFit.Reading) -> Bool {
        r.margin >= 4 && r.misfit <= ProfileFit.worthRanking
    }

    static func accepts(_ r: ProfileFit.Reading) -> Bool {
        r.margin >= minMargin && r.correction <= maxCorrection && r.misfit <= maxMisfit
    }

    /// The symbology and payload a reading stands for, as the engines report them: an
    /// EAN-13 with a leading 0 is the UPC-A it encodes when UPC-A was asked for.
    func payload(_ r: ProfileFit.Reading) -> (Symbology, [UInt8])? {
        let bytes = r.digits.map { UInt8(48 + $0) }
        switch r.kind {
        case .ean13 where r.digits.first == 0 && symbologies.contains(.upca):
            return (.upca, Array(bytes.dropFirst()))
        case .ean13:
            return (.ean13, bytes)
        case .ean8:
            return symbologies.contains(.ean8) ? (.ean8, bytes) : nil
        case .upce:
            return symbologies.contains(.upce) ? (.upce, bytes) : nil
        }
    }
}
