import Foundation
@testable import QRSealKit

/// Per image, the evidence the plan's gates may look at: the finder census (patterns, those
/// crossed by two scan rows or more, groups), the bar regions, the Aztec reader's bull's-eyes
/// and the Data Matrix reader's candidate regions, each with its CPU time.
func profileEvidence(output: String, images: [String]) throws {
    var rows: [[String: Any]] = []
    for path in images {
        guard let data = try? Data(contentsOf: URL(fileURLWithPath: path)),
              let image = try? ImageDecoder().decode([UInt8](data)) else { continue }
        var t = threadCPUMilliseconds()
        func lap() -> Double { let now = threadCPUMilliseconds(); defer { t = now }; return now - t }
        let dark = FinderCensus.binarized(image)
        let binarizing = lap()
        let census = FinderCensus(dark: dark, width: image.width, height: image.height, slack: 0.5)
        let censusMs = lap()
        let groups = census.regions(unexplainedBy: [], width: image.width, height: image.height).count
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
                     "ms": ["binarize": binarizing, "census": censusMs, "bars": barsMs, "bullseyes": eyesMs, "dm": dmMs]])
    }
    try JSONSerialization.data(withJSONObject: ["rows": rows]).write(to: URL(fileURLWithPath: output))
}
