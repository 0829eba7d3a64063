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
        let table: [UInt8] = (0..<256).map { v in
            UInt8(min(255, max(0, (v - low) * 255 / (high - low))))
        }
        return GrayImage(width: width, height: height, pixels: pixels.map { table[Int($0)] })
    }

    /// Each pixel replaced by the mean of the (2r+1)² square around it, the square clipped
    /// to the image at its edges.
    public func boxBlurred(radius r: Int) -> GrayImage {
        guard r > 0, width > 0, height > 0 else { return self }
        var out = [UInt8](repeating: 0, count: pixels.count)
        out.withUnsafeMutableBufferPointer { dst in
            forEachWindow(radius: r) { i, total, count in dst[i] = UInt8((total + count / 2) / count) }
        }
        return GrayImage(width: width, height: height, pixels: out)
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
        pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                forEachWindow(radius: r) { i, total, count in
                    if Int(src[i]) * count < total - offset * count { dst[i] = 0 }
                }
            }
        }
        return GrayImage(width: width, height: height, pixels: out)
    }

    /// Calls `body` with each pixel's index and the sum and count of the pixels in the
    /// (2r+1)² square around it, clipped to the image. Column sums are kept for the rows
    /// of the window and slid down the image, then slid along each row, so each pixel
    /// costs a few additions whatever the radius.
    @inline(__always)
    private func forEachWindow(radius r: Int, _ body: (_ index: Int, _ total: Int, _ count: Int) -> Void) {
        let w = width, h = height
        var columns = [Int](repeating: 0, count: w)
        var xCounts = [Int](repeating: 0, count: w)
        for x in 0..<w { xCounts[x] = min(w, x + r + 1) - max(0, x - r) }
        pixels.withUnsafeBufferPointer { src in
            xCounts.withUnsafeBufferPointer { xCounts in
                columns.withUnsafeMutableBufferPointer { col in
                    // The window of row 0 holds rows 0…r.
                    for y in 0...min(r, h - 1) {
                        for x in 0..<w { col[x] &+= Int(src[y * w + x]) }
                    }
                    for y in 0..<h {
                        if y > 0 {
                            let add = y + r, drop = y - r - 1
                            if add < h { for x in 0..<w { col[x] &+= Int(src[add * w + x]) } }
                            if drop >= 0 { for x in 0..<w { col[x] &-= Int(src[drop * w + x]) } }
                        }
                        let rows = min(h, y + r + 1) - max(0, y - r)
                        let row = y * w
                        var total = 0
                        for x in 0...min(r, w - 1) { total &+= col[x] }
                        // Left edge, middle (both ends of the window inside), right edge.
                        let leftEnd = min(w, r + 1), rightStart = max(leftEnd, w - r)
                        for x in 0..<leftEnd {
                            if x > 0 && x + r < w { total &+= col[x + r] }
                            body(row + x, total, xCounts[x] * rows)
                        }
                        for x in leftEnd..<rightStart {
                            total &+= col[x + r] &- col[x - r - 1]
                            body(row + x, total, xCounts[x] * rows)
                        }
                        for x in rightStart..<w {
                            if x + r < w { total &+= col[x + r] }
                            if x - r - 1 >= 0 { total &-= col[x - r - 1] }
                            body(row + x, total, xCounts[x] * rows)
                        }
                    }
                }
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
