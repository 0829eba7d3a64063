extension GrayImage {
    /// A copy `factor` times the size: area-averaged when shrinking, bilinear when growing.
    ///
    /// Returns nil when either side would fall below 1 pixel or the result would pass
    /// `maxPixels`. A point (x, y) of this image lands at (x·f, y·f) in the copy, where f is
    /// the actual ratio of the sides (`Double(copy.width) / Double(width)`).
    public func scaled(by factor: Double, maxPixels: Int = 64_000_000) -> GrayImage? {
        guard factor > 0, factor.isFinite, width > 0, height > 0 else { return nil }
        let w = Int((Double(width) * factor).rounded()), h = Int((Double(height) * factor).rounded())
        guard w >= 1, h >= 1, w <= maxPixels / h else { return nil }
        if w == width && h == height { return self }
        return factor < 1 ? areaAveraged(toWidth: w, height: h) : bilinear(toWidth: w, height: h)
    }

    /// A copy enlarged by a whole `factor`, each pixel becoming a factor × factor block.
    ///
    /// Unlike `scaled(by:)` this keeps edges hard, which suits rendered codes whose
    /// modules are one or two pixels wide.
    public func enlarged(by factor: Int) -> GrayImage? {
        guard factor >= 1, width > 0, height > 0 else { return nil }
        let w = width * factor, h = height * factor
        var out = [UInt8](repeating: 0, count: w * h)
        pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for y in 0..<h {
                    let srow = (y / factor) * width, drow = y * w
                    for x in 0..<w { dst[drow + x] = src[srow + x / factor] }
                }
            }
        }
        return GrayImage(width: w, height: h, pixels: out)
    }

    /// Shrinks by averaging every source pixel that falls in each target pixel (a box filter),
    /// which keeps thin dark lines visible where sampling would drop them.
    private func areaAveraged(toWidth w: Int, height h: Int) -> GrayImage {
        // Source column spans per target column, in fixed point: [x0, x1) for each x.
        let xStarts = (0...w).map { $0 * width / w }
        let yStarts = (0...h).map { $0 * height / h }
        var out = [UInt8](repeating: 0, count: w * h)
        var columnSums = [Int](repeating: 0, count: width)
        pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                columnSums.withUnsafeMutableBufferPointer { sums in
                    for y in 0..<h {
                        let y0 = yStarts[y], y1 = max(yStarts[y + 1], y0 + 1)
                        for x in 0..<width { sums[x] = 0 }
                        for sy in y0..<min(y1, height) {
                            let row = sy * width
                            for x in 0..<width { sums[x] += Int(src[row + x]) }
                        }
                        let rows = min(y1, height) - y0
                        for x in 0..<w {
                            let x0 = xStarts[x], x1 = min(max(xStarts[x + 1], x0 + 1), width)
                            var total = 0
                            for sx in x0..<x1 { total += sums[sx] }
                            let count = (x1 - x0) * rows
                            dst[y * w + x] = UInt8((total + count / 2) / count)
                        }
                    }
                }
            }
        }
        return GrayImage(width: w, height: h, pixels: out)
    }

    /// Enlarges by interpolating between the four nearest source pixels.
    private func bilinear(toWidth w: Int, height h: Int) -> GrayImage {
        // For each target column (row): the two source columns (rows) around it and the
        // weight of the second, in 1/256; pixel centres map to pixel centres.
        func taps(_ count: Int, _ source: Int) -> (first: [Int], second: [Int], weight: [Int]) {
            var first = [Int](), second = [Int](), weight = [Int]()
            for i in 0..<count {
                let pos = max(0, (Double(i) + 0.5) * Double(source) / Double(count) - 0.5)
                let i0 = min(Int(pos), source - 1)
                first.append(i0)
                second.append(min(i0 + 1, source - 1))
                weight.append(Int((pos - Double(i0)) * 256))
            }
            return (first, second, weight)
        }
        let xt = taps(w, width), yt = taps(h, height)
        var out = [UInt8](repeating: 0, count: w * h)
        pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                xt.first.withUnsafeBufferPointer { x0s in
                    xt.second.withUnsafeBufferPointer { x1s in
                        xt.weight.withUnsafeBufferPointer { fxs in
                            for y in 0..<h {
                                let r0 = yt.first[y] * width, r1 = yt.second[y] * width, fy = yt.weight[y]
                                for x in 0..<w {
                                    let x0 = x0s[x], x1 = x1s[x], fx = fxs[x]
                                    let top = Int(src[r0 + x0]) * (256 - fx) + Int(src[r0 + x1]) * fx
                                    let bottom = Int(src[r1 + x0]) * (256 - fx) + Int(src[r1 + x1]) * fx
                                    dst[y * w + x] = UInt8((top * (256 - fy) + bottom * fy + 32768) >> 16)
                                }
                            }
                        }
                    }
                }
            }
        }
        return GrayImage(width: w, height: h, pixels: out)
    }
}
