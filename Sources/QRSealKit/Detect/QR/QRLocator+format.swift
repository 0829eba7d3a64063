import FoundationEssentials
import Glibc

/// The checks `QRLocator` makes on a triple's first mapping before it lays a grid: the
/// timing modules beside the finders, and the version information read in each finder's
/// own frame.
extension QRLocator {
    /// `2 * nearFinderModules` on each of row 6 and column 6, for a grid worth laying.
    static let nearFinderModules = 6, nearFinderErrors = 8

    /// Whether the timing patterns through `mapping`, within `nearFinderModules` of the
    /// finders' separators (where the mapping through the finders' centres holds best),
    /// mostly alternate as a code's do: at most `nearFinderErrors` of those modules wrong.
    /// Random modules miss about half.
    func timingHoldsNearFinders(_ mapping: Homography, dimension n: Int) -> Bool {
        let timing = ModuleGrid(dimension: n, mapping: mapping).timingModules(in: image)
        let k = Self.nearFinderModules
        let near = (0..<timing.row.count).filter { $0 < k || $0 >= timing.row.count - k }
        guard timing.row.count > 2 * k else { return true }
        let errors = near.reduce(0) { sum, i in
            let light = (i + 8) % 2 == 1
            return sum + (timing.row[i] == light ? 1 : 0) + (timing.column[i] == light ? 1 : 0)
        }
        return errors <= Self.nearFinderErrors
    }

    /// The version either copy of the version information names (within three bit errors),
    /// thresholded against the finder beside it and sampled in that finder's own frame: from
    /// its centre, in steps of its module as measured along `mapping`'s directions there. The
    /// block lies a fixed number of modules from its finder whatever the version, so a
    /// dimension estimated a few versions wrong (the finders' spacing stretched by a curl)
    /// still reads it, and the version it names corrects the estimate.
    func versionInformation(_ mapping: Homography, dimension n: Int, triple t: FinderTriple) -> Int? {
        let d = Double(n)
        // The top-right block (columns n−11…n−9, rows 0…5) and its transpose at the bottom left.
        for (transposed, finder) in [(false, t.topRight), (true, t.bottomLeft)] {
            let anchor = transposed ? Point(x: 3.5, y: d - 3.5) : Point(x: d - 3.5, y: 3.5)
            let (a, b) = mapping.steps(anchor.x, anchor.y)
            let la = a.distance(to: Point(x: 0, y: 0)), lb = b.distance(to: Point(x: 0, y: 0))
            guard la > 0, lb > 0 else { continue }
            let ma = finder.module(along: a.x, a.y), mb = finder.module(along: b.x, b.y)
            let across = Point(x: a.x * ma / la, y: a.y * ma / la), down = Point(x: b.x * mb / lb, y: b.y * mb / lb)
            func at(_ column: Int, _ row: Int) -> Double {
                let (c, r) = transposed ? (row, column) : (column, row)
                let u = Double(c) + 0.5 - anchor.x, v = Double(r) + 0.5 - anchor.y
                return image.bilinear(finder.center.x + u * across.x + v * down.x, finder.center.y + u * across.y + v * down.y,
                                      centres: .halfway, outside: .paper)
            }
            // Midway between the finder's dark centre and its light ring.
            let threshold = (at(n - 4, 3) + at(n - 6, 3)) / 2
            guard at(n - 6, 3) - at(n - 4, 3) > 10 else { continue }
            var bits = 0
            for row in stride(from: 5, through: 0, by: -1) {
                for column in stride(from: n - 9, through: n - 11, by: -1) {
                    bits = bits << 1 | (at(column, row) < threshold ? 1 : 0)
                }
            }
            if let version = QRGeometry.Grid.nearest(bits, in: QRGeometry.versionCodes, maxErrors: 3) { return version }
        }
        return nil
    }
}
