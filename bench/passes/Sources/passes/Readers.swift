import Foundation
@testable import QRSealKit

/// Times our own Data Matrix, Aztec and MicroPDF417 readers alone on each image, as the quick search
/// runs them (on the image as it is, binarized once, its runs found once), and writes, per
/// image, the CPU time of the binarization, of finding the runs, of the finder census and of
/// each reader, and the payloads each read and the patterns the census found: what a change
/// to them must keep (`readers.py` compares two such tables).
func profileReaders(output: String, images: [String], repeats: Int) throws {
    var rows: [[String: Any]] = []
    func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }
    for path in images {
        guard let data = try? Data(contentsOf: URL(fileURLWithPath: path)),
              let image = try? ImageDecoder().decode([UInt8](data)) else { continue }
        var start = threadCPUMilliseconds()
        var dark: [Bool] = []
        for _ in 0..<repeats { dark = Binarizer.binarized(image) }
        let binarizing = (threadCPUMilliseconds() - start) / Double(repeats)
        start = threadCPUMilliseconds()
        var runs = RowRuns(dark: dark, width: image.width, height: image.height)
        for _ in 1..<max(2, repeats) { runs = RowRuns(dark: dark, width: image.width, height: image.height) }
        let finding = (threadCPUMilliseconds() - start) / Double(max(1, repeats - 1))
        start = threadCPUMilliseconds()
        var census = FinderCensus(dark: dark, width: image.width, height: image.height)
        for _ in 1..<max(2, repeats) { census = FinderCensus(dark: dark, width: image.width, height: image.height) }
        let censusMs = (threadCPUMilliseconds() - start) / Double(max(1, repeats - 1))
        start = threadCPUMilliseconds()
        var matrix: [String] = []
        for _ in 0..<repeats { matrix = DataMatrixReader(image: image, dark: dark, runs: runs).read().map { hex($0.candidate.bytes) } }
        let matrixMs = (threadCPUMilliseconds() - start) / Double(repeats)
        start = threadCPUMilliseconds()
        var aztec: [String] = []
        for _ in 0..<repeats { aztec = AztecReader(image: image, dark: dark, runs: runs).read().map { hex($0.candidate.bytes) } }
        let aztecMs = (threadCPUMilliseconds() - start) / Double(repeats)
        start = threadCPUMilliseconds()
        var micro: [String] = []
        for _ in 0..<repeats { micro = MicroPDF417Reader(image: image, dark: dark, runs: runs).read().map { hex($0.candidate.bytes) } }
        let microMs = (threadCPUMilliseconds() - start) / Double(repeats)
        rows.append(["file": path, "pixels": image.width * image.height, "binarize": binarizing, "runs": finding,
                     "census": censusMs,
                     "censusPatterns": census.patterns.map { "\($0.center.x),\($0.center.y),\($0.module),\($0.hits)" },
                     "dataMatrix": matrixMs, "aztec": aztecMs, "microPDF417": microMs,
                     "dataMatrixReads": matrix, "aztecReads": aztec, "microPDF417Reads": micro])
    }
    let json = try JSONSerialization.data(withJSONObject: ["rows": rows])
    try json.write(to: URL(fileURLWithPath: output))
}
