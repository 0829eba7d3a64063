/// Maps a point of a pass's image back to the input image: x' = a·x + b·y + c,
/// y' = d·x + e·y + f.
struct PixelMapping: Sendable, Equatable {
    var a = 1.0, b = 0.0, c = 0.0
    var d = 0.0, e = 1.0, f = 0.0

    static let identity = PixelMapping()

    /// For an image scaled by `sx` across and `sy` down: divides the coordinates back.
    static func scaled(_ sx: Double, _ sy: Double) -> PixelMapping {
        PixelMapping(a: 1 / sx, e: 1 / sy)
    }

    /// For a copy whose origin sits at (dx, dy) in the parent: a padding is negative, a crop positive.
    static func offset(_ dx: Double, _ dy: Double) -> PixelMapping {
        PixelMapping(c: dx, f: dy)
    }

    func apply(_ p: Point) -> Point {
        Point(x: a * p.x + b * p.y + c, y: d * p.x + e * p.y + f)
    }

    /// `self` applied first, then `outer`: the mapping of a copy of a copy.
    func then(_ outer: PixelMapping) -> PixelMapping {
        PixelMapping(a: outer.a * a + outer.b * d, b: outer.a * b + outer.b * e, c: outer.a * c + outer.b * f + outer.c,
                     d: outer.d * a + outer.e * d, e: outer.d * b + outer.e * e, f: outer.d * c + outer.e * f + outer.f)
    }
}
