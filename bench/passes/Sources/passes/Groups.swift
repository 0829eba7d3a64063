import Foundation
@testable import QRSealKit

/// Prints what the census and the bar regions make of one image: the finder patterns within
/// `r` pixels of (`x`, `y`) (index, centre, module, scan rows that crossed it), the groups
/// whose box's centre lies there (box, module, whether their timing patterns hold), and
/// every bar region the tensor finds, the bar rule left out (centre, angle, half extents
/// across and along, the bars its lines cross, `BarRegions.bars(across:in:)`).
func dumpGroups(path: String, x: Double, y: Double, r: Double) throws {
    let image = try ImageDecoder().decode([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
    let census = FinderCensus(dark: Binarizer.binarized(image), width: image.width, height: image.height,
                              slack: 0.5, besideCentre: true)
    for (i, p) in census.patterns.enumerated() where abs(p.center.x - x) < r && abs(p.center.y - y) < r {
        print("pattern", i, Int(p.center.x), Int(p.center.y), String(format: "%.2f", p.module), p.hits)
    }
    for g in census.regions(unexplainedBy: [])
    where abs(Double(g.box.x + g.box.width / 2) - x) < r && abs(Double(g.box.y + g.box.height / 2) - y) < r {
        print("group", g.box, String(format: "%.2f", g.module), g.timed ? "timed" : "untimed")
    }
    for b in BarRegions.find(in: image, most: PassPlan.barRegionsLooked, leastBars: 0) {
        print("bars", Int(b.x), Int(b.y), String(format: "%.2f", b.angle), Int(b.across), Int(b.along),
              BarRegions.bars(across: b, in: image))
    }
}
