/// Finds and decodes every symbol in a raster.
///
/// The plain pass runs first; further passes run only when they may find more.
/// Results are merged by content and position, so a symbol found twice is reported once.
public struct Detector: Sendable {
    public var symbologies: Set<Symbology>

    public init(symbologies: Set<Symbology> = Symbology.defaultSet) {
        self.symbologies = symbologies
    }

    /// Every distinct symbol in `image`, in reading order (top to bottom, left to right).
    public func detect(in image: GrayImage) -> [Detection] {
        let engine = ZBarEngine(symbologies: symbologies)
        var found = engine.scan(image)
        if found.isEmpty, let small = image.halved() {
            // Large, noisy photos: zbar's QR finder often succeeds at half size.
            found = engine.scan(small).map { $0.scaled(by: 2) }
        }
        return Self.merged(found)
    }

    /// Drops repeats of the same payload at the same place.
    static func merged(_ detections: [Detection]) -> [Detection] {
        var kept: [Detection] = []
        for d in detections where !kept.contains(where: { $0.isSameSymbol(as: d) }) {
            kept.append(d)
        }
        return kept.sorted { ($0.center.y, $0.center.x) < ($1.center.y, $1.center.x) }
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

    /// The larger side of the corners' bounding box.
    var extent: Double {
        let xs = corners.map(\.x), ys = corners.map(\.y)
        return max((xs.max() ?? 0) - (xs.min() ?? 0), (ys.max() ?? 0) - (ys.min() ?? 0))
    }

    /// The same detection with its corners multiplied by `factor`, for passes on scaled copies.
    func scaled(by factor: Double) -> Detection {
        Detection(symbology: symbology, bytes: bytes,
                  corners: corners.map { Point(x: $0.x * factor, y: $0.y * factor) },
                  version: version, errorCorrection: errorCorrection)
    }
}
