import Foundation
import Testing
import TestSupport
@testable import QRSealKit

/// The binarization the QR locator's second run finds its patterns on
/// (`Binarizer.midrange`): the midpoint of the darkest and the lightest pixel around.
@Suite("Binarization by the midpoint of local extremes")
struct MidrangeTests {
    /// Dark where a pixel is below the midpoint of the extremes of the 5 × 5 blocks of 8 × 8
    /// pixels around its own, blocks clipped to the image, and nothing dark where they
    /// differ by less than the least contrast: the definition, pixel by pixel.
    static func naive(_ image: GrayImage) -> [Bool] {
        let w = image.width, h = image.height, b = Binarizer.midrangeBlock, reach = Binarizer.midrangeReach
        let bw = (w + b - 1) / b, bh = (h + b - 1) / b
        return (0..<(w * h)).map { i in
            let bx = (i % w) / b, by = (i / w) / b
            var low = 255, high = 0
            for y in max(0, by - reach) * b..<min(bh, by + reach + 1) * b where y < h {
                for x in max(0, bx - reach) * b..<min(bw, bx + reach + 1) * b where x < w {
                    low = min(low, Int(image.pixels[y * w + x])); high = max(high, Int(image.pixels[y * w + x]))
                }
            }
            return high - low >= Binarizer.midrangeLeastContrast && Int(image.pixels[i]) < (low + high + 1) / 2
        }
    }

    @Test("each pixel is dark exactly where it is below its window's midrange, on images of every width",
          arguments: [1, 7, 8, 9, 40, 41, 100])
    func matchesDefinition(width: Int) {
        var random = SplitMix(seed: UInt64(width) &* 104_729)
        for height in [1, 8, 23, 50] {
            for (k, image) in BinarizedTests.images(width: width, height: height, random: &random).enumerated() {
                #expect(Binarizer.midrange(image) == Self.naive(image), "\(width)×\(height), image \(k)")
            }
        }
    }

    /// A finder pattern on paper, drawn as blur leaves one at 3 pixels a module: the
    /// one-module rings greyed towards each other (a dark ring of 70 and a light ring of
    /// 180 on paper of 215, a centre of 30). Around the finder at the corner of a code in a
    /// wide margin, as here, the window of a block mean holds mostly paper.
    static func cornerFinder() -> GrayImage {
        let side = 120, origin = 30, module = 3
        var pixels = [UInt8](repeating: 215, count: side * side)
        for my in 0..<7 {
            for mx in 0..<7 {
                let ring = max(abs(mx - 3), abs(my - 3))
                let grey: UInt8 = ring <= 1 ? 30 : ring == 2 ? 180 : 70
                for y in 0..<module {
                    for x in 0..<module { pixels[(origin + my * module + y) * side + origin + mx * module + x] = grey }
                }
            }
        }
        return GrayImage(width: side, height: side, pixels: pixels)
    }

    @Test("a blurred finder pattern at a code's corner keeps its light ring, which the block mean turns dark")
    func cornerFinderKeepsItsRing() {
        let image = Self.cornerFinder()
        // The light ring's left side, on the row through the centre: module 1, pixels 33…35.
        let row = (30 + 3 * 3 + 1) * image.width
        let midrange = Binarizer.midrange(image), mean = Binarizer.binarized(image)
        #expect((33...35).allSatisfy { !midrange[row + $0] })
        #expect((33...35).contains { mean[row + $0] }, "the case the midrange is for")
        // So the census finds the pattern on the one, where its rings hold.
        let census = FinderCensus(dark: midrange, width: image.width, height: image.height)
        #expect(census.patterns.contains { $0.center.distance(to: Point(x: 30 + 10.5, y: 30 + 10.5)) < 2 })
    }

    @Test("plain paper with noise and uneven light is all light")
    func paperIsLight() {
        var random = SplitMix(seed: 11)
        let width = 97, height = 61
        let pixels = (0..<(width * height)).map { i -> UInt8 in
            UInt8(180 + (i % width) / 8 + Int(random.next() % 9))
        }
        #expect(!Binarizer.midrange(GrayImage(width: width, height: height, pixels: pixels)).contains(true))
    }
}
