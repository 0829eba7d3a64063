/// Where a pixel's centre lies in the coordinates a sampler is given.
enum PixelCentres {
    /// Pixel (i, j) covers the unit square from (i, j) to (i + 1, j + 1), its centre at
    /// (i + 0.5, j + 0.5): the corners and module grids our locators and the engines give.
    case halfway
    /// Pixel (i, j) is centred on the whole coordinates (i, j): the scan lines the
    /// grey-profile reader lays across bars.
    case whole
}

/// What a sampler gives for a point whose four surrounding pixel centres are not all on
/// the image.
enum OffImage {
    /// 255, paper: a grid reaching past the image reads light there.
    case paper
    /// The nearest edge pixels, continued: a profile running off the image levels out.
    case edge
}

extension GrayImage {
    /// The grey level at (`x`, `y`), interpolated bilinearly between the four pixels whose
    /// centres surround it; `centres` says where pixel centres lie, `outside` what a point
    /// gives where those four are not all on the image (for `paper`: from the first pixel
    /// centre, included, to the last, excluded, each way). The one sampler of our readers.
    @inline(__always)
    func bilinear(_ x: Double, _ y: Double, centres: PixelCentres, outside: OffImage) -> Double {
        var x = x, y = y
        if centres == .halfway {
            x -= 0.5
            y -= 0.5
        }
        switch outside {
        case .paper:
            guard x.isFinite, y.isFinite, x >= 0, y >= 0, x < Double(width - 1), y < Double(height - 1) else { return 255 }
        case .edge:
            x = min(max(x, 0), Double(width - 1))
            y = min(max(y, 0), Double(height - 1))
        }
        let x0 = Int(x), y0 = Int(y)
        let x1 = min(x0 + 1, width - 1), y1 = min(y0 + 1, height - 1)
        let fx = x - Double(x0), fy = y - Double(y0)
        return pixels.withUnsafeBufferPointer { p in
            let p00 = Double(p[y0 * width + x0]), p10 = Double(p[y0 * width + x1])
            let p01 = Double(p[y1 * width + x0]), p11 = Double(p[y1 * width + x1])
            return (p00 * (1 - fx) + p10 * fx) * (1 - fy) + (p01 * (1 - fx) + p11 * fx) * fy
        }
    }
}
