/// A frame's colours for display, at the size they are shown: 4 bytes a pixel in the order
/// B, G, R, A with A = 255 (cairo's and GDK's native layout of an opaque pixel, so that a
/// toolkit draws it without converting). Colour comes through the BT.601 full-range
/// conversion (JPEG's, which cameras and ffmpeg's yuvj formats use); a frame without chroma
/// is gray.
///
/// Luma is sampled bilinearly (text stays legible when shrunk); chroma, which a camera gives
/// at half resolution or less, at the nearest sample. At the frame's own size every pixel is
/// its own sample.
public struct FramePicture: Sendable {
    public let width: Int, height: Int
    public let bgra: [UInt8]
}

extension Frame {
    /// The frame fitted inside `box` (pixels; its shape kept, never enlarged), or at its own
    /// size when `box` is nil.
    public func picture(fitting box: (width: Int, height: Int)? = nil) -> FramePicture {
        let (fw, fh) = (image.width, image.height)
        var scale = 1.0
        if let box, box.width > 0, box.height > 0 {
            scale = min(1, Double(box.width) / Double(fw), Double(box.height) / Double(fh))
        }
        let w = max(1, Int((Double(fw) * scale).rounded())), h = max(1, Int((Double(fh) * scale).rounded()))
        let columns = Self.taps(count: w, source: fw), rows = Self.taps(count: h, source: fh)
        let chroma = self.chroma.flatMap { $0.width > 0 && $0.height > 0 ? $0 : nil }
        let pixels = [UInt8](unsafeUninitializedCapacity: w * h * 4) { out, written in
            image.pixels.withUnsafeBufferPointer { luma in
                let cb = chroma?.cb ?? [], cr = chroma?.cr ?? []
                let cw = chroma?.width ?? 1, ch = chroma?.height ?? 1
                let sx = (fw + cw - 1) / cw, sy = (fh + ch - 1) / ch
                cb.withUnsafeBufferPointer { cb in
                    cr.withUnsafeBufferPointer { cr in
                        for y in 0..<h {
                            let (y0, wy) = rows[y]
                            let row0 = y0 * fw, row1 = min(y0 + 1, fh - 1) * fw
                            let crow = min(y0 / sy, ch - 1) * cw
                            var o = y * w * 4
                            for x in 0..<w {
                                let (x0, wx) = columns[x]
                                let x1 = min(x0 + 1, fw - 1)
                                let top = Int(luma[row0 + x0]) * (256 - wx) + Int(luma[row0 + x1]) * wx
                                let bottom = Int(luma[row1 + x0]) * (256 - wx) + Int(luma[row1 + x1]) * wx
                                let l = (top * (256 - wy) + bottom * wy + 32768) >> 16
                                if chroma == nil {
                                    let v = UInt8(truncatingIfNeeded: l)
                                    out[o] = v; out[o + 1] = v; out[o + 2] = v
                                } else {
                                    let c = crow + min(x0 / sx, cw - 1)
                                    let l10 = l << 10, u = Int(cb[c]) - 128, v = Int(cr[c]) - 128
                                    // 1.402, 0.344, 0.714 and 1.772 in 10-bit fixed point.
                                    out[o] = UInt8(clamping: (l10 + 1815 * u) >> 10)
                                    out[o + 1] = UInt8(clamping: (l10 - 352 * u - 731 * v) >> 10)
                                    out[o + 2] = UInt8(clamping: (l10 + 1436 * v) >> 10)
                                }
                                out[o + 3] = 255
                                o += 4
                            }
                        }
                    }
                }
            }
            written = w * h * 4
        }
        return FramePicture(width: w, height: h, bgra: pixels)
    }

    /// The frame as RGB bytes (3 a pixel) at its own size.
    public func rgb() -> [UInt8] {
        let bgra = picture().bgra
        var rgb = [UInt8](repeating: 0, count: bgra.count / 4 * 3)
        for i in 0..<bgra.count / 4 {
            rgb[3 * i] = bgra[4 * i + 2]; rgb[3 * i + 1] = bgra[4 * i + 1]; rgb[3 * i + 2] = bgra[4 * i]
        }
        return rgb
    }

    /// For each of `count` output samples, the source sample before it and the weight of the
    /// one after (0–256): pixel centres mapped onto pixel centres.
    private static func taps(count: Int, source: Int) -> [(Int, Int)] {
        let step = Double(source) / Double(count)
        return (0..<count).map { i in
            let s = max(0, (Double(i) + 0.5) * step - 0.5)
            let s0 = min(Int(s), source - 1)
            return (s0, Int(((s - Double(s0)) * 256).rounded()))
        }
    }
}
