import Foundation
import Testing
@testable import QRSealKit

/// GS1 DataBar read from element widths and from blurred grey-level profiles
/// (`DataBarDecoder`), as `ProfileReader` measures them where both engines lose the
/// narrow spaces to blur.
@Suite("DataBarDecoder: GS1 DataBar from element widths")
struct DataBarDecoderTests {
    /// Symbols as zint draws them (`zint -b DBAR_OMN`), module widths of their 46 elements
    /// from the left, and their element strings.
    static let symbols: [(widths: [Int], text: String)] = [
        ([1, 1, 1, 3, 3, 1, 1, 1, 5, 1, 3, 5, 5, 1, 1, 1, 6, 1, 2, 1, 1, 1, 2, 2, 2, 3, 1, 3, 2, 1, 1, 1, 1, 6, 5, 2, 2,
          1, 1, 2, 1, 3, 2, 4, 1, 1], "0120358468019312"),
        ([1, 1, 5, 1, 1, 1, 5, 1, 1, 1, 3, 8, 2, 1, 1, 4, 1, 2, 1, 1, 1, 3, 2, 1, 3, 2, 1, 2, 1, 2, 3, 1, 1, 6, 5, 2, 2,
          3, 1, 2, 1, 3, 2, 2, 1, 1], "0109501101530003"),
        ([1, 1, 1, 1, 1, 1, 2, 1, 8, 1, 3, 8, 2, 1, 1, 7, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 7, 1, 1, 9, 1, 3, 1,
          8, 1, 2, 1, 1, 1, 1, 1, 1], "0100000000000000"),
        ([1, 1, 2, 1, 1, 3, 1, 3, 4, 1, 3, 8, 2, 1, 1, 4, 1, 2, 1, 1, 2, 3, 1, 1, 3, 6, 1, 1, 1, 1, 1, 1, 1, 7, 5, 1, 3,
          5, 1, 1, 1, 1, 1, 3, 1, 1], "0199999999999997"),
    ]

    /// The grey levels of `widths` (modules, light first) printed at `pixels` a module with
    /// `margin` light modules either side, blurred by a Gaussian of `sigma` pixels: light
    /// 210, dark 5, one sample a pixel.
    static func profile(_ widths: [Int], pixels: Double, sigma: Double, margin: Int = 8) -> [Double] {
        var edges: [(Double, Double)] = []
        var x = Double(margin)
        for (i, w) in widths.enumerated() {
            if i % 2 == 1 { edges.append((x * pixels, (x + Double(w)) * pixels)) }
            x += Double(w)
        }
        let count = Int((x + Double(margin)) * pixels)
        func phi(_ z: Double) -> Double { 0.5 * erfc(-z / 2.0.squareRoot()) }
        return (0..<count).map { k in
            let u = Double(k) + 0.5
            let dark = edges.reduce(0.0) { $0 + phi((u - $1.0) / sigma) - phi((u - $1.1) / sigma) }
            return 210 - 205 * min(1, dark)
        }
    }

    @Test("zint's symbols read as their element strings, widths in any unit")
    func exactWidths() {
        for (widths, text) in Self.symbols {
            #expect(DataBarDecoder.decode(widths.map { Double($0) }) == Array(text.utf8), "\(text)")
            #expect(DataBarDecoder.decode(widths.map { Double($0) * 3.3 }) == Array(text.utf8), "\(text) at 3.3")
        }
    }

    @Test("a character one module off, a finder swapped, or elements missing: no reading")
    func damaged() {
        let (widths, _) = Self.symbols[0]
        for i in [3, 16, 25, 40] {
            var moved = widths
            // One module moved between neighbours: the character's total holds, its value
            // or the checksum does not.
            moved[i] += 1
            moved[i + 1] -= 1
            if moved[i + 1] >= 1 { #expect(DataBarDecoder.decode(moved.map { Double($0) }) == nil, "element \(i)") }
        }
        var finders = widths
        finders.replaceSubrange(10..<15, with: [3, 8, 2, 1, 1])
        #expect(DataBarDecoder.decode(finders.map { Double($0) }) == nil)
        #expect(DataBarDecoder.decode(widths.dropLast().map { Double($0) }) == nil)
        #expect(DataBarDecoder.decode([Double](repeating: 0, count: 46)) == nil)
        #expect(DataBarDecoder.decode([Double](repeating: 1, count: 46)) == nil)
        #expect(DataBarDecoder.decode([Double](repeating: .greatestFiniteMagnitude, count: 46)) == nil)
    }

    @Test("a blurred profile whose narrow spaces stay grey reads, either way round, with where it lies")
    func blurredProfile() throws {
        for (widths, text) in Self.symbols {
            let p = Self.profile(widths, pixels: 3, sigma: 1.8)
            let span = 20.0...Double(p.count - 21)
            let read = try #require(DataBarDecoder.read(p, span: span), "\(text)")
            #expect(read.bytes == Array(text.utf8))
            // The outer bars' outer edges: 9 modules in (8 of margin and the guard's light
            // one), and 8 from the end.
            #expect(abs(read.ends.0 - 27) < 1.5 && abs(read.ends.1 - Double(p.count - 24)) < 1.5, "\(read.ends)")
            #expect(DataBarDecoder.read(Array(p.reversed()), span: span)?.bytes == Array(text.utf8), "\(text) reversed")
        }
    }

    @Test("noise, stripes and random bars read as nothing")
    func nothing() {
        // A fixed sequence of pseudo-random widths (a linear congruential generator).
        var state: UInt64 = 42
        func next() -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(state >> 33) % 8 + 1
        }
        for _ in 0..<200 {
            let widths = (0..<60).map { _ in next() }
            let p = Self.profile(widths, pixels: 3, sigma: 1)
            #expect(DataBarDecoder.read(p, span: 20...Double(p.count - 21)) == nil)
        }
        let stripes = Self.profile([Int](repeating: 1, count: 120), pixels: 3, sigma: 0.8)
        #expect(DataBarDecoder.read(stripes, span: 20...Double(stripes.count - 21)) == nil)
        #expect(DataBarDecoder.read([Double](repeating: 128, count: 400), span: 20...380) == nil)
        #expect(DataBarDecoder.read([], span: 0...0) == nil)
    }

    @Test("the character tables' edges: values 0 and the largest of each kind")
    func characterValues() {
        // Outside group 0, value 0, as zint draws character 1 of 0.
        #expect(DataBarDecoder.value([1, 1, 1, 1, 2, 1, 8, 1], outside: true) == 0)
        // Inside group 0, value 0, read right to left as character 2 of 0 is.
        #expect(DataBarDecoder.value(Array([7, 2, 1, 1, 1, 1, 1, 1].reversed()), outside: false) == 0)
        // Odd elements adding up to no group's total.
        #expect(DataBarDecoder.value([3, 1, 2, 1, 2, 1, 2, 4], outside: true) == nil)
        #expect(DataBarDecoder.combinations(5, 2) == 10 && DataBarDecoder.combinations(2, 5) == 0)
    }
}
