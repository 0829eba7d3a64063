import Testing
@testable import QRSealKit

/// The live text tracker on blocks made here: what makes a block stable, changed, moved or
/// gone, and what a recognition of part of the frame leaves alone.
@Suite("live text: the tracker")
struct TextTrackerTests {
    static let frame = Region(x: 0, y: 0, width: 640, height: 480)

    static func block(_ text: String, x: Int = 100, y: Int = 100, confidence: Double = 90) -> TextBlock {
        let box = Region(x: x, y: y, width: 12 * text.count, height: 20)
        let word = TextWord(text: text, confidence: confidence, box: box)
        return TextBlock(lines: [TextLine(words: [word], confidence: confidence, box: box)], confidence: confidence, box: box)
    }

    /// The events of successive recognitions of the whole frame, as (kind, id, text).
    static func run(_ recognitions: [[TextBlock]], tracker: inout TextTracker) -> [[String]] {
        recognitions.enumerated().map { n, blocks in
            tracker.update(with: blocks, in: frame, frame: n + 1, time: Double(n) / 30)
                .map { "\($0.kind.rawValue) \($0.id) \($0.block.text)" }
        }
    }

    @Test("a block is added once read alike twice, then not again while it stays")
    func stable() {
        var tracker = TextTracker()
        let events = Self.run([[Self.block("opening hours")], [Self.block("opening hour5")], [Self.block("opening hours")]],
                              tracker: &tracker)
        #expect(events == [[], ["add 1 opening hour5"], []])
        #expect(tracker.inView.map(\.block.text) == ["opening hour5"])
        #expect(!tracker.isUnsettled)
    }

    @Test("a reading seen once is never reported; two unlike readings in a row are not stable")
    func flicker() {
        var tracker = TextTracker()
        let events = Self.run([[Self.block("exit")], [], [Self.block("platform 4")], [Self.block("bus station")]],
                              tracker: &tracker)
        #expect(events.allSatisfy { $0.isEmpty })
        #expect(tracker.isUnsettled)
    }

    @Test("changed text in place is an update once the new text is read alike twice; one misreading is not")
    func changed() {
        var tracker = TextTracker()
        let events = Self.run([[Self.block("price 3.50")], [Self.block("price 3.50")],
                               [Self.block("xqzv 9")], [Self.block("price 3.50")],
                               [Self.block("price 4.20")], [Self.block("price 4.20")]], tracker: &tracker)
        #expect(events == [[], ["add 1 price 3.50"], [], [], [], ["update 1 price 4.20"]])
    }

    @Test("a block that moves by more than half its height is updated, jitter is not")
    func moved() {
        var tracker = TextTracker()
        let events = Self.run([[Self.block("menu")], [Self.block("menu", x: 102, y: 101)],
                               [Self.block("menu", x: 104, y: 99)], [Self.block("menu", x: 120, y: 115)]], tracker: &tracker)
        #expect(events == [[], ["add 1 menu"], [], ["update 1 menu"]])
    }

    @Test("a block is removed once two recognitions in a row miss it; one miss keeps it")
    func removed() {
        var tracker = TextTracker()
        let a = Self.block("left", x: 20), b = Self.block("right", x: 400)
        let events = Self.run([[a, b], [a, b], [a], [a, b], [a], [a]], tracker: &tracker)
        #expect(events == [[], ["add 1 left", "add 2 right"], [], [], [], ["remove 2 right"]])
    }

    @Test("a recognition of part of the frame leaves the blocks outside it alone")
    func region() {
        var tracker = TextTracker()
        let a = Self.block("left", x: 20), b = Self.block("right", x: 400)
        _ = Self.run([[a, b], [a, b]], tracker: &tracker)
        let part = Region(x: 0, y: 0, width: 300, height: 480)
        for n in 3...6 { #expect(tracker.update(with: [a], in: part, frame: n, time: 0).isEmpty) }
        #expect(tracker.inView.map(\.block.text) == ["left", "right"])
        let gone = tracker.update(with: [], in: part, frame: 7, time: 0) + tracker.update(with: [], in: part, frame: 8, time: 0)
        #expect(gone.map(\.block.text) == ["left"])
    }

    @Test("two identical texts side by side are two blocks; finish removes every stable one")
    func twins() {
        var tracker = TextTracker()
        let a = Self.block("EXIT", x: 20), b = Self.block("EXIT", x: 400)
        let events = Self.run([[a, b], [b, a]], tracker: &tracker)
        #expect(events[1] == ["add 1 EXIT", "add 2 EXIT"])
        #expect(Set(tracker.inView.map(\.block.box.x)) == [20, 400])
        #expect(tracker.finish().map(\.kind) == [.remove, .remove])
        #expect(tracker.inView.isEmpty)
    }

    @Test("text similarity: one less the edit distance over the longer length, white space runs as one space")
    func similarityMeasure() {
        #expect(similarity("market", "market") == 1)
        #expect(similarity("market", "narket") == 1 - 1.0 / 6)
        #expect(similarity("two  words\n", "two words") == 1)
        #expect(similarity("", "") == 1 && similarity("abc", "") == 0)
        #expect(similarity("abc", "xyz") == 0)
    }
}

/// The cell means a live text session compares frames by.
@Suite("live text: frame cells")
struct CellImageTests {
    @Test("cells are the means of 8x8 blocks, a partial edge cell over its own pixels")
    func means() {
        var pixels = [UInt8](repeating: 100, count: 20 * 10)
        for y in 0..<10 { for x in 16..<20 { pixels[y * 20 + x] = 200 } }
        let cells = CellImage(GrayImage(width: 20, height: 10, pixels: pixels))
        #expect(cells.columns == 3 && cells.rows == 2)
        #expect(cells.cells == [100, 100, 200, 100, 100, 200])
    }

    @Test("noise does not change a cell, a mark does; a code's area is left out")
    func changes() {
        func frame(noise: UInt64, mark: Bool) -> GrayImage {
            var state = noise
            var pixels = (0..<(64 * 64)).map { _ -> UInt8 in
                state = state &* 6364136223846793005 &+ 1442695040888963407
                return UInt8(150 + Int((state >> 33) % 13) - 6)
            }
            if mark { for y in 40..<48 { for x in 40..<48 { pixels[y * 64 + x] = 20 } } }
            return GrayImage(width: 64, height: 64, pixels: pixels)
        }
        let a = CellImage(frame(noise: 1, mark: false))
        #expect(CellImage(frame(noise: 2, mark: false)).changed(from: a, threshold: 12).isEmpty)
        let marked = CellImage(frame(noise: 3, mark: true))
        let changed = marked.changed(from: a, threshold: 12)
        #expect(changed == [5 * 8 + 5])
        #expect(marked.region(of: changed) == Region(x: 40, y: 40, width: 8, height: 8))
        let code = Region(x: 38, y: 38, width: 12, height: 12)
        #expect(marked.changed(from: a, threshold: 12, ignoring: Set(marked.cells(in: code))).isEmpty)
        #expect(marked.changed(from: nil, threshold: 12).count == 64)
    }
}
