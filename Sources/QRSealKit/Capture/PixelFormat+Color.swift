extension PixelFormat {
    /// A captured frame's luma and its colour (for a preview). The raw YUV formats give their
    /// chroma planes as they are; a JPEG frame is decoded once, to RGB, and split into luma
    /// and full-size chroma (BT.601 full range, as `Frame.rgb` joins them again).
    func lumaAndChroma(_ data: UnsafeRawBufferPointer, width: Int, height: Int,
                       bytesPerLine: Int) throws(CaptureError) -> (GrayImage, Frame.Chroma?) {
        switch self {
        case .grey:
            return (try luma(data, width: width, height: height, bytesPerLine: bytesPerLine), nil)
        case .mjpeg, .jpeg:
            let rgb: RGBImage
            do {
                rgb = try ImageDecoder(maxPixels: max(width * height, 1) * 4).decodeColor(Array(data))
            } catch {
                throw .badFrame(reason: error.description)
            }
            return Self.split(rgb)
        case .yuyv, .uyvy, .nv12, .nv21, .yu12, .yv12:
            let image = try luma(data, width: width, height: height, bytesPerLine: bytesPerLine)
            return (image, chroma(data, width: width, height: height, bytesPerLine: bytesPerLine))
        }
    }

    /// The chroma planes of a raw YUV frame whose luma was read (so its first plane is whole);
    /// nil when the buffer is too short to hold them, which leaves the preview gray.
    private func chroma(_ data: UnsafeRawBufferPointer, width: Int, height: Int, bytesPerLine: Int) -> Frame.Chroma? {
        let bytes = data.bindMemory(to: UInt8.self)
        let halfWidth = (width + 1) / 2, halfHeight = (height + 1) / 2
        switch self {
        case .yuyv, .uyvy:
            // Each pair of pixels shares one U and one V: half the width, every row.
            let stride = max(bytesPerLine, width * 2)
            guard width >= 2, bytes.count >= stride * (height - 1) + (width / 2) * 4 else { return nil }
            let (u, v) = self == .yuyv ? (1, 3) : (0, 2)
            let pairs = width / 2
            var cb = [UInt8](repeating: 128, count: pairs * height), cr = cb
            for y in 0..<height {
                for x in 0..<pairs {
                    cb[y * pairs + x] = bytes[y * stride + 4 * x + u]
                    cr[y * pairs + x] = bytes[y * stride + 4 * x + v]
                }
            }
            return Frame.Chroma(width: pairs, height: height, cb: cb, cr: cr)
        case .nv12, .nv21:
            // A plane of interleaved chroma pairs after the luma, with the luma's stride.
            let stride = max(bytesPerLine, width), start = stride * height
            guard bytes.count >= start + stride * (halfHeight - 1) + halfWidth * 2 else { return nil }
            let (u, v) = self == .nv12 ? (0, 1) : (1, 0)
            var cb = [UInt8](repeating: 128, count: halfWidth * halfHeight), cr = cb
            for y in 0..<halfHeight {
                for x in 0..<halfWidth {
                    cb[y * halfWidth + x] = bytes[start + y * stride + 2 * x + u]
                    cr[y * halfWidth + x] = bytes[start + y * stride + 2 * x + v]
                }
            }
            return Frame.Chroma(width: halfWidth, height: halfHeight, cb: cb, cr: cr)
        case .yu12, .yv12:
            // Two planes of half the stride: U then V (YU12) or V then U (YV12).
            let stride = max(bytesPerLine, width), half = max(stride / 2, halfWidth)
            let first = stride * height, second = first + half * halfHeight
            guard bytes.count >= second + half * (halfHeight - 1) + halfWidth else { return nil }
            let (uStart, vStart) = self == .yu12 ? (first, second) : (second, first)
            var cb = [UInt8](repeating: 128, count: halfWidth * halfHeight), cr = cb
            for y in 0..<halfHeight {
                for x in 0..<halfWidth {
                    cb[y * halfWidth + x] = bytes[uStart + y * half + x]
                    cr[y * halfWidth + x] = bytes[vStart + y * half + x]
                }
            }
            return Frame.Chroma(width: halfWidth, height: halfHeight, cb: cb, cr: cr)
        case .grey, .mjpeg, .jpeg:
            return nil
        }
    }

    /// Luma and full-size chroma of RGB pixels (BT.601 full range).
    static func split(_ rgb: RGBImage) -> (GrayImage, Frame.Chroma) {
        let count = rgb.width * rgb.height
        var y = [UInt8](repeating: 0, count: count), cb = y, cr = y
        rgb.samples.withUnsafeBufferPointer { p in
            for i in 0..<count {
                let r = Int(p[3 * i]), g = Int(p[3 * i + 1]), b = Int(p[3 * i + 2])
                y[i] = UInt8((299 * r + 587 * g + 114 * b + 500) / 1000)
                cb[i] = UInt8(clamping: 128 + (-169 * r - 331 * g + 500 * b) / 1000)
                cr[i] = UInt8(clamping: 128 + (500 * r - 419 * g - 81 * b) / 1000)
            }
        }
        return (GrayImage(width: rgb.width, height: rgb.height, pixels: y),
                Frame.Chroma(width: rgb.width, height: rgb.height, cb: cb, cr: cr))
    }
}
