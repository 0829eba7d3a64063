extension GrayImage {
    /// The image turned and mirrored as `orientation` says, so that it looks upright.
    ///
    /// Orientations 5–8 swap width and height. `.up` returns the image unchanged.
    public func applying(_ orientation: ExifOrientation) -> GrayImage {
        let w = width, h = height
        guard orientation != .up, w > 0, h > 0 else { return self }
        let swapsAxes = orientation.rawValue >= 5
        let outWidth = swapsAxes ? h : w
        let outHeight = swapsAxes ? w : h

        // For each output pixel, the source pixel that lands there.
        let source: (Int, Int) -> (x: Int, y: Int)
        switch orientation {
        case .up:            source = { x, y in (x, y) }
        case .upMirrored:    source = { x, y in (w - 1 - x, y) }
        case .down:          source = { x, y in (w - 1 - x, h - 1 - y) }
        case .downMirrored:  source = { x, y in (x, h - 1 - y) }
        case .leftMirrored:  source = { x, y in (y, x) }
        case .right:         source = { x, y in (y, h - 1 - x) }
        case .rightMirrored: source = { x, y in (w - 1 - y, h - 1 - x) }
        case .left:          source = { x, y in (w - 1 - y, x) }
        }

        var out = [UInt8](repeating: 0, count: pixels.count)
        pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for y in 0..<outHeight {
                    let row = y * outWidth
                    for x in 0..<outWidth {
                        let (sx, sy) = source(x, y)
                        dst[row + x] = src[sy * w + sx]
                    }
                }
            }
        }
        return GrayImage(width: outWidth, height: outHeight, pixels: out)
    }
}
