import Foundation
@testable import QRSealKit

/// A QR code printed on paper and photographed: seen in perspective, the page bowed and
/// waved (a smooth warp of up to a few modules), at about `pixelsPerModule`, with the
/// light falling off across the page, optical blur and sensor noise. Deterministic for a
/// given `seed`, and made here rather than kept as files.
struct WarpedCode {
    var matrix: QRMatrix
    var pixelsPerModule = 3.0
    /// How far the page bows and waves, in modules.
    var bow = 3.0, wave = 1.2
    /// How far the right edge of the page curls away, in modules: a shift that grows with
    /// the square of the distance from 60 % of the way across, as a page lifting off a desk.
    var edge = 0.0
    /// How far each corner is pushed, as a share of the code's side: perspective.
    var tilt = 0.06
    var seed: UInt64 = 1

    /// The photograph, and where the code's four corners (top-left, top-right,
    /// bottom-right, bottom-left) lie in it before the warp.
    func image() -> (image: GrayImage, corners: [Point]) {
        let quiet = 6, n = matrix.size + 2 * quiet
        let side = Int(Double(n) * pixelsPerModule * 1.2)
        var rng = SplitMix(seed: seed)
        let span = Double(n) * pixelsPerModule, origin = (Double(side) - span) / 2
        func jitter() -> Double { (rng.unit() * 2 - 1) * tilt * span }
        let page = [Point(x: origin + jitter(), y: origin + jitter()), Point(x: origin + span + jitter(), y: origin + jitter()),
                    Point(x: origin + span + jitter(), y: origin + span + jitter()), Point(x: origin + jitter(), y: origin + span + jitter())]
        let toSquare = Homography(squareTo: page).inverse!
        let phase = rng.unit() * 2 * Double.pi
        var pixels = [UInt8](repeating: 0, count: side * side)
        // Each pixel is the mean of 3 × 3 points within it: module edges fall between pixels.
        for y in 0..<side {
            for x in 0..<side {
                var sum = 0.0
                for sy in 0..<3 {
                    for sx in 0..<3 {
                        let p = toSquare.apply(Double(x) + (Double(sx) + 0.5) / 3, Double(y) + (Double(sy) + 0.5) / 3)
                        guard p.x >= 0, p.x < 1, p.y >= 0, p.y < 1 else { sum += 90; continue }
                        let lift = max(0, p.x - 0.6)
                        let u = p.x * Double(n) + wave * sin(2 * Double.pi * (0.7 * p.x + 0.4 * p.y) + phase)
                            - edge * lift * lift / 0.16
                        let v = p.y * Double(n) + bow * (4 * (p.x - 0.5) * (p.x - 0.5) - 1)
                            + wave * cos(2 * Double.pi * (0.5 * p.x - 0.8 * p.y) + phase)
                        let dark = matrix[Int(u.rounded(.down)) - quiet, Int(v.rounded(.down)) - quiet]
                        // Light falls off from the top-left to the bottom-right.
                        sum += (dark ? 35 : 225) * (1 - 0.25 * (p.x + p.y) / 2)
                    }
                }
                pixels[y * side + x] = UInt8(max(0, min(255, sum / 9 + (rng.unit() - 0.5) * 16)))
            }
        }
        let blurred = GrayImage(width: side, height: side, pixels: pixels).boxBlurred(radius: 1)
        let inset = Double(quiet) / Double(n), outset = 1 - inset
        let corners = [(inset, inset), (outset, inset), (outset, outset), (inset, outset)].map {
            Homography(squareTo: page).apply($0.0, $0.1)
        }
        return (blurred, corners)
    }
}

/// A small deterministic generator (SplitMix64).
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    /// A value in [0, 1).
    mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
}

/// Text of `count` characters that fills a code in byte mode, different for each seed.
func denseText(_ count: Int, seed: UInt64) -> String {
    var rng = SplitMix(seed: seed)
    let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 .,;:!?-")
    return String((0..<count).map { _ in letters[Int(rng.next() % UInt64(letters.count))] })
}
