import Foundation
import Testing
import TestSupport
@testable import QRSealKit

/// The runs along the rows that our Data Matrix and Aztec readers share (`RowRuns`), and the
/// region outlines the Data Matrix reader makes from them.
@Suite("Row runs")
struct RowRunsTests {
    /// Row y's run starts and its width, pixel by pixel.
    static func naive(_ dark: [Bool], width: Int, height: Int) -> [[Int32]] {
        (0..<height).map { y in
            var bounds: [Int32] = [0]
            for x in 1..<max(1, width) where dark[y * width + x] != dark[y * width + x - 1] { bounds.append(Int32(x)) }
            return bounds + [Int32(width)]
        }
    }

    static func rows(_ runs: RowRuns) -> [[Int32]] {
        (0..<runs.height).map { Array(runs.bounds[runs.first[$0]..<runs.first[$0 + 1]]) }
    }

    @Test("runs are where each row changes colour, on rows of every width and pattern",
          arguments: [1, 2, 7, 8, 9, 15, 16, 17, 63, 300])
    func matchesPixels(width: Int) {
        var random = SplitMix(seed: UInt64(width))
        let height = 6
        // Random, every pixel alternating, all dark, all light, long runs, a change at each
        // eighth pixel (where eight compared at a time meet).
        let patterns: [(Int, Int) -> Bool] = [
            { _, _ in random.next() & 1 == 1 }, { x, y in (x + y) % 2 == 0 }, { _, _ in true }, { _, _ in false },
            { x, _ in (x / 5) % 2 == 0 }, { x, _ in (x / 8) % 2 == 1 },
        ]
        for (k, pattern) in patterns.enumerated() {
            let dark = (0..<(width * height)).map { pattern($0 % width, $0 / width) }
            let runs = RowRuns(dark: dark, width: width, height: height)
            #expect(Self.rows(runs) == Self.naive(dark, width: width, height: height), "pattern \(k)")
            #expect(runs.firstDark == (0..<height).map { dark[$0 * width] }, "pattern \(k)")
        }
    }

    @Test("pixels that do not fill the size give no runs, and readers given them read nothing")
    func mismatched() throws {
        let runs = RowRuns(dark: [true, false, true], width: 2, height: 2)
        #expect(runs.bounds.isEmpty)
        let image = try DataMatrixReaderTests.image("s32")
        let short = RowRuns(dark: [Bool](repeating: true, count: 64), width: 8, height: 8)
        #expect(DataMatrixReader(image: image, runs: short).read().isEmpty)
        #expect(AztecReader(image: image, runs: short).read().isEmpty)
        #expect(!DataMatrixReader(image: image).read().isEmpty)
    }

    @Test("a region's outline from its rows' ends is the hull of all its pixels' corners", arguments: [8, 20, 45])
    func hullFromRowEnds(rows: Int) {
        var random = SplitMix(seed: UInt64(rows))
        for trial in 0..<20 {
            // A blob of one run a row (or two), each row anywhere across 40 pixels.
            var left: [Int32] = [], right: [Int32] = [], corners: [Point] = []
            for y in 0..<rows {
                let a = Int32(random.next() % 30), b = a + 1 + Int32(random.next() % 10)
                var row = [(a, b)]
                if random.next() % 3 == 0 { row.append((b + 2, b + 4)) }
                left.append(row.map(\.0).min()!)
                right.append(row.map(\.1).max()!)
                for (s, e) in row {
                    for x in [s, e] { corners += [Point(x: Double(x), y: Double(y + 3)), Point(x: Double(x), y: Double(y + 4))] }
                }
            }
            let outline = DataMatrixReader.convexHull(rowOrdered: DataMatrixReader.rowEnds(left: left, right: right, top: 3))
            #expect(outline == DataMatrixReader.convexHull(corners), "\(rows) rows, trial \(trial)")
        }
    }
}
