import Foundation
@testable import QRSealKit

/// Per image, the evidence the plan's gates may look at: the finder census (patterns, those
/// crossed by two scan rows or more, groups), the bar regions, the Aztec reader's bull's-eyes
/// and the Data Matrix reader's candidate regions, each with its CPU time; then, under
/// "finders", the finder evidence a gate of the budgeted stages might use, on the image as
/// it is, its inverted copy and the copies the `balanced` batches read (`finderEvidence`).
func profileEvidence(output: String, images: [String]) throws {
    var rows: [[String: Any]] = []
    for path in images {
        guard let data = try? Data(contentsOf: URL(fileURLWithPath: path)),
              let image = try? ImageDecoder().decode([UInt8](data)) else { continue }
        var t = threadCPUMilliseconds()
        func lap() -> Double { let now = threadCPUMilliseconds(); defer { t = now }; return now - t }
        let dark = Binarizer.binarized(image)
        let binarizing = lap()
        let census = FinderCensus(dark: dark, width: image.width, height: image.height, slack: 0.5)
        let censusMs = lap()
        let groups = census.regions(unexplainedBy: []).count
        let strong = census.patterns.filter { $0.hits >= FinderCensus.leastGroupedHits }
        let bars = BarRegions.find(in: image)
        let barsMs = lap()
        let eyes = AztecReader(image: image, dark: dark).bullseyes().count
        let eyesMs = lap()
        let dm = DataMatrixReader(image: image, dark: dark).regions().count
        let dmMs = lap()
        rows.append(["file": path, "pixels": image.width * image.height, "patterns": census.patterns.count,
                     "strong": strong.count, "strongLarge": strong.filter { $0.module >= FinderCensus.smallestRegionModule }.count,
                     "groups": groups, "bars": bars.count, "bullseyes": eyes, "dmRegions": dm,
                     "ms": ["binarize": binarizing, "census": censusMs, "bars": barsMs, "bullseyes": eyesMs, "dm": dmMs],
                     "finders": finderEvidence(image)])
    }
    try JSONSerialization.data(withJSONObject: ["rows": rows]).write(to: URL(fileURLWithPath: output))
}

/// The copies whose finder patterns `finderEvidence` counts: the image as it is, its
/// inverted copy (light cores) and the copies the `balanced` batches read.
let evidenceCopies: [(String, [Step])] = [
    ("as", []), ("inverted", [.invert]), ("threshold", [.threshold(0.025)]),
    ("blurThreshold", [.blur(radius: 1), .threshold(0.08)]), ("upscaleThreshold", [.upscale(2), .threshold(0.05)]),
]

/// Per copy and slack (0.5, the census's; 0.75, the wide locator's): the census's patterns,
/// those crossed twice, those that pass the locator's re-measure (`refined`), the triples
/// of those (`FinderTriple`), of those crossed twice, and of those whose timing patterns hold
/// near the finders through the parallelogram the finders make; and `closed`, the largest
/// share of the scan rows through a refined pattern's 3-module core (every other row) that
/// crossed it, among patterns of at least 2 pixels a module: a finder whose rings are whole
/// is crossed by all of them, texture mostly by one.
func finderEvidence(_ image: GrayImage) -> [String: Any] {
    let prepared = PreparedImages(image, maxPixels: ImageDecoder.defaultMaxPixels)
    var out: [String: Any] = [:]
    for (name, steps) in evidenceCopies {
        guard let (copy, _) = prepared.image(for: steps) else { continue }
        let w = copy.width, h = copy.height
        let start = threadCPUMilliseconds()
        let dark = Binarizer.binarized(copy)
        let binarizing = threadCPUMilliseconds() - start
        for slack in [0.5, 0.75] {
            let t = threadCPUMilliseconds()
            let census = FinderCensus(dark: dark, width: w, height: h, slack: slack)
            let ms = binarizing + threadCPUMilliseconds() - t
            let refined = dark.withUnsafeBufferPointer { d in
                census.patterns.prefix(200).compactMap { $0.refined(on: d, width: w, height: h, slack: slack) }
            }
            let twice = refined.filter { $0.hits >= 2 }
            let locator = QRLocator(image: copy, slack: slack)
            let timed = FinderTriple.triples(twice, limit: 1000).filter { t in
                t.dimensionEstimates.prefix(3).contains { n in
                    let d = Double(n), near = 3.5, far = d - 3.5
                    let tl = t.topLeft.center, tr = t.topRight.center, bl = t.bottomLeft.center
                    let corner = Point(x: tr.x + bl.x - tl.x, y: tr.y + bl.y - tl.y)
                    let square = [Point(x: near, y: near), Point(x: far, y: near), Point(x: far, y: far), Point(x: near, y: far)]
                    guard let mapping = Homography(from: square, to: [tl, tr, corner, bl]) else { return false }
                    return locator.timingHoldsNearFinders(mapping, dimension: n)
                }
            }
            let closed = refined.filter { $0.module >= 2 }.map { Double($0.hits) / (1.5 * $0.module) }.max() ?? 0
            out["\(name) \(slack)"] = [
                "patterns": census.patterns.count, "twice": census.patterns.filter { $0.hits >= 2 }.count,
                "refined": refined.count, "refinedTwice": twice.count, "triples": FinderTriple.triples(refined, limit: 1000).count,
                "triplesTwice": FinderTriple.triples(twice, limit: 1000).count, "timed": timed.count,
                "closed": closed, "ms": ms,
            ] as [String: Any]
        }
    }
    return out
}

