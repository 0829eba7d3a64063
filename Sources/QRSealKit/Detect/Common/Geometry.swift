// The geometry every reader and stage speaks: points, quadrilaterals (a symbol's four
// corners) and regions (rectangles of pixels).

/// A point in image pixel coordinates (x to the right, y down).
public struct Point: Equatable, Sendable {
    public var x: Double
    public var y: Double
    public init(x: Double, y: Double) { self.x = x; self.y = y }
}

/// A rectangle of a frame in pixels, x to the right and y down from the top-left corner:
/// where a scan session looks, like VisionKit's `regionOfInterest`.
public struct Region: Hashable, Sendable {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The part of this region inside a `frameWidth` × `frameHeight` frame; nil when none is.
    public func clipped(toWidth frameWidth: Int, height frameHeight: Int) -> Region? {
        let left = max(x, 0), top = max(y, 0)
        let right = min(x + width, frameWidth), bottom = min(y + height, frameHeight)
        guard right > left, bottom > top else { return nil }
        return Region(x: left, y: top, width: right - left, height: bottom - top)
    }
}

extension GrayImage {
    /// The pixels inside `region`, which must lie within the image.
    func cropped(to region: Region) -> GrayImage {
        precondition(region.x >= 0 && region.y >= 0 && region.x + region.width <= width
                     && region.y + region.height <= height, "region outside the image")
        if region == Region(x: 0, y: 0, width: width, height: height) { return self }
        let pixels = [UInt8](unsafeUninitializedCapacity: region.width * region.height) { out, count in
            self.pixels.withUnsafeBufferPointer { source in
                for row in 0..<region.height {
                    let from = source.baseAddress! + (region.y + row) * width + region.x
                    (out.baseAddress! + row * region.width).initialize(from: from, count: region.width)
                }
            }
            count = region.width * region.height
        }
        return GrayImage(width: region.width, height: region.height, pixels: pixels)
    }
}

/// A symbol's quadrilateral: four corners, top-left, top-right, bottom-right, bottom-left as
/// the symbol is read (`Detection.corners`).
extension [Point] {
    /// Whether `p` lies inside this convex quadrilateral (on an edge counts).
    func encloses(_ p: Point) -> Bool {
        var sign = 0.0
        for i in 0..<4 {
            let a = self[i], b = self[(i + 1) % 4]
            let cross = (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x)
            if cross != 0 {
                if sign == 0 { sign = cross } else if (cross > 0) != (sign > 0) { return false }
            }
        }
        return true
    }

    /// The area of this quadrilateral (the shoelace formula).
    var quadrilateralArea: Double {
        let twice = (0..<4).reduce(0.0) { $0 + self[$1].x * self[($1 + 1) % 4].y - self[($1 + 1) % 4].x * self[$1].y }
        return abs(twice) / 2
    }
}
