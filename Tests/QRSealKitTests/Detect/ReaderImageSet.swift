import Foundation
import Testing
import TestSupport
@testable import QRSealKit

/// A folder of Tests/Images made for one of our own readers (see make-zint-images.sh): one
/// symbol an image, `NAME.png` beside what it must read as (`NAME.txt`, or `NAME.bin` for raw
/// bytes). Each image is read with the reader alone (its reads and the `Symbol`s it decoded)
/// and through the Detector at the default effort; both are done once an image for the whole
/// run, since several tests ask about the same images.
final class ReaderImageSet<Symbol: Sendable>: Sendable {
    typealias Read = (candidate: Candidate, symbol: Symbol)

    let folder: URL
    let symbology: Symbology
    /// The images of one symbol each, without their extension: not `NAME.unreadable.png`,
    /// nor those left out by the set's tests.
    let names: [String]
    private let reader: @Sendable (GrayImage) -> [Read]
    private let images = RunCache<GrayImage>()
    private let reads = RunCache<[Read]>()
    private let detections = RunCache<[Detection]>()

    /// The set of Tests/Images/`folder`, read as `symbology` by `reader`.
    init(_ folder: String, symbology: Symbology, excluding: Set<String> = [],
         reader: @escaping @Sendable (GrayImage) -> [Read]) {
        self.folder = Tools.packageRoot.appendingPathComponent("Tests/Images").appendingPathComponent(folder)
        self.symbology = symbology
        self.reader = reader
        let files = (try? FileManager.default.contentsOfDirectory(atPath: self.folder.path)) ?? []
        names = files.filter { $0.hasSuffix(".png") && !$0.contains(".unreadable") }
            .map { String($0.dropLast(4)) }.filter { !excluding.contains($0) }.sorted()
    }

    /// `NAME.png` (also `damaged.unreadable`), decoded once.
    func image(_ name: String) throws -> GrayImage {
        try images.value(name) {
            try ImageDecoder().decode([UInt8](try Data(contentsOf: folder.appendingPathComponent(name + ".png"))))
        }
    }

    /// What `NAME` must read as: `NAME.bin` if there is one, else `NAME.txt`.
    func expected(_ name: String) throws -> [UInt8] {
        let base = folder.appendingPathComponent(name)
        if let bin = try? Data(contentsOf: base.appendingPathExtension("bin")) { return [UInt8](bin) }
        return [UInt8](try Data(contentsOf: base.appendingPathExtension("txt")))
    }

    /// What our reader alone reads in `NAME`, run once an image.
    func read(_ name: String) throws -> [Read] {
        try reads.value(name) { reader(try image(name)) }
    }

    /// What the Detector at the default effort finds in `NAME`, run once an image.
    func detected(_ name: String) throws -> [Detection] {
        try detections.value(name) { ReaderTesting.detector.detect(in: try image(name)) }
    }

    /// Our reader alone reads `NAME` as its payload, once, as this set's symbology.
    func expectReadAlone(_ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let reads = try read(name).map(\.candidate)
        #expect(reads.map(\.bytes) == [try expected(name)], "\(name)", sourceLocation: sourceLocation)
        #expect(reads.allSatisfy { $0.symbology == symbology }, "\(name)", sourceLocation: sourceLocation)
    }

    /// The Detector reads `NAME` as its payload, once, as this set's symbology, and nothing else.
    func expectDetected(_ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let found = try detected(name)
        #expect(found.map(\.bytes) == [try expected(name)], "\(name)", sourceLocation: sourceLocation)
        #expect(found.map(\.symbology) == [symbology], "\(name)", sourceLocation: sourceLocation)
    }

    /// `damaged.unreadable`, damaged beyond its check words, reads as nothing with our reader
    /// alone and as nothing of this symbology through the Detector.
    func expectUnreadable(sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(try read("damaged.unreadable").isEmpty, sourceLocation: sourceLocation)
        #expect(try detected("damaged.unreadable").filter { $0.symbology == symbology }.isEmpty,
                sourceLocation: sourceLocation)
    }
}

/// What the tests of our own readers share beside their image sets.
enum ReaderTesting {
    /// The default effort without its time budget, so that a slow (debug) build reads the
    /// same as a release build.
    static var detector: Detector {
        var detector = Detector()
        detector.timeBudget = .cpu(.seconds(600))
        return detector
    }


    /// A flat black, a flat white and a noisy image of `width` × `height`.
    static func flatAndNoisy(width: Int, height: Int) -> [GrayImage] {
        var random = SplitMix(seed: UInt64(width * 1000 + height))
        return [0, 255, -1].map { fill in
            GrayImage(width: width, height: height,
                      pixels: (0..<(width * height)).map { _ in fill >= 0 ? UInt8(fill) : UInt8(random.next() & 0xFF) })
        }
    }

    /// `grid` (rows of modules, dark true) drawn at `scale` pixels a module with a light
    /// margin of `margin` modules.
    static func render(_ grid: [[Bool]], margin: Int, scale: Int = 4) -> GrayImage {
        let w = (grid[0].count + 2 * margin) * scale, h = (grid.count + 2 * margin) * scale
        var image = GrayImage(width: w, height: h, filledWith: 255)
        for (y, row) in grid.enumerated() {
            for (x, dark) in row.enumerated() where dark {
                for dy in 0..<scale { for dx in 0..<scale { image[(x + margin) * scale + dx, (y + margin) * scale + dy] = 0 } }
            }
        }
        return image
    }
}
