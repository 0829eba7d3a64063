import Foundation
import Testing
@testable import QRSealKit

/// Laying a grid on the edges between modules (`ModuleGrid.phaseFitted`): what the
/// locator does when the grid through the finders and alignment patterns reads nothing.
@Suite("Detect: a grid fitted to the module edges")
struct PhaseFitTests {
    /// A version-25 code at 3 pixels a module whose rows and columns wave by up to
    /// `amplitude` modules over a few dozen modules (a page that is not flat), each pixel
    /// the mean of 3 × 3 points within it and then blurred, with the grid a straight
    /// mapping of its unwarped corners would lay.
    static func wavedCode(amplitude: Double) throws -> (image: GrayImage, matrix: QRMatrix, grid: ModuleGrid) {
        let matrix = try QREncoder(level: .low, minVersion: 25).encode(.text(denseText(1_000, seed: 3)))
        let n = matrix.size, quiet = 4, scale = 3.0
        let side = Int(Double(n + 2 * quiet) * scale)
        var pixels = [UInt8](repeating: 0, count: side * side)
        for y in 0..<side {
            for x in 0..<side {
                var sum = 0.0
                for sy in 0..<3 {
                    for sx in 0..<3 {
                        let px = (Double(x) + (Double(sx) + 0.5) / 3) / scale - Double(quiet)
                        let py = (Double(y) + (Double(sy) + 0.5) / 3) / scale - Double(quiet)
                        // Where this point of the photo lies on the page, in modules.
                        let u = px + amplitude * sin(2 * Double.pi * py / 37)
                        let v = py + amplitude * sin(2 * Double.pi * (px + 11) / 29)
                        let column = Int(u.rounded(.down)), row = Int(v.rounded(.down))
                        let dark = column >= 0 && row >= 0 && column < n && row < n && matrix.modules[row * n + column]
                        sum += dark ? 30 : 215
                    }
                }
                pixels[y * side + x] = UInt8(sum / 9)
            }
        }
        let image = GrayImage(width: side, height: side, pixels: pixels).boxBlurred(radius: 1)
        let origin = Double(quiet) * scale, far = origin + Double(n) * scale
        let corners = [Point(x: origin, y: origin), Point(x: far, y: origin), Point(x: far, y: far), Point(x: origin, y: far)]
        let d = Double(n)
        let square = [Point(x: 0, y: 0), Point(x: d, y: 0), Point(x: d, y: d), Point(x: 0, y: d)]
        let grid = ModuleGrid(dimension: n, mapping: try #require(Homography(from: square, to: corners)))
        return (image, matrix, grid)
    }

    static func errors(_ grid: ModuleGrid, _ image: GrayImage, _ matrix: QRMatrix) -> Int {
        zip(grid.modules(in: image), matrix.modules).filter { $0 != $1 }.count
    }

    @Test("a page waving by 0.4 module between the reference points: the fitted grid samples nearly every module right")
    func wavedPage() throws {
        let (image, matrix, grid) = try Self.wavedCode(amplitude: 0.4)
        let before = Self.errors(grid, image, matrix)
        let fitted = try #require(grid.phaseFitted(in: image))
        let after = Self.errors(fitted, image, matrix)
        let total = matrix.size * matrix.size
        #expect(before * 20 > total, "the straight grid misses more than 5 % (\(before) of \(total))")
        #expect(after * 200 < total, "the fitted grid misses under 0.5 % (\(after) of \(total))")
    }

    @Test("a grid that already fits stays where it is")
    func flatPage() throws {
        let (image, matrix, grid) = try Self.wavedCode(amplitude: 0)
        #expect(Self.errors(grid, image, matrix) == 0)
        let fitted = try #require(grid.phaseFitted(in: image))
        #expect(Self.errors(fitted, image, matrix) == 0)
    }
}
