import Glibc

/// What an image's dark marks say about the text in it before Tesseract sees it: how tall
/// its letters are, how many letter-like marks there are and how much of the picture they
/// cover, and the angle of its lines.
///
/// Measured on the connected dark components of a globally thresholded copy (Otsu), at full
/// size, so that small print is seen even in a huge image. A component counts as a letter when it is 3 pixels
/// or more tall, at most a third of the image, and not much wider than 4 letters.
struct TextMeasure: Equatable, Sendable {
    /// The median height of the letter-like components: about the x-height, a little more (ascenders), nil with no
    /// such component.
    var letterHeight: Double?
    /// Letter-like components within half to twice the median height.
    var letters: Int
    /// The share of the image inside those letters' boxes, 0–1: their areas summed, at most
    /// the whole image (one letter's box may hold another's, as an L's holds a dot).
    var coverage: Double
    /// The angle of the text lines in degrees, positive when they fall to the right (y grows
    /// down), found by projection profiles of the letters' centres; 0 when unclear.
    var skew: Double
    /// The boxes of the letter-like components, every height: where the text is
    /// (`TextRegions`).
    var marks: [Region] = []

    /// Angles tried, degrees either way.
    static let maxSkew = 15.0

    init(letterHeight: Double?, letters: Int, coverage: Double, skew: Double) {
        self.letterHeight = letterHeight; self.letters = letters; self.coverage = coverage; self.skew = skew
    }

    /// Measures `image`, a gray picture with dark text on lighter ground.
    init(_ image: GrayImage) {
        let boxes = Self.components(image)
        let tall = boxes.filter { $0.height >= 3 && $0.height * 3 <= image.height && $0.width <= 4 * $0.height + 4 }
        guard !tall.isEmpty else {
            self.init(letterHeight: nil, letters: 0, coverage: 0, skew: 0)
            return
        }
        let median = Double(tall.map(\.height).sorted()[tall.count / 2])
        let letters = tall.filter { Double($0.height) >= median / 2 && Double($0.height) <= median * 2 }
        let area = letters.reduce(0) { $0 + $1.width * $1.height }
        self.init(letterHeight: median, letters: letters.count,
                  coverage: min(1, Double(area) / Double(max(1, image.width * image.height))),
                  skew: Self.skew(of: letters, binSize: max(1, median / 3)))
        marks = tall
    }

    /// The bounding boxes of the 8-connected components darker than Otsu's threshold; none
    /// when more than half the image is dark (light text on dark ground, or no text at all).
    static func components(_ image: GrayImage) -> [Region] {
        let w = image.width, h = image.height
        guard w >= 3, h >= 3 else { return [] }
        let threshold = otsuThreshold(image.pixels)
        var dark = image.pixels.map { $0 <= threshold }
        guard dark.lazy.filter({ $0 }).count * 2 <= dark.count else { return [] }
        var boxes: [Region] = []
        var stack: [Int] = []
        // Without bounds checks: every pixel of a camera frame is visited.
        dark.withUnsafeMutableBufferPointer { dark in
            for start in 0..<(w * h) where dark[start] {
                dark[start] = false
                stack.append(start)
                var left = start % w, right = left, top = start / w, bottom = top
                while let p = stack.popLast() {
                    let x = p % w, y = p / w
                    left = min(left, x); right = max(right, x); top = min(top, y); bottom = max(bottom, y)
                    for dy in -1...1 {
                        let ny = y + dy
                        guard ny >= 0, ny < h else { continue }
                        for dx in -1...1 {
                            let nx = x + dx, q = ny * w + nx
                            if nx >= 0, nx < w, dark[q] { dark[q] = false; stack.append(q) }
                        }
                    }
                }
                boxes.append(Region(x: left, y: top, width: right - left + 1, height: bottom - top + 1))
            }
        }
        return boxes
    }

    /// Otsu's threshold: the gray level that best splits the histogram into two classes.
    static func otsuThreshold(_ pixels: [UInt8]) -> UInt8 {
        var histogram = [Int](repeating: 0, count: 256)
        for p in pixels { histogram[Int(p)] += 1 }
        let total = Double(pixels.count)
        let sum = histogram.enumerated().reduce(0.0) { $0 + Double($1.offset * $1.element) }
        var below = 0.0, sumBelow = 0.0, best = 0.0, threshold = 127
        for t in 0..<256 {
            below += Double(histogram[t])
            guard below > 0, below < total else { continue }
            sumBelow += Double(t * histogram[t])
            let meanBelow = sumBelow / below, meanAbove = (sum - sumBelow) / (total - below)
            let between = below * (total - below) * (meanBelow - meanAbove) * (meanBelow - meanAbove)
            if between > best { best = between; threshold = t }
        }
        return UInt8(threshold)
    }

    /// The angle whose projection of the letters' centres across the lines gives the
    /// sharpest peaks (the largest sum of squared bin counts): first in steps of half a
    /// degree, then of a tenth around the best. 0 with fewer than 8 letters, or when no
    /// angle beats level text by a clear margin.
    static func skew(of letters: [Region], binSize: Double) -> Double {
        guard letters.count >= 8 else { return 0 }
        let centres = letters.map { (x: Double($0.x) + Double($0.width) / 2, y: Double($0.y) + Double($0.height) / 2) }
        func score(_ degrees: Double) -> Double {
            let a = degrees * Double.pi / 180, s = sin(a), c = cos(a)
            var bins: [Int: Int] = [:]
            for p in centres { bins[Int(((p.y * c - p.x * s) / binSize).rounded(.down)), default: 0] += 1 }
            return bins.values.reduce(0.0) { $0 + Double($1 * $1) }
        }
        var best = 0.0, bestScore = score(0)
        let level = bestScore
        for step in stride(from: -maxSkew, through: maxSkew, by: 0.5) where step != 0 {
            let s = score(step)
            if s > bestScore { best = step; bestScore = s }
        }
        let coarse = best
        for step in stride(from: coarse - 0.4, through: coarse + 0.4, by: 0.1) {
            let s = score(step)
            if s > bestScore { best = step; bestScore = s }
        }
        // Scattered marks score much the same at every angle: keep them level.
        return bestScore > level * 1.15 ? (best * 10).rounded() / 10 : 0
    }
}

extension TextMeasure {
    /// Few letters, covering little of the picture: a photo or a camera frame with a sign or
    /// a label in it, where Tesseract's sparse-text mode finds more than its page layout.
    var isSparse: Bool { letters < 40 || coverage < 0.01 }
}
