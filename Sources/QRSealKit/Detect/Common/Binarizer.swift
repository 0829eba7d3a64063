/// Dark and light pixels of a grey image against a local mean: the binarizer our own readers
/// share (the finder census and the QR locator, the Aztec and Data Matrix readers), made
/// once per prepared copy (`PreparedImages.binarized(for:)`) and shared by every pass on it;
/// and beside it `midrange(_:)`, which only the QR locator's second run uses.
/// zxing-cpp and zbar binarize for themselves.
enum Binarizer {
    /// Dark (true) where a pixel is below the mean of the 3×3 blocks of 16×16 pixels around it.
    /// A block's 16 pixels of a row are summed as one vector, and compared with their mean
    /// eight at a time (`bytesBelow`): the compiler vectorizes neither byte-by-byte loop.
    static func binarized(_ image: GrayImage) -> [Bool] {
        let w = image.width, h = image.height, shift = 4
        let bw = (w + 15) >> shift, bh = (h + 15) >> shift
        // The columns of whole blocks; the last block of a row may be narrower.
        let whole = w >> shift
        var sums = [Int](repeating: 0, count: bw * bh), counts = [Int](repeating: 0, count: bw * bh)
        var means = [UInt8](repeating: 0, count: bw * bh)
        var out = [Bool](repeating: false, count: w * h)
        image.pixels.withUnsafeBufferPointer { src in
            sums.withUnsafeMutableBufferPointer { sums in
                counts.withUnsafeMutableBufferPointer { counts in
                    for y in 0..<h {
                        let brow = (y >> shift) * bw, row = y * w
                        for bx in 0..<whole {
                            // Summed from a vector already loaded: the compiler then adds its bytes at once.
                            let block = UnsafeRawPointer(src.baseAddress! + row + bx << shift)
                                .loadUnaligned(as: SIMD16<UInt8>.self)
                            var sum: UInt32 = 0
                            for x in 0..<16 { sum &+= UInt32(block[x]) }
                            sums[brow + bx] += Int(sum)
                        }
                        for x in (whole << shift)..<w { sums[brow + x >> shift] += Int(src[row + x]) }
                        for bx in 0..<bw { counts[brow + bx] += min(16, w - bx << shift) }
                    }
                    means.withUnsafeMutableBufferPointer { means in
                        for by in 0..<bh {
                            for bx in 0..<bw {
                                var total = 0, count = 0
                                for ny in max(0, by - 1)...min(bh - 1, by + 1) {
                                    for nx in max(0, bx - 1)...min(bw - 1, bx + 1) {
                                        total += sums[ny * bw + nx]
                                        count += counts[ny * bw + nx]
                                    }
                                }
                                means[by * bw + bx] = UInt8(total / max(1, count))
                            }
                        }
                    }
                }
            }
            means.withUnsafeBufferPointer { means in
                out.withUnsafeMutableBufferPointer { dst in
                    for y in 0..<h {
                        let brow = (y >> shift) * bw, row = y * w
                        for bx in 0..<whole {
                            let start = row + bx << shift, mean = UInt64(means[brow + bx]) &* 0x0101_0101_0101_0101
                            // A Bool is a byte of 1 (true) or 0.
                            for half in stride(from: start, to: start + 16, by: 8) {
                                let pixels = UnsafeRawPointer(src.baseAddress! + half).loadUnaligned(as: UInt64.self)
                                UnsafeMutableRawPointer(dst.baseAddress! + half)
                                    .storeBytes(of: bytesBelow(pixels, mean), as: UInt64.self)
                            }
                        }
                        for x in (whole << shift)..<w { dst[row + x] = src[row + x] < means[brow + x >> shift] }
                    }
                }
            }
        }
        return out
    }

    /// Each of the eight bytes of `x` compared with the byte in the same place of `y`, as
    /// unsigned numbers: 1 where it is below, else 0, in its place.
    @inline(__always)
    static func bytesBelow(_ x: UInt64, _ y: UInt64) -> UInt64 {
        let high: UInt64 = 0x8080_8080_8080_8080
        // Each byte's difference modulo 256, with no borrow from the next byte: x's byte with
        // its top bit set is larger than y's without it.
        let difference = ((x | high) &- (y & ~high)) ^ ((x ^ ~y) & high)
        // Top bits apart, x's byte is below when its top bit is clear; alike, when the
        // difference is negative.
        return (((~x & y) | (~(x ^ y) & difference)) & high) >> 7
    }
}

extension Binarizer {
    /// The side of `midrange(_:)`'s blocks, in pixels, and how many blocks each way its
    /// extremes are taken over: 40 × 40 pixels, over a dozen modules of a code at 3 pixels
    /// a module, so that a finder pattern's dark centre and the paper beside it both fall
    /// in the window of every pixel of its rings.
    static let midrangeBlock = 8, midrangeReach = 2
    /// The least difference between the darkest and the lightest pixel of a window for
    /// anything in it to be dark: on plain paper, noise alone spans less.
    static let midrangeLeastContrast = 24

    /// Dark (true) where a pixel is below the midpoint of the darkest and the lightest pixel
    /// of the 5 × 5 blocks of `midrangeBlock` pixels around it; nothing is dark in a window
    /// of less contrast than `midrangeLeastContrast`.
    ///
    /// Why beside `binarized(_:)`: a local mean follows how much of the window is paper.
    /// At the corner of a code the window around a finder pattern is mostly paper, its mean
    /// lies above the blurred grey of a one-module light ring at 3 pixels a module, and the
    /// ring turns dark: the pattern is lost (most of the finders of bench/gen_dense.py's
    /// `dense-hard` photos). The midpoint of the extremes does not depend on that share, and
    /// the extremes are those of the finder's centre and the paper, which blur does not
    /// reach. It is noisier on plain areas, so it serves the QR locator's second run only
    /// (`QRLocatorSearch.midrange`), after the run on `binarized(_:)`.
    static func midrange(_ image: GrayImage) -> [Bool] {
        let w = image.width, h = image.height, b = midrangeBlock, reach = midrangeReach
        guard w > 0, h > 0 else { return [] }
        let bw = (w + b - 1) / b, bh = (h + b - 1) / b
        var lows = [UInt8](repeating: 255, count: bw * bh), highs = [UInt8](repeating: 0, count: bw * bh)
        var out = [Bool](repeating: false, count: w * h)
        image.pixels.withUnsafeBufferPointer { src in
            for y in 0..<h {
                let row = y * w, brow = (y / b) * bw
                for bx in 0..<bw {
                    var low = lows[brow + bx], high = highs[brow + bx]
                    for x in (bx * b)..<min(w, bx * b + b) {
                        let v = src[row + x]
                        low = min(low, v)
                        high = max(high, v)
                    }
                    lows[brow + bx] = low
                    highs[brow + bx] = high
                }
            }
            // The extremes over the blocks within `reach`, along the rows and then down the columns.
            func spread(_ values: [UInt8], _ pick: (UInt8, UInt8) -> UInt8) -> [UInt8] {
                var across = values, both = values
                for by in 0..<bh {
                    for bx in 0..<bw {
                        var v = values[by * bw + bx]
                        for nx in max(0, bx - reach)...min(bw - 1, bx + reach) { v = pick(v, values[by * bw + nx]) }
                        across[by * bw + bx] = v
                    }
                }
                for by in 0..<bh {
                    for bx in 0..<bw {
                        var v = across[by * bw + bx]
                        for ny in max(0, by - reach)...min(bh - 1, by + reach) { v = pick(v, across[ny * bw + bx]) }
                        both[by * bw + bx] = v
                    }
                }
                return both
            }
            let low = spread(lows, min), high = spread(highs, max)
            let thresholds = (0..<(bw * bh)).map { k -> UInt8 in
                let l = Int(low[k]), hi = Int(high[k])
                return hi - l < midrangeLeastContrast ? 0 : UInt8((l + hi + 1) / 2)
            }
            out.withUnsafeMutableBufferPointer { dst in
                for y in 0..<h {
                    let row = y * w, brow = (y / b) * bw
                    for x in 0..<w { dst[row + x] = src[row + x] < thresholds[brow + x / b] }
                }
            }
        }
        return out
    }
}
