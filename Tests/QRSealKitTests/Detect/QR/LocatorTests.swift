import Testing
@testable import QRSealKit

/// Our own locator and rectifier (`QRLocator`): dense, curled codes photographed at about
/// 3 pixels per module, which the engines' own detectors sample wrongly, and the pieces it
/// is made of.
@Suite("Detect: the QR locator")
struct LocatorTests {
    /// Dense codes on a bowed, waved page in perspective (see `WarpedCode`).
    static let warped: [(version: Int, pixelsPerModule: Double, bow: Double, wave: Double, seed: UInt64)] = [
        (30, 3.2, 2, 0.6, 1), (30, 3.5, 3, 0.8, 3),
    ]

    /// The photo of `warped[index]`, its text, matrix and printed corners; drawn once for
    /// the run (several suites read the same photos).
    static func sample(_ index: Int) throws -> (image: GrayImage, text: String, matrix: QRMatrix, corners: [Point]) {
        try samples[index].get()
    }

    private static let samples: [Result<(image: GrayImage, text: String, matrix: QRMatrix, corners: [Point]), Error>] =
        warped.map { c in
            Result {
                let text = denseText(c.version * 30, seed: c.seed)
                let matrix = try QREncoder(level: .low, minVersion: c.version).encode(.text(text))
                let (image, corners) = WarpedCode(matrix: matrix, pixelsPerModule: c.pixelsPerModule, bow: c.bow,
                                                  wave: c.wave, tilt: 0.03, seed: c.seed).image()
                return (image, text, matrix, corners)
            }
        }

    static func detector(_ effort: Effort) -> Detector {
        var detector = Detector(effort: effort)
        detector.timeBudget = .cpu(.seconds(600))
        return detector
    }

    @Test("a dense curled code the engines miss is read at the fast and balanced efforts",
          arguments: 0..<LocatorTests.warped.count)
    func denseCurled(index: Int) throws {
        let (image, text, matrix, corners) = try Self.sample(index)
        #expect((25...40).contains(matrix.version))
        // Neither engine alone, with its harder search, reads it.
        #expect(ZXingEngine(symbologies: [.qr]).scan(image).isEmpty)
        #expect(ZBarEngine(symbologies: [.qr]).scan(image).isEmpty)
        for effort in [Effort.fast, .balanced] {
            let found = Self.detector(effort).detect(in: image)
            #expect(found.map(\.text) == [text], "\(effort)")
            // Corners come back through the located grid into the photo's pixels: near
            // where the code's corners were printed, within the page's warp.
            if let read = found.first {
                #expect(read.version == matrix.version)
                for (c, e) in zip(read.corners, corners) {
                    #expect(c.distance(to: e) < 8 * 3.5, "\(effort): corner \(c) far from \(e)")
                }
            }
        }
    }

    @Test("the three codes of a page give three triples, each oriented as its code is read")
    func pageOfThree() throws {
        let texts = ["first of three", "second of three", "third of three"]
        let images = try texts.map { try QREncoder().encode(.text($0)).image(scale: 4, margin: 4) }
        let side = images[0].width
        var page = GrayImage(width: side * 3 + 40, height: side + 40, filledWith: 255)
        for (i, image) in images.enumerated() {
            for y in 0..<image.height {
                for x in 0..<image.width { page[20 + i * side + x, 20 + y] = image[x, y] }
            }
        }
        let dark = Binarizer.binarized(page)
        let census = FinderCensus(dark: dark, width: page.width, height: page.height)
        let patterns = dark.withUnsafeBufferPointer { d in
            census.patterns.compactMap { $0.refined(on: d, width: page.width, height: page.height) }
        }
        #expect(patterns.count >= 9, "three finders a code, and perhaps a finder-like stretch of data")
        let triples = FinderTriple.triples(patterns, limit: 12)
        // The best three are the codes' own: top-left above bottom-left, left of top-right.
        let best = Array(triples.prefix(3))
        for t in best {
            #expect(t.topRight.center.x > t.topLeft.center.x + 40 && abs(t.topRight.center.y - t.topLeft.center.y) < 2)
            #expect(t.bottomLeft.center.y > t.topLeft.center.y + 40 && abs(t.bottomLeft.center.x - t.topLeft.center.x) < 2)
        }
        #expect(Set(best.map { Int($0.topLeft.center.x) / side }).count == 3)
        #expect(QRLocator(image: page).read().map { String(decoding: $0.bytes, as: UTF8.self) }.sorted() == texts.sorted())
    }

    @Test("the version information names the version; the spacing gives the estimates around it")
    func versionRead() throws {
        for version in [7, 25, 40] {
            let matrix = try QREncoder(level: .medium, minVersion: version).encode(.text("version \(version)"))
            #expect(matrix.version == version)
            let scale = 3, margin = 4, n = matrix.size
            let image = matrix.image(scale: scale, margin: margin)
            // Module coordinates to pixels for this clean rendering.
            let px = { (m: Double) in Double(margin * scale) + m * Double(scale) }
            let mapping = try #require(Homography(from: [Point(x: 0, y: 0), Point(x: 1, y: 0), Point(x: 1, y: 1), Point(x: 0, y: 1)],
                                                  to: [Point(x: px(0), y: px(0)), Point(x: px(1), y: px(0)),
                                                       Point(x: px(1), y: px(1)), Point(x: px(0), y: px(1))]))
            let pattern = { (x: Double, y: Double) in FinderCensus.Pattern(center: Point(x: px(x), y: px(y)), module: Double(scale), hits: 4) }
            let far = Double(n) - 3.5
            let triple = try #require(FinderTriple(pattern(3.5, 3.5), pattern(far, 3.5), pattern(3.5, far)))
            #expect(QRLocator(image: image).versionInformation(mapping, dimension: n, triple: triple) == version)
            #expect(triple.dimensionEstimates.first == n)
            #expect(Set(triple.dimensionEstimates).isSuperset(of: [n - 4, n + 4].filter { $0 >= 21 && $0 <= 177 }))
        }
    }

    @Test("alignment pattern centres are those of ISO/IEC 18004 Annex E")
    func alignmentCenters() {
        #expect(AlignmentPatterns.centers(version: 1) == [])
        #expect(AlignmentPatterns.centers(version: 2) == [6, 18])
        #expect(AlignmentPatterns.centers(version: 7) == [6, 22, 38])
        #expect(AlignmentPatterns.centers(version: 15) == [6, 26, 48, 70])
        #expect(AlignmentPatterns.centers(version: 32) == [6, 34, 60, 86, 112, 138])
        #expect(AlignmentPatterns.centers(version: 36) == [6, 24, 50, 76, 102, 128, 154])
        #expect(AlignmentPatterns.centers(version: 40) == [6, 30, 58, 86, 114, 142, 170])
        #expect(AlignmentPatterns.centers(version: 41) == [])
    }

    @Test("alignment patterns are found where they are drawn, and not in data modules")
    func alignmentFound() throws {
        let matrix = try QREncoder(level: .medium, minVersion: 10).encode(.text("alignment"))
        let scale = 3, margin = 4
        let image = matrix.image(scale: scale, margin: margin)
        let dark = Binarizer.binarized(image)
        let across = Point(x: 3, y: 0), down = Point(x: 0, y: 3)
        let center = { (m: Int) in Double((margin + m) * scale) + 1.5 }
        let centers = AlignmentPatterns.centers(version: 10)
        try dark.withUnsafeBufferPointer { d in
            for cy in centers.dropFirst() {
                for cx in centers.dropFirst() {
                    let truth = Point(x: center(cx), y: center(cy))
                    // A guess two modules off still finds it.
                    let found = try #require(AlignmentPatterns.locate(on: d, width: image.width, height: image.height,
                                                                      near: Point(x: truth.x + 5, y: truth.y - 4), module: 3,
                                                                      radius: 7, across: across, down: down))
                    #expect(found.distance(to: truth) < 1, "\(found) vs \(truth)")
                }
            }
            // A finder's centre is no alignment pattern (its core is 3 modules wide).
            #expect(AlignmentPatterns.locate(on: d, width: image.width, height: image.height, near: Point(x: center(3), y: center(3)),
                                             module: 3, radius: 2, across: across, down: down) == nil)
        }
    }

    @Test("a mapping between quadrilaterals takes each corner to its own, and back")
    func homography() throws {
        let square = [Point(x: 3.5, y: 3.5), Point(x: 50, y: 3.5), Point(x: 47, y: 47), Point(x: 3.5, y: 50)]
        let quad = [Point(x: 100, y: 120), Point(x: 400, y: 90), Point(x: 430, y: 380), Point(x: 130, y: 420)]
        let h = try #require(Homography(from: square, to: quad))
        let back = try #require(h.inverse)
        for (s, q) in zip(square, quad) {
            #expect(h.apply(s).distance(to: q) < 1e-6)
            #expect(back.apply(q).distance(to: s) < 1e-6)
        }
        #expect(Homography(from: Array(repeating: Point(x: 1, y: 1), count: 4), to: quad) == nil)
    }

    @Test("hostile images: finder-like noise, a lone finder, huge patterns, tiny and thin images give nothing")
    func hostile() throws {
        var rng = SplitMix(seed: 9)
        // Finder patterns scattered at random sizes and places, never three of a code.
        var noise = GrayImage(width: 640, height: 480, filledWith: 255)
        let finder = try QREncoder().encode(.text("f"))
        for _ in 0..<40 {
            let scale = 1 + Int(rng.next() % 6), x0 = Int(rng.next() % 600), y0 = Int(rng.next() % 440)
            for y in 0..<(7 * scale) {
                for x in 0..<(7 * scale) where x0 + x < 640 && y0 + y < 480 {
                    noise[x0 + x, y0 + y] = finder[x / scale, y / scale] ? 0 : 255
                }
            }
        }
        for _ in 0..<20_000 {
            noise[Int(rng.next() % 640), Int(rng.next() % 480)] = rng.next() % 2 == 0 ? 0 : 255
        }
        // One finder pattern alone, and one 100 pixels to a module in a small image.
        var lone = GrayImage(width: 200, height: 200, filledWith: 255)
        var huge = GrayImage(width: 800, height: 800, filledWith: 255)
        for y in 0..<7 {
            for x in 0..<7 where finder[x, y] {
                for dy in 0..<10 { for dx in 0..<10 { lone[60 + x * 10 + dx, 60 + y * 10 + dy] = 0 } }
                for dy in 0..<100 { for dx in 0..<100 { huge[50 + x * 100 + dx, 50 + y * 100 + dy] = 0 } }
            }
        }
        let images = [noise, lone, huge, GrayImage(width: 1, height: 1, filledWith: 0), GrayImage(width: 21, height: 21, filledWith: 0),
                      GrayImage(width: 1, height: 500, filledWith: 0), GrayImage(width: 500, height: 1, filledWith: 255),
                      GrayImage(width: 300, height: 300, filledWith: 0)]
        for image in images {
            #expect(QRLocator(image: image).read().isEmpty, "\(image.width)x\(image.height)")
            #expect(Self.detector(.fast).detect(in: image).isEmpty, "\(image.width)x\(image.height)")
        }
    }

    /// Dense codes whose page lifts at the right edge as well as bowing and waving: the
    /// alignment patterns there lie modules off any extrapolation from their neighbours.
    static let curled: [(version: Int, pixelsPerModule: Double, bow: Double, wave: Double, edge: Double, seed: UInt64)] = [
        (39, 3.0, 3, 0.6, 4, 5), (36, 3.2, 3, 0.8, 5, 8),
    ]

    @Test("a dense code curling off the page at one edge is read by the locator, version and all",
          arguments: 0..<LocatorTests.curled.count)
    func strongCurl(index: Int) throws {
        let c = Self.curled[index]
        let text = denseText(c.version * 28, seed: c.seed)
        let matrix = try QREncoder(level: .low, minVersion: c.version).encode(.text(text))
        let (image, _) = WarpedCode(matrix: matrix, pixelsPerModule: c.pixelsPerModule, bow: c.bow, wave: c.wave,
                                    edge: c.edge, tilt: 0.03, seed: c.seed).image()
        let read = QRLocator(image: image).read()
        #expect(read.map(\.bytes) == [Array(text.utf8)])
        #expect(read.first?.version == matrix.version)
    }

    @Test("a dense code cut short (its right part missing) is not read, and nothing else is")
    func truncated() throws {
        let (image, _, _, _) = try Self.sample(0)
        let cut = try #require(image.cropped(x: 0, y: 0, width: image.width * 2 / 3, height: image.height))
        #expect(QRLocator(image: cut).read().isEmpty)
    }
}
