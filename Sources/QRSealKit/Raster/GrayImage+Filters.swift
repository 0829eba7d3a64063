import FoundationEssentials
import Glibc

extension GrayImage {
    /// Light and dark swapped: each pixel v becomes 255 − v.
    public func inverted() -> GrayImage {
        GrayImage(width: width, height: height, pixels: pixels.map { 255 &- $0 })
    }

    /// A copy with a `border`-pixel frame of `value` around it; a point (x, y) of this image
    /// lands at (x + border, y + border).
    public func padded(by border: Int, value: UInt8 = 255) -> GrayImage {
        guard border > 0 else { return self }
        let w = width + 2 * border, h = height + 2 * border
        var out = [UInt8](repeating: value, count: w * h)
        pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for y in 0..<height {
                    let d = (y + border) * w + border
                    for x in 0..<width { dst[d + x] = src[y * width + x] }
                }
            }
        }
        return GrayImage(width: w, height: h, pixels: out)
    }

    /// The part of the image inside the rectangle, clipped to the image; nil when nothing is left.
    public func cropped(x: Int, y: Int, width cw: Int, height ch: Int) -> GrayImage? {
        let x0 = max(0, x), y0 = max(0, y)
        let x1 = min(width, x + cw), y1 = min(height, y + ch)
        guard x1 > x0, y1 > y0 else { return nil }
        let w = x1 - x0
        var out = [UInt8]()
        out.reserveCapacity(w * (y1 - y0))
        for row in y0..<y1 { out += pixels[(row * width + x0)..<(row * width + x1)] }
        return GrayImage(width: w, height: y1 - y0, pixels: out)
    }

    /// Levels stretched so that the darkest `clip` fraction of pixels becomes black and the
    /// lightest `clip` fraction white, for dim, hazy or low-contrast pictures.
    public func contrastStretched(clip: Double = 0.01) -> GrayImage {
        var histogram = [Int](repeating: 0, count: 256)
        for v in pixels { histogram[Int(v)] += 1 }
        let cut = Int(Double(pixels.count) * min(max(clip, 0), 0.49))
        var low = 0, seen = 0
        while low < 255, seen + histogram[low] <= cut { seen += histogram[low]; low += 1 }
        var high = 255
        seen = 0
        while high > 0, seen + histogram[high] <= cut { seen += histogram[high]; high -= 1 }
        guard high > low else { return self }
        return mapped { v in UInt8(min(255, max(0, (v - low) * 255 / (high - low)))) }
    }

    /// Each level v replaced by `level(v)`, computed once for each of the 256 levels.
    private func mapped(_ level: (Int) -> UInt8) -> GrayImage {
        let table = (0..<256).map(level)
        return GrayImage(width: width, height: height, pixels: pixels.map { table[Int($0)] })
    }

    /// Each level v made 255 · (v / 255)^`gamma` (rounded): with `gamma` above 1 the
    /// light levels spread apart and the dark ones close up, so that the narrow light
    /// gaps of bars blurred into a washed-out picture differ from the bars again.
    public func darkened(gamma: Double) -> GrayImage {
        mapped { v in UInt8(min(255, max(0, (255 * pow(Double(v) / 255, gamma)).rounded()))) }
    }

    /// Each pixel replaced by the mean of the (2r+1)² square around it, the square clipped
    /// to the image at its edges.
    public func boxBlurred(radius r: Int) -> GrayImage {
        guard r > 0, width > 0, height > 0 else { return self }
        var out = [UInt8](repeating: 0, count: pixels.count)
        out.withUnsafeMutableBufferPointer { dst in
            // total + count / 2 is below 256 · count.
            if windowFitsInt32(radius: r, perPixel: 256) {
                blur(radius: r, into: dst, summingIn: Int32.self)
            } else {
                blur(radius: r, into: dst, summingIn: Int.self)
            }
        }
        return GrayImage(width: width, height: height, pixels: out)
    }

    /// The rounded window means of `boxBlurred`, with sums kept in `Sum`.
    @inline(__always)
    private func blur<Sum: FixedWidthInteger>(radius r: Int, into dst: UnsafeMutableBufferPointer<UInt8>,
                                              summingIn _: Sum.Type) {
        forEachWindowRow(radius: r, summingIn: Sum.self) { row, totals, counts in
            let out = UnsafeMutableBufferPointer(rebasing: dst[row..<(row + totals.count)])
            for x in 0..<totals.count {
                // A rounded mean of bytes is a byte.
                out[x] = UInt8(truncatingIfNeeded: (totals[x] &+ counts[x] / 2) / counts[x])
            }
        }
    }

    /// Edges strengthened with an unsharp mask: v + amount · (v − blur(v)), for soft focus
    /// and motion blur.
    public func sharpened(radius: Int = 1, amount: Double = 1.5) -> GrayImage {
        let blurred = boxBlurred(radius: radius)
        let k = Int(amount * 256)
        var out = [UInt8](repeating: 0, count: pixels.count)
        pixels.withUnsafeBufferPointer { src in
            blurred.pixels.withUnsafeBufferPointer { blur in
                out.withUnsafeMutableBufferPointer { dst in
                    for i in 0..<dst.count {
                        let v = Int(src[i]), b = Int(blur[i])
                        // Division rounds toward zero, so flat areas stay exactly as they were.
                        dst[i] = UInt8(clamping: v + (v - b) * k / 256)
                    }
                }
            }
        }
        return GrayImage(width: width, height: height, pixels: out)
    }

    /// Black or white by comparing each pixel with the mean of the (2r+1)² square around it,
    /// minus `offset`: a local threshold that survives shadows, glare and uneven light.
    public func adaptiveThreshold(radius r: Int, offset: Int = 4) -> GrayImage {
        guard r > 0, width > 0, height > 0 else { return self }
        var out = [UInt8](repeating: 255, count: pixels.count)
        out.withUnsafeMutableBufferPointer { dst in
            // Both sides of the test below lie within (255 + |offset|) · count of zero.
            if offset.magnitude <= UInt(Int32.max),
               windowFitsInt32(radius: r, perPixel: 255 + Int(offset.magnitude)) {
                threshold(radius: r, offset: offset, into: dst, summingIn: Int32.self)
            } else {
                threshold(radius: r, offset: offset, into: dst, summingIn: Int.self)
            }
        }
        return GrayImage(width: width, height: height, pixels: out)
    }

    /// The black and white pixels of `adaptiveThreshold`, with sums kept in `Sum`.
    @inline(__always)
    private func threshold<Sum: FixedWidthInteger>(radius r: Int, offset: Int,
                                                   into dst: UnsafeMutableBufferPointer<UInt8>,
                                                   summingIn _: Sum.Type) {
        let offset = Sum(offset)
        pixels.withUnsafeBufferPointer { src in
            forEachWindowRow(radius: r, summingIn: Sum.self) { row, totals, counts in
                // Buffers of just this row, so that the loop indexes them by x alone:
                // index arithmetic that could overflow would keep it from being vectorized.
                let input = UnsafeBufferPointer(rebasing: src[row..<(row + totals.count)])
                let out = UnsafeMutableBufferPointer(rebasing: dst[row..<(row + totals.count)])
                for x in 0..<totals.count {
                    let v = Sum(truncatingIfNeeded: input[x]), count = counts[x]
                    // v < mean − offset without dividing. The caller chose `Sum` so that
                    // nothing here overflows, and wrapping operators and a select instead
                    // of a branch let the compiler vectorize the row.
                    out[x] = v &* count < totals[x] &- offset &* count ? 0 : 255
                }
            }
        }
    }

    /// Whether `perPixel` times the number of pixels in the largest (2r+1)² window that
    /// fits in the image is at most Int32.max, so that window sums and the arithmetic done
    /// on them can use 32-bit integers: twice as many per vector register as Int, and a
    /// faster division.
    private func windowFitsInt32(radius r: Int, perPixel: Int) -> Bool {
        let across = min(width, 2 * min(r, width) + 1), down = min(height, 2 * min(r, height) + 1)
        let (count, countOverflow) = across.multipliedReportingOverflow(by: down)
        let (most, mostOverflow) = count.multipliedReportingOverflow(by: perPixel)
        return !countOverflow && !mostOverflow && most <= Int(Int32.max)
    }

    /// Calls `body` once per row, top to bottom, with the index of the row's first pixel
    /// and, for each pixel of the row, the sum (`totals`) and number (`counts`) of the
    /// pixels in the (2r+1)² square around it, clipped to the image.
    ///
    /// Column sums are kept for the rows of the window and slid down the image; along a
    /// row, a window's total is the difference of two prefix sums of the columns. Every
    /// loop but the prefix sum is free of branches and of dependencies between pixels, so
    /// the compiler vectorizes it, and each pixel costs a few additions whatever the radius.
    /// `Sum` must hold 255 times the largest window's count (see `windowFitsInt32`); the
    /// prefix sums may wrap around, which leaves their differences exact.
    @inline(__always)
    private func forEachWindowRow<Sum: FixedWidthInteger>(
        radius r: Int, summingIn _: Sum.Type,
        _ body: (_ row: Int, _ totals: UnsafeBufferPointer<Sum>, _ counts: UnsafeBufferPointer<Sum>) -> Void
    ) {
        let w = width, h = height
        // One allocation for all the per-column buffers, reused for every row.
        let scratch = UnsafeMutableBufferPointer<Sum>.allocate(capacity: 5 * w + 1)
        defer { scratch.deallocate() }
        scratch.initialize(repeating: 0)
        let columns = UnsafeMutableBufferPointer(rebasing: scratch[0..<w])
        let widths = UnsafeMutableBufferPointer(rebasing: scratch[w..<(2 * w)])
        let counts = UnsafeMutableBufferPointer(rebasing: scratch[(2 * w)..<(3 * w)])
        let totals = UnsafeMutableBufferPointer(rebasing: scratch[(3 * w)..<(4 * w)])
        // prefix[x] is the sum of columns 0..<x.
        let prefix = UnsafeMutableBufferPointer(rebasing: scratch[(4 * w)...])
        for x in 0..<w { widths[x] = Sum(min(w, x + r + 1) - max(0, x - r)) }
        // Left edge, middle (both ends of the window inside), right edge.
        let leftEnd = min(w, r + 1), rightStart = max(leftEnd, w - r)
        pixels.withUnsafeBufferPointer { src in
            // The loops below index their buffers by x alone (see `threshold`).
            func pixelRow(_ y: Int) -> UnsafeBufferPointer<UInt8> {
                UnsafeBufferPointer(rebasing: src[(y * w)..<(y * w + w)])
            }
            // The window of row 0 holds rows 0…r.
            for y in 0...min(r, h - 1) {
                let adding = pixelRow(y)
                for x in 0..<w { columns[x] &+= Sum(truncatingIfNeeded: adding[x]) }
            }
            var lastRows = 0
            for y in 0..<h {
                if y > 0 {
                    let add = y + r, drop = y - r - 1
                    if add < h {
                        let adding = pixelRow(add)
                        for x in 0..<w { columns[x] &+= Sum(truncatingIfNeeded: adding[x]) }
                    }
                    if drop >= 0 {
                        let dropping = pixelRow(drop)
                        for x in 0..<w { columns[x] &-= Sum(truncatingIfNeeded: dropping[x]) }
                    }
                }
                // The window's height changes only near the top and bottom edges.
                let rows = min(h, y + r + 1) - max(0, y - r)
                if rows != lastRows {
                    for x in 0..<w { counts[x] = widths[x] &* Sum(rows) }
                    lastRows = rows
                }
                var sum: Sum = 0
                for x in 0..<w {
                    sum &+= columns[x]
                    prefix[x + 1] = sum
                }
                for x in 0..<leftEnd { totals[x] = prefix[min(w, x + r + 1)] }
                if rightStart > leftEnd {
                    // Window ends r + 1 columns past x and r columns before it, as buffers
                    // lined up with the middle stretch.
                    let upper = UnsafeBufferPointer(rebasing: prefix[(leftEnd + r + 1)...])
                    let lower = UnsafeBufferPointer(rebasing: prefix[(leftEnd - r)...])
                    let inside = UnsafeMutableBufferPointer(rebasing: totals[leftEnd..<rightStart])
                    for i in 0..<inside.count { inside[i] = upper[i] &- lower[i] }
                }
                for x in rightStart..<w { totals[x] = prefix[w] &- prefix[max(0, x - r)] }
                body(y * w, UnsafeBufferPointer(totals), UnsafeBufferPointer(counts))
            }
        }
    }

    /// Each pixel replaced by the lightest (`dilating light`) or darkest value in the
    /// (2r+1)² square around it; the darkest closes gaps between dot-shaped modules.
    public func morphed(radius r: Int, keepDarkest: Bool) -> GrayImage {
        guard r > 0, width > 0, height > 0 else { return self }
        // Separable: rows first, then columns.
        func pass(_ src: [UInt8], horizontal: Bool) -> [UInt8] {
            var out = src
            let (outer, inner) = horizontal ? (height, width) : (width, height)
            src.withUnsafeBufferPointer { s in
                out.withUnsafeMutableBufferPointer { d in
                    for o in 0..<outer {
                        for i in 0..<inner {
                            var best: UInt8 = keepDarkest ? 255 : 0
                            for j in max(0, i - r)...min(inner - 1, i + r) {
                                let v = horizontal ? s[o * width + j] : s[j * width + o]
                                best = keepDarkest ? min(best, v) : max(best, v)
                            }
                            if horizontal { d[o * width + i] = best } else { d[i * width + o] = best }
                        }
                    }
                }
            }
            return out
        }
        return GrayImage(width: width, height: height,
                         pixels: pass(pass(pixels, horizontal: true), horizontal: false))
    }
}
