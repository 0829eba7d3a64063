import Foundation
import Testing
import TestSupport
@testable import QRSealKit

/// The block-mean binarization our finder census, Data Matrix and Aztec readers share
/// (`Binarizer.binarized`), which sums and compares 16 pixels at a time.
@Suite("Binarization by block means")
struct BinarizedTests {
    /// Dark where a pixel is below the mean of the 3×3 blocks of 16×16 pixels around its
    /// own, blocks clipped to the image: the definition, pixel by pixel.
    static func naive(_ image: GrayImage) -> [Bool] {
        let w = image.width, h = image.height, bw = (w + 15) / 16, bh = (h + 15) / 16
        return (0..<(w * h)).map { i in
            let bx = (i % w) / 16, by = (i / w) / 16
            var total = 0, count = 0
            for y in max(0, by - 1) * 16..<min(bh, by + 2) * 16 where y < h {
                for x in max(0, bx - 1) * 16..<min(bw, bx + 2) * 16 where x < w {
                    total += Int(image.pixels[y * w + x]); count += 1
                }
            }
            return Int(image.pixels[i]) < total / count
        }
    }

    /// Noise, a gradient, and flat gray with a few dark pixels (equal to the threshold is
    /// light): the images a binarizer is checked against its definition on.
    static func images(width: Int, height: Int, random: inout SplitMix) -> [GrayImage] {
        [
            (0..<(width * height)).map { _ in UInt8(truncatingIfNeeded: random.next()) },
            (0..<(width * height)).map { UInt8(($0 % width) * 255 / max(1, width - 1)) },
            (0..<(width * height)).map { $0 % 37 == 3 ? 10 : 128 },
        ].map { GrayImage(width: width, height: height, pixels: $0) }
    }

    @Test("each pixel is dark exactly where it is below its blocks' mean, on images of every width",
          arguments: [1, 5, 15, 16, 17, 31, 33, 48, 100])
    func matchesDefinition(width: Int) {
        var random = SplitMix(seed: UInt64(width) &* 7919)
        for height in [1, 16, 23] {
            for (k, image) in Self.images(width: width, height: height, random: &random).enumerated() {
                #expect(Binarizer.binarized(image) == Self.naive(image), "\(width)×\(height), image \(k)")
            }
        }
    }

    @Test("eight pixels compared with a mean at once give each pixel's own comparison, for every pair of levels")
    func bytesBelowEveryPair() {
        var wrong = 0
        for a in 0...255 {
            for b in 0...255 {
                // The pair in every byte of the word, beside neighbours that would borrow or carry.
                let x = UInt64(a) | UInt64(255 - a) << 8 | UInt64(b) << 16 | UInt64(a) << 56
                let y = UInt64(b) | UInt64(a) << 8 | UInt64(b) << 16 | UInt64(b) << 56
                let below = Binarizer.bytesBelow(x, y)
                for byte in [0, 1, 2, 7] {
                    let u = UInt8(truncatingIfNeeded: x >> (8 * byte)), v = UInt8(truncatingIfNeeded: y >> (8 * byte))
                    if (below >> (8 * byte)) & 0xFF != (u < v ? 1 : 0) { wrong += 1 }
                }
            }
        }
        #expect(wrong == 0)
    }
}
