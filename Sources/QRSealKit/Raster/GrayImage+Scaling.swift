extension GrayImage {
    /// A copy at half the width and height, each pixel the mean of a 2×2 block;
    /// nil when the image is too small to halve usefully.
    public func halved() -> GrayImage? {
        let w = width / 2, h = height / 2
        guard w >= 64, h >= 64 else { return nil }
        var out = [UInt8](repeating: 0, count: w * h)
        pixels.withUnsafeBufferPointer { src in
            for y in 0..<h {
                let r0 = 2 * y * width, r1 = r0 + width
                for x in 0..<w {
                    let sum = Int(src[r0 + 2 * x]) + Int(src[r0 + 2 * x + 1])
                        + Int(src[r1 + 2 * x]) + Int(src[r1 + 2 * x + 1])
                    out[y * w + x] = UInt8((sum + 2) / 4)
                }
            }
        }
        return GrayImage(width: w, height: h, pixels: out)
    }
}
