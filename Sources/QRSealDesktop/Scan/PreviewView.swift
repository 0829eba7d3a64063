import QRSealKit

/// The live picture with every code and text block outlined over it, each labelled with its
/// kind and a short preview; a click on an outline picks it, and a drag draws the region of
/// interest when that is asked for. Frame coordinates are mapped to the widget's as the
/// picture is fitted (contain, centred).
final class PreviewView {
    struct Outline {
        enum Kind { case code, text, region }
        let kind: Kind
        let corners: [Point]
        let label: String
    }

    let root: Overlay
    private let picture = Picture(name: "Camera preview")
    private var area: DrawingArea!
    private(set) var frameSize = (width: 0, height: 0)
    /// By id: codes as positive ids, text blocks as negative.
    var outlines: [Int: Outline] = [:] {
        didSet {
            area.queueDraw()
            if outlines.count != oldValue.count { describe() }
        }
    }
    var region: Region? { didSet { area.queueDraw(); describe() } }
    /// Whether a drag draws the region of interest.
    var drawsRegion = false
    private var dragStart: (Double, Double)?
    private var dragRect: (Double, Double, Double, Double)?
    var onPick: ((Int) -> Void)?
    var onRegion: ((Region?) -> Void)?

    init() {
        root = Overlay(picture)
        picture.expandsHorizontally = true
        picture.expandsVertically = true
        area = DrawingArea { [unowned self] painter in self.draw(painter) }
        area.accessibleName = "Outlines of what is read"
        root.add(overlay: area)
        area.onClick { [unowned self] x, y in
            guard !self.drawsRegion, let id = self.hit(x, y) else { return }
            self.onPick?(id)
        }
        area.onDrag(began: { [unowned self] x, y in
            guard self.drawsRegion else { return }
            self.dragStart = (x, y)
        }, moved: { [unowned self] dx, dy in
            guard let (x, y) = self.dragStart else { return }
            self.dragRect = (min(x, x + dx), min(y, y + dy), abs(dx), abs(dy))
            self.area.queueDraw()
        }, ended: { [unowned self] _, _ in
            guard let rect = self.dragRect else { self.dragStart = nil; return }
            self.dragStart = nil
            self.dragRect = nil
            self.onRegion?(self.frameRegion(rect))
        })
    }

    /// What a screen reader says of the outlines: how many, where to act on them (the list
    /// beside the preview holds each, reachable by keyboard), and the region drawn.
    private func describe() {
        let codes = outlines.values.filter { $0.kind == .code }.count, texts = outlines.values.filter { $0.kind == .text }.count
        var parts = [codes == 1 ? "1 code" : "\(codes) codes", texts == 1 ? "1 text block" : "\(texts) text blocks"]
        parts[0] = "In view: " + parts[0]
        let region = self.region.map { "Only what is inside the region drawn is read: \($0.width)×\($0.height) at \($0.x), \($0.y)." }
            ?? "The whole frame is read."
        area.describe(parts.joined(separator: ", ") + "; each is in the list Read. " + region)
    }

    /// Shows a picture of a frame; outlines are in the frame's coordinates, whatever size
    /// the picture was made at.
    func show(_ image: PreviewImage) {
        if frameSize != (image.frameWidth, image.frameHeight) {
            frameSize = (image.frameWidth, image.frameHeight)
            area.queueDraw()
        }
        picture.show(Texture(bgra: image.picture.bgra, width: image.picture.width, height: image.picture.height))
    }

    /// The size the picture is drawn at, in device pixels: what a frame is shrunk to fit.
    var drawnSize: (width: Int, height: Int) {
        (area.width * area.scaleFactor, area.height * area.scaleFactor)
    }

    // MARK: Mapping

    private func fit(_ width: Double, _ height: Double) -> (scale: Double, dx: Double, dy: Double) {
        guard frameSize.width > 0, frameSize.height > 0 else { return (1, 0, 0) }
        let scale = min(width / Double(frameSize.width), height / Double(frameSize.height))
        return (scale, (width - Double(frameSize.width) * scale) / 2, (height - Double(frameSize.height) * scale) / 2)
    }

    private func frameRegion(_ rect: (Double, Double, Double, Double)) -> Region? {
        let (s, dx, dy) = fit(Double(area.width), Double(area.height))
        let x = max(0, (rect.0 - dx) / s), y = max(0, (rect.1 - dy) / s)
        let w = min(Double(frameSize.width) - x, rect.2 / s), h = min(Double(frameSize.height) - y, rect.3 / s)
        guard w >= 16, h >= 16 else { return nil }
        return Region(x: Int(x), y: Int(y), width: Int(w), height: Int(h))
    }

    /// The outline under a point, codes before text.
    private func hit(_ x: Double, _ y: Double) -> Int? {
        let (s, dx, dy) = fit(Double(area.width), Double(area.height))
        let p = Point(x: (x - dx) / s, y: (y - dy) / s)
        return outlines.sorted { ($0.value.kind == .code ? 0 : 1, $0.key) < ($1.value.kind == .code ? 0 : 1, $1.key) }
            .first { Self.contains($0.value.corners, p, margin: 8 / s) }?.key
    }

    /// Whether `p` lies inside the polygon, or within `margin` of its bounding box for thin ones.
    static func contains(_ polygon: [Point], _ p: Point, margin: Double) -> Bool {
        guard polygon.count >= 3 else { return false }
        var inside = false
        var j = polygon.count - 1
        for i in polygon.indices {
            let a = polygon[i], b = polygon[j]
            if (a.y > p.y) != (b.y > p.y), p.x < (b.x - a.x) * (p.y - a.y) / (b.y - a.y) + a.x { inside.toggle() }
            j = i
        }
        if inside { return true }
        let xs = polygon.map(\.x), ys = polygon.map(\.y)
        return p.x >= xs.min()! - margin && p.x <= xs.max()! + margin && p.y >= ys.min()! - margin && p.y <= ys.max()! + margin
    }

    // MARK: Drawing

    private func draw(_ painter: Painter) {
        let (s, dx, dy) = fit(painter.width, painter.height)
        func map(_ p: Point) -> (Double, Double) { (dx + p.x * s, dy + p.y * s) }
        if let region {
            painter.color(1, 0.8, 0.2, 0.9)
            let corners = [Point(x: Double(region.x), y: Double(region.y)),
                           Point(x: Double(region.x + region.width), y: Double(region.y)),
                           Point(x: Double(region.x + region.width), y: Double(region.y + region.height)),
                           Point(x: Double(region.x), y: Double(region.y + region.height))]
            painter.polygon(corners.map(map), lineWidth: 2)
        }
        if let rect = dragRect {
            painter.color(1, 0.8, 0.2, 0.9)
            painter.rectangle(x: rect.0, y: rect.1, width: rect.2, height: rect.3, fill: false)
        }
        for (_, outline) in outlines.sorted(by: { $0.key < $1.key }) where outline.corners.count >= 3 {
            let points = outline.corners.map(map)
            switch outline.kind {
            case .code: painter.color(0.21, 0.52, 0.89, 0.95)
            case .text: painter.color(0.96, 0.76, 0.07, 0.95)
            case .region: painter.color(1, 1, 1, 0.8)
            }
            painter.polygon(points, lineWidth: 3)
            guard !outline.label.isEmpty else { continue }
            let top = points.min { $0.1 < $1.1 }!
            let left = points.map(\.0).min()!
            let (w, h) = painter.text(outline.label, x: 0, y: 0, size: 13, measureOnly: true)
            let y = max(0, top.1 - h - 10)
            painter.color(0, 0, 0, 0.72)
            painter.rectangle(x: left, y: y, width: w + 12, height: h + 8, fill: true)
            painter.color(1, 1, 1)
            painter.text(outline.label, x: left + 6, y: y + 4, size: 13)
        }
    }
}
