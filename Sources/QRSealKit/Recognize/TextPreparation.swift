import Glibc

/// An image made ready for Tesseract, and the way back from its pixels to the input's:
/// light evened out, scaled so that its letters are as tall as Tesseract reads best (small
/// text enlarged, huge images shrunk), and turned so that its lines are level.
struct TextPreparation: Sendable {
    /// What Tesseract sees.
    let image: GrayImage
    /// What was measured on the input (letter height in input pixels, skew in degrees).
    let measure: TextMeasure
    /// Prepared pixels per input pixel.
    let scale: Double
    /// The angle the text was turned by to make it level, in degrees (the measured skew).
    let angle: Double
    /// Where the letters are in `image` (`TextRegions`, on a turned page the letters' boxes
    /// turned with it), for recognition of those rectangles only (`TextRecognizer.areas`);
    /// nil to read it whole (the letters fill it).
    let regions: [Region]?
    /// The same rectangles, even when they cover most of the image: where a page may be cut
    /// between its lines when they lie one below the other (`TextRecognizer.bands`).
    let groups: [Region]?
    /// The boxes of the letter-like marks (`TextMeasure.marks`) in `image`'s pixels: where
    /// a rectangle of several lines can be cut between two of them (`TextRegions.bands`).
    let letters: [Region]
    /// The centre of the scaled input, and of the turned image.
    private let centre: (x: Double, y: Double), turnedCentre: (x: Double, y: Double)

    /// Letters (`TextMeasure.letterHeight`, about the x-height) below this many pixels are
    /// enlarged: Tesseract misreads a fifth of the words at 5 to 6 pixels and none from
    /// about 8 (bench/text.py, small print).
    static let smallLetters = 7.0
    /// …by a whole factor, to about this height (enlarging twice measured better than three times).
    static let targetLetters = 10.0
    /// Letters above this are shrunk to `targetLetters` × 2 on large images, where pixels cost time.
    static let largeLetters = 50.0
    /// The least letter height an image shrunk to fit the limit may keep before it is refused instead.
    static let minLetters = 4.0
    /// Lines nearer level than this are left as they are: Tesseract copes, and turning blurs.
    static let minAngle = 0.8
    /// Enlarging stops at this size.
    static let maxEnlargedPixels = 6_000_000

    /// Prepares `image`; `maxPixels` bounds what Tesseract may be given.
    ///
    /// An image over `maxPixels` is shrunk to fit, unless its letters, measured at full
    /// size, would then be shorter than `minLetters`: it is refused (`imageTooLarge`),
    /// before any recognition.
    init(_ input: GrayImage, maxPixels: Int) throws(TextRecognitionError) {
        let pixels = Double(input.width) * Double(input.height)
        let evened = input.evenedLight()
        let measure = TextMeasure(evened)
        let fit = pixels > Double(maxPixels) ? (Double(maxPixels) / pixels).squareRoot() * 0.999 : 1
        var scale = fit
        if let full = measure.letterHeight {
            let letters = full * fit
            if fit < 1, letters < Self.minLetters {
                throw .imageTooLarge(width: input.width, height: input.height, limit: maxPixels)
            }
            if letters < Self.smallLetters {
                let wanted = min(4, (Self.targetLetters / letters).rounded(.up))
                let room = (Double(min(Self.maxEnlargedPixels, maxPixels)) / (pixels * fit * fit)).squareRoot().rounded(.down)
                scale = fit * max(1, min(wanted, room))
            } else if letters > Self.largeLetters, pixels * fit * fit > 1_000_000 {
                scale = fit * Self.targetLetters * 2 / letters
            }
        }
        var scaled = evened
        if scale != 1 {
            guard let resized = evened.scaled(by: scale, maxPixels: max(maxPixels, Self.maxEnlargedPixels)) else {
                throw .imageTooLarge(width: input.width, height: input.height, limit: maxPixels)
            }
            scaled = resized
        }
        let angle = abs(measure.skew) >= Self.minAngle ? measure.skew : 0
        let turned = angle == 0 ? scaled : scaled.turned(by: -angle)
        self.image = turned
        self.measure = measure
        // The actual ratio, as the rounded sides give it.
        self.scale = input.width > 0 ? Double(scaled.width) / Double(input.width) : 1
        self.angle = angle
        self.centre = (Double(scaled.width) / 2, Double(scaled.height) / 2)
        self.turnedCentre = (Double(turned.width) / 2, Double(turned.height) / 2)
        let (w, h) = (turned.width, turned.height)
        if angle == 0 {
            let sx = Double(w) / Double(max(1, input.width)), sy = Double(h) / Double(max(1, input.height))
            func scaled(_ r: Region) -> Region? {
                let left = Int((Double(r.x) * sx).rounded(.down)), top = Int((Double(r.y) * sy).rounded(.down))
                let right = Int((Double(r.x + r.width) * sx).rounded(.up)), bottom = Int((Double(r.y + r.height) * sy).rounded(.up))
                return Region(x: left, y: top, width: right - left, height: bottom - top).clipped(toWidth: w, height: h)
            }
            self.groups = TextRegions.regions(marks: measure.marks, letterHeight: measure.letterHeight,
                                              width: input.width, height: input.height, limited: false)?.compactMap(scaled)
            self.letters = measure.marks.compactMap(scaled)
        } else {
            // The letters turned level with the page, so that a turned page's lines are
            // grouped as a level one's are.
            let (s, from, to) = (self.scale, self.centre, self.turnedCentre)
            let letters = measure.marks.compactMap { mark -> Region? in
                let points = mark.corners.map { Self.turn($0, by: angle, scale: s, from: from, to: to) }
                let left = Int(points.map(\.x).min()!.rounded(.down)), right = Int(points.map(\.x).max()!.rounded(.up))
                let top = Int(points.map(\.y).min()!.rounded(.down)), bottom = Int(points.map(\.y).max()!.rounded(.up))
                return Region(x: left, y: top, width: right - left, height: bottom - top).clipped(toWidth: w, height: h)
            }
            self.groups = TextRegions.regions(marks: letters, letterHeight: measure.letterHeight.map { $0 * s },
                                              width: w, height: h, limited: false)
            self.letters = letters
        }
        self.regions = groups.flatMap { TextRegions.coverMost($0, width: w, height: h) ? nil : $0 }
    }

    /// A point of the input in the prepared image's pixels: `inputPoint(_:_:)` undone.
    func preparedPoint(_ x: Double, _ y: Double) -> Point {
        Self.turn(Point(x: x, y: y), by: angle, scale: scale, from: centre, to: turnedCentre)
    }

    /// `p` scaled by `scale`, then turned by `degrees` about `from`, which goes to `to`.
    private static func turn(_ p: Point, by degrees: Double, scale: Double,
                             from: (x: Double, y: Double), to: (x: Double, y: Double)) -> Point {
        let a = degrees * Double.pi / 180, c = cos(a), s = sin(a)
        let ux = p.x * scale - from.x, uy = p.y * scale - from.y
        return Point(x: to.x + c * ux + s * uy, y: to.y - s * ux + c * uy)
    }

    /// A point of the prepared image in the input's pixels.
    func inputPoint(_ x: Double, _ y: Double) -> Point {
        let a = angle * Double.pi / 180, c = cos(a), s = sin(a)
        let dx = x - turnedCentre.x, dy = y - turnedCentre.y
        return Point(x: (centre.x + c * dx - s * dy) / scale, y: (centre.y + s * dx + c * dy) / scale)
    }

    /// The corners of a prepared box in the input's pixels, top-left first, clockwise.
    func inputCorners(_ box: Region) -> [Point] {
        box.corners.map { inputPoint($0.x, $0.y) }
    }

    /// The input rectangle around a prepared box, kept inside `width` × `height`.
    func inputBox(_ box: Region, width: Int, height: Int) -> Region {
        guard scale != 1 || angle != 0 else { return box }
        let points = inputCorners(box)
        let left = max(0, Int(points.map(\.x).min()!.rounded(.down))), right = min(width, Int(points.map(\.x).max()!.rounded(.up)))
        let top = max(0, Int(points.map(\.y).min()!.rounded(.down))), bottom = min(height, Int(points.map(\.y).max()!.rounded(.up)))
        return Region(x: left, y: top, width: max(0, right - left), height: max(0, bottom - top))
    }
}

extension GrayImage {
    /// This image turned by `degrees` about its centre (positive turns clockwise, as y grows
    /// down), on a canvas large enough for all of it; bilinear. The new corners repeat the
    /// nearest edge, so that grey paper does not meet a white corner in an edge that reads
    /// as a stroke.
    func turned(by degrees: Double) -> GrayImage {
        let a = degrees * Double.pi / 180, c = cos(a), s = sin(a)
        let w = Int((Double(width) * abs(c) + Double(height) * abs(s)).rounded(.up))
        let h = Int((Double(width) * abs(s) + Double(height) * abs(c)).rounded(.up))
        guard w > 0, h > 0, width > 0, height > 0 else { return self }
        let cx = Double(width) / 2, cy = Double(height) / 2, ox = Double(w) / 2, oy = Double(h) / 2
        let maxX = Double(width - 1), maxY = Double(height - 1)
        var out = [UInt8](repeating: 255, count: w * h)
        pixels.withUnsafeBufferPointer { src in
            for y in 0..<h {
                let dy = Double(y) + 0.5 - oy
                for x in 0..<w {
                    let dx = Double(x) + 0.5 - ox
                    // The source of each pixel: the turn undone, held inside the image.
                    let sx = min(max(cx + c * dx + s * dy - 0.5, 0), maxX), sy = min(max(cy - s * dx + c * dy - 0.5, 0), maxY)
                    let x0 = Int(sx), y0 = Int(sy), x1 = min(x0 + 1, width - 1), y1 = min(y0 + 1, height - 1)
                    let fx = sx - Double(x0), fy = sy - Double(y0)
                    let top = Double(src[y0 * width + x0]) * (1 - fx) + Double(src[y0 * width + x1]) * fx
                    let bottom = Double(src[y1 * width + x0]) * (1 - fx) + Double(src[y1 * width + x1]) * fx
                    out[y * w + x] = UInt8((top * (1 - fy) + bottom * fy).rounded())
                }
            }
        }
        return GrayImage(width: w, height: h, pixels: out)
    }
}
