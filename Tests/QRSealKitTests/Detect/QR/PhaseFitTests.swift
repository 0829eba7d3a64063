import Foundation
import Testing
@testable import QRSealKit

/// Laying a grid on the edges between modules (`ModuleGrid.phaseFitted`): what the
/// locator does when the grid through the finders and alignment patterns reads nothing.
@Suite("Detect: a grid fitted to the module edges")
struct PhaseFitTests {
    /// A version-25 code at 3 pixels a module on a flat page in no perspective whose rows and
    /// columns wave by up to `wave` modules (`WarpedCode`), and the grid a straight mapping
    /// of its corners lays, as if the reference points around every cell sat where the page
    /// is not bent.
    static func wavedCode(wave: Double) throws -> (image: GrayImage, matrix: QRMatrix, grid: ModuleGrid) {
        let matrix = try QREncoder(level: .low, minVersion: 25).encode(.text(denseText(1_000, seed: 3)))
        let (image, corners) = WarpedCode(matrix: matrix, pixelsPerModule: 3, bow: 0, wave: wave, tilt: 0, seed: 3).image()
        let d = Double(matrix.size)
        let square = [Point(x: 0, y: 0), Point(x: d, y: 0), Point(x: d, y: d), Point(x: 0, y: d)]
        return (image, matrix, ModuleGrid(dimension: matrix.size, mapping: try #require(Homography(from: square, to: corners))))
    }

    static func errors(_ grid: ModuleGrid, _ image: GrayImage, _ matrix: QRMatrix) -> Int {
        zip(grid.modules(in: image), matrix.modules).filter { $0 != $1 }.count
    }

    @Test("a page waving by 0.45 module: the fitted grid samples nearly every module right where the straight one does not")
    func wavedPage() throws {
        let (image, matrix, grid) = try Self.wavedCode(wave: 0.45)
        let before = Self.errors(grid, image, matrix)
        let fitted = try #require(grid.phaseFitted(in: image))
        let after = Self.errors(fitted, image, matrix)
        let total = matrix.size * matrix.size
        #expect(before * 20 > total, "the straight grid misses more than 5 % (\(before) of \(total))")
        #expect(after * 100 < total, "the fitted grid misses under 1 % (\(after) of \(total))")
    }

    @Test("a grid that already fits stays where it is")
    func flatPage() throws {
        let (image, matrix, grid) = try Self.wavedCode(wave: 0)
        let before = Self.errors(grid, image, matrix)
        let fitted = try #require(grid.phaseFitted(in: image))
        #expect(before * 1000 < matrix.size * matrix.size)
        #expect(Self.errors(fitted, image, matrix) <= before)
    }
}
