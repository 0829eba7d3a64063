import Foundation
import Testing
import TestSupport
@testable import QRSealKit

/// How the finder census groups patterns into the regions of a page (Tests/Images/photo-sheets,
/// crops of bench/gen_dense.py's photographed sheets): each code's own three finders make a
/// group, even where codes stand closer together than their own finders or a slant makes one
/// side of a code longer than the other, and a finder whose ring blur has thinned to a pixel
/// on its centre column is still counted.
@Suite("Finder census: the groups of a photographed page")
struct CensusGroupTests {
    static let folder = Tools.packageRoot.appendingPathComponent("Tests/Images/photo-sheets")

    static func sample(_ name: String) throws -> (GrayImage, [String]) {
        let url = folder.appendingPathComponent(name + ".png")
        let image = try ImageDecoder().decode([UInt8](try Data(contentsOf: url)))
        let text = try String(contentsOf: url.deletingPathExtension().appendingPathExtension("txt"), encoding: .utf8)
        return (image, text.split(separator: "\n").map(String.init))
    }

    /// The codes the default effort reads, which must be every one the crop holds.
    static func codes(_ name: String) throws -> (GrayImage, [Detection]) {
        let (image, expected) = try sample(name)
        let found = Detector().detect(in: image)
        #expect(found.compactMap(\.text).sorted() == expected.sorted())
        return (image, found)
    }

    @Test("codes set closer than their own finders: each code lies whole in a region whose timing patterns hold")
    func closeCodes() throws {
        let (image, found) = try Self.codes("close-codes")
        #expect(found.count == 9)
        let regions = FinderCensus(image).regions(unexplainedBy: [])
        // Those whose finders are whole in the crop: a code cut by its edge has none there.
        for code in found where code.corners.allSatisfy({ $0.x > 16 && $0.y > 16 && $0.x < Double(image.width - 16) && $0.y < Double(image.height - 16) }) {
            // A region cut from one code's finder and two of its neighbour's misses part of
            // both codes; the code's own group encloses it with its quiet zone.
            #expect(Self.timedRegionHolds(code, regions), "no timed region holds \(code.text ?? "?")")
        }
    }

    /// Whether one of `regions` whose timing patterns hold encloses the whole of `code`.
    static func timedRegionHolds(_ code: Detection, _ regions: [FinderCensus.Group]) -> Bool {
        regions.contains { group in
            group.timed && code.corners.allSatisfy { corner in
                corner.x >= Double(group.box.x) && corner.x <= Double(group.box.x + group.box.width)
                    && corner.y >= Double(group.box.y) && corner.y <= Double(group.box.y + group.box.height)
            }
        }
    }

    @Test("a code seen at a slant, one side of it a quarter longer than the other, makes a group whose timing patterns hold")
    func slanted() throws {
        let (image, found) = try Self.codes("slanted")
        let code = try #require(found.first)
        let c = code.corners
        let top = c[0].distance(to: c[1]), left = c[0].distance(to: c[3])
        #expect(max(top, left) > 1.25 * min(top, left), "sides \(top), \(left)")
        #expect(Self.timedRegionHolds(code, FinderCensus(image).regions(unexplainedBy: [])))
    }

    @Test("a group of one code's finder and two finder-like stretches of its data has no timing pattern")
    func untimedGroupsAreNotCodes() throws {
        let (image, found) = try Self.codes("close-codes")
        let regions = FinderCensus(image).regions(unexplainedBy: [])
        // Every timed region is a code's: its centre lies in a code read.
        for group in regions where group.timed {
            let centre = Point(x: Double(group.box.x) + Double(group.box.width) / 2, y: Double(group.box.y) + Double(group.box.height) / 2)
            #expect(found.contains { $0.grown(by: 0.3).encloses(centre) }, "a timed region at \(group.box) holds no code")
        }
        // Once every code is read, no timed group is left to keep the default effort going.
        let left = FinderCensus(image).regions(unexplainedBy: found)
        #expect(!left.contains { $0.timed })
    }

    @Test("a blurred finder whose ring is one pixel thick on its centre column is counted")
    func thinRing() throws {
        let (image, found) = try Self.codes("thin-ring")
        let code = try #require(found.first)
        let census = FinderCensus(image)
        // All three of the code's finders, each near one of its corners.
        let finders = census.patterns.filter { $0.hits >= FinderCensus.leastGroupedHits && code.grown(by: 0.05).encloses($0.center) }
            .filter { p in code.corners.contains { $0.distance(to: p.center) < 8 * p.module } }
        #expect(finders.count >= 3, "\(finders.map(\.center))")
    }
}
