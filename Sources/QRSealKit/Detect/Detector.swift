/// Finds and decodes every symbol in a raster.
///
/// zxing-cpp's quick search reads the image as it is first. While nothing has been read,
/// or while finder patterns lie outside every code read (or always, at `.thorough`),
/// further passes run two at a time: zbar and zxing-cpp on prepared copies of the image
/// (thresholded, inverted, sharpened, padded, enlarged, tiled), then both engines' own
/// searches on the image as it is, in the order measurement found most productive (see
/// `PassPlan`). Every engine result passes `SymbolCheck`; results are merged by content and
/// position, so a symbol found twice is reported once, and corners are in the input's pixels.
public struct Detector: Sendable {
    public var symbologies: Set<Symbology>
    /// How many passes may run and for how long.
    public var effort: Effort
    /// Replaces the effort's time budget (`Effort.timeBudget(pixels:)`); tests set a large
    /// one so that what is read never depends on the machine's speed.
    public var timeBudget: Duration?
    /// No prepared copy of the image (padded, enlarged, …) holds more pixels than this; a
    /// pass whose copy would is skipped. The CLI passes its `--max-pixels`.
    public var maxPixels: Int

    public init(symbologies: Set<Symbology> = Symbology.defaultSet, effort: Effort = .balanced,
                maxPixels: Int = ImageDecoder.defaultMaxPixels) {
        self.symbologies = symbologies
        self.effort = effort
        self.maxPixels = maxPixels
    }

    /// Every distinct symbol in `image`, in reading order (top to bottom, left to right),
    /// with corners in `image`'s pixels.
    public func detect(in image: GrayImage) -> [Detection] {
        guard image.width > 0, image.height > 0, !symbologies.isEmpty else { return [] }
        let clock = ContinuousClock()
        let deadline = clock.now + (timeBudget ?? effort.timeBudget(pixels: image.width * image.height))
        let prepared = PreparedImages(image, maxPixels: maxPixels)
        // Every read so far, merged afresh after each batch so that a conflict, once seen,
        // stays seen.
        var reads = run(PassPlan.first, on: prepared)
        var found = Self.merged(reads)
        var census: FinderCensus?
        let (batches, always) = PassPlan.further(for: effort, pixels: image.width * image.height)
        for (index, batch) in batches.enumerated() {
            if index >= always && clock.now >= deadline { break }
            if effort == .balanced && !found.isEmpty {
                // Go on only while finder patterns lie outside every code read: a page of
                // codes where the engines have read some.
                guard FinderCensus.leavesRoom(found, width: image.width, height: image.height) else { break }
                census = census ?? FinderCensus(image)
                if census!.unexplained(by: found) < 2 { break }
            }
            reads += run(batch, on: prepared)
            found = Self.merged(reads)
        }
        return found.map { $0.withGeometry(from: image) }
    }

    /// The fewest pixels a matrix code takes on a side: 10 modules (the smallest Data
    /// Matrix) of one pixel. A thinner image holds none, so only passes that read linear
    /// codes run on it, and no copy is made for the others.
    static let smallestMatrixSide = 10

    /// Runs `passes` side by side and checks every result.
    private func run(_ passes: [Pass], on prepared: PreparedImages) -> [Detection] {
        let strongly = symbologies.filter(\.isStronglyChecked)
        let mayHoldMatrix = min(prepared.width, prepared.height) >= Self.smallestMatrixSide
        let results = concurrentMap(passes) { pass -> [Detection] in
            let wanted = pass.isStrict ? strongly : symbologies
            guard !wanted.isEmpty, mayHoldMatrix || pass.readsLinearCodes,
                  let (copy, mapping) = prepared.image(for: pass.steps) else { return [] }
            return pass.run(on: copy, symbologies: wanted).compactMap {
                SymbolCheck.detection(from: $0, mapping: mapping, inputWidth: prepared.width,
                                      inputHeight: prepared.height, wanted: wanted)
            }
        }
        return results.flatMap { $0 }
    }

    /// Drops repeats of the same payload at the same place, and both of two different
    /// payloads read at the same place (one of them must be wrong).
    static func merged(_ detections: [Detection]) -> [Detection] {
        var kept: [Detection] = []
        var conflicted: [Detection] = []
        for d in detections {
            if let i = kept.firstIndex(where: { $0.isSameSymbol(as: d) }) {
                kept[i] = kept[i].filling(from: d)
            } else if let i = kept.firstIndex(where: { $0.conflicts(with: d) }) {
                conflicted.append(kept.remove(at: i))
                conflicted.append(d)
            } else if !conflicted.contains(where: { $0.conflicts(with: d) || $0.isSameSymbol(as: d) }) {
                kept.append(d)
            }
        }
        return readingOrder(kept)
    }

    /// Top to bottom, and left to right within a row: symbols whose centres lie within half
    /// a symbol's height of the row's first are in its row, so that a row of codes printed
    /// a pixel or two out of line still reads left to right.
    static func readingOrder(_ detections: [Detection]) -> [Detection] {
        var rows: [[Detection]] = []
        for d in detections.sorted(by: { ($0.center.y, $0.center.x) < ($1.center.y, $1.center.x) }) {
            if let first = rows.last?.first, d.center.y - first.center.y < min(first.extent, d.extent) / 2 {
                rows[rows.count - 1].append(d)
            } else {
                rows.append([d])
            }
        }
        return rows.flatMap { row in row.sorted { $0.center.x < $1.center.x } }
    }
}

extension Symbology {
    /// Whether a misread is caught by the symbology itself (a check digit, a checksum or
    /// Reed–Solomon); Code 39, I2/5 and Codabar carry none by default.
    var isStronglyChecked: Bool {
        switch self {
        case .code39, .i25, .codabar: return false
        default: return true
        }
    }
}

extension Detection {
    /// Same symbology, same bytes, and centres close relative to the symbol's size.
    func isSameSymbol(as other: Detection) -> Bool {
        guard symbology == other.symbology, bytes == other.bytes else { return false }
        let dx = center.x - other.center.x, dy = center.y - other.center.y
        let span = max(extent, other.extent, 1)
        return (dx * dx + dy * dy).squareRoot() < span / 2
    }

    /// Same symbology read at the same place with about the same size, but different bytes.
    /// A code inside a code differs in size, so both of those are kept.
    func conflicts(with other: Detection) -> Bool {
        guard symbology == other.symbology, bytes != other.bytes else { return false }
        let dx = center.x - other.center.x, dy = center.y - other.center.y
        let span = max(extent, other.extent, 1)
        let sizeRatio = min(extent, other.extent) / span
        return (dx * dx + dy * dy).squareRoot() < span / 8 && sizeRatio > 0.8
    }

    /// This QR code with the version (and level) `QRGeometry` reads from the image, when it
    /// had none and the image confirms them and any level the engine gave.
    func withGeometry(from image: GrayImage) -> Detection {
        guard symbology == .qr, version == nil, let (version, level) = QRGeometry.read(image, corners: corners),
              errorCorrection == nil || errorCorrection == level else { return self }
        var read = Detection(symbology: symbology, bytes: bytes, text: text, corners: corners,
                             version: version, errorCorrection: level)
        read.structuredAppend = structuredAppend
        return read
    }

    /// The larger side of the corners' bounding box.
    var extent: Double {
        let xs = corners.map(\.x), ys = corners.map(\.y)
        return max((xs.max() ?? 0) - (xs.min() ?? 0), (ys.max() ?? 0) - (ys.min() ?? 0))
    }

    /// This detection with the text, version and error-correction level another read of
    /// the same symbol knew and this one did not.
    func filling(from other: Detection) -> Detection {
        guard text == nil && other.text != nil || version == nil && other.version != nil
                || errorCorrection == nil && other.errorCorrection != nil
                || structuredAppend == nil && other.structuredAppend != nil else { return self }
        var filled = Detection(symbology: symbology, bytes: bytes, text: text ?? other.text, corners: corners,
                               version: version ?? other.version, errorCorrection: errorCorrection ?? other.errorCorrection)
        filled.structuredAppend = structuredAppend ?? other.structuredAppend
        return filled
    }
}
