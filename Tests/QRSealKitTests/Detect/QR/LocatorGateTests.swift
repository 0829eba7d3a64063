import Testing
@testable import QRSealKit

/// How the locator drops triples of finder-like patterns early (`QRLocator`, and
/// `PassPlan`'s gate list): each shortcut gives what the full work gives on real codes.
@Suite("Detect: the locator's early rejections")
struct LocatorGateTests {
    /// The triples the locator would try on `image` at `slack`, best first.
    static func triples(_ image: GrayImage, slack: Double = 0.5) -> [FinderTriple] {
        let dark = Binarizer.binarized(image)
        let census = FinderCensus(dark: dark, width: image.width, height: image.height, slack: slack)
        let patterns = dark.withUnsafeBufferPointer { d in
            census.patterns.filter { $0.hits >= 2 }.prefix(FinderTriple.maxPatterns).compactMap {
                $0.refined(on: d, width: image.width, height: image.height, slack: slack)
            }
        }
        return FinderTriple.triples(patterns, limit: QRLocator.maxTriples)
    }

    static func texture() -> GrayImage {
        GrayImage(width: 640, height: 480, pixels: GateImageTests.texture(width: 640, height: 480, finders: 300, seed: 5))
    }

    @Test("the timing modules taken from their bands alone are those a sampling of every module gives",
          arguments: 0..<LocatorTests.warped.count)
    func timingFromBands(index: Int) throws {
        let (image, _, matrix, corners) = try LocatorTests.sample(index)
        let n = matrix.size
        let d = Double(n)
        let square = [Point(x: 0, y: 0), Point(x: d, y: 0), Point(x: d, y: d), Point(x: 0, y: d)]
        let mapping = try #require(Homography(from: square, to: corners))
        // On the code, and on the same grid laid over a texture.
        for picture in [image, Self.texture()] {
            let grid = ModuleGrid(dimension: n, mapping: mapping)
            let all = grid.modules(in: picture)
            let timing = grid.timingModules(in: picture)
            #expect(timing.row == (8..<(n - 8)).map { all[6 * n + $0] })
            #expect(timing.column == (8..<(n - 8)).map { all[$0 * n + 6] })
        }
    }

    @Test("a curled dense code's timing patterns hold beside its finders through the first mapping",
          arguments: 0..<LocatorTests.warped.count)
    func curledCodePasses(index: Int) throws {
        let (image, _, matrix, _) = try LocatorTests.sample(index)
        let locator = QRLocator(image: image)
        let dark = Binarizer.binarized(image)
        let triple = try #require(Self.triples(image).first)
        let mapping = try #require(dark.withUnsafeBufferPointer { locator.firstMapping(triple, dimension: matrix.size, on: $0) })
        #expect(locator.timingHoldsNearFinders(mapping, dimension: matrix.size))
    }

    @Test("most triples of finder-like patterns in a texture fail the timing check before any alignment search")
    func textureTriplesFail() {
        let image = Self.texture()
        let locator = QRLocator(image: image)
        let dark = Binarizer.binarized(image)
        let triples = Self.triples(image, slack: 0.75)
        #expect(triples.count >= 10, "the texture gives the locator work to reject")
        let passing = dark.withUnsafeBufferPointer { d in
            triples.filter { t in
                t.dimensionEstimates.prefix(3).contains { n in
                    locator.firstMapping(t, dimension: n, on: d).map { locator.timingHoldsNearFinders($0, dimension: n) } ?? false
                }
            }.count
        }
        #expect(passing * 4 < triples.count, "\(passing) of \(triples.count)")
    }

    @Test("the wide locator after the narrow one on the same copy reads what it reads alone, and skips the triples read in vain")
    func fruitlessShared() throws {
        var pictures = try (0..<LocatorTests.warped.count).map { try LocatorTests.sample($0).image }
        pictures.append(Self.texture())
        for (i, image) in pictures.enumerated() {
            let dark = Binarizer.binarized(image)
            let alone = QRLocator(image: image, slack: 0.75, dark: dark).read()
            let shared = FruitlessTriples()
            let narrow = QRLocator(image: image, slack: 0.5, dark: dark, fruitless: shared).read()
            let wide = QRLocator(image: image, slack: 0.75, dark: dark, fruitless: shared).read()
            #expect(wide.map(\.bytes) == alone.map(\.bytes), "picture \(i)")
            if i < LocatorTests.warped.count {
                #expect(narrow.count == 1 && alone.count == 1, "picture \(i)")
            } else {
                #expect(narrow.isEmpty && wide.isEmpty)
                #expect(shared.count > 0, "the texture's triples were tried in vain once")
            }
        }
    }
}
