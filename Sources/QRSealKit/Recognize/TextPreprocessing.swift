extension GrayImage {
    /// The image with its paper made evenly white: each pixel divided by the light around it,
    /// the lightest value within about 24 pixels (estimated on a smaller copy), so that a
    /// shadow or a light falling off across the page does not hide the text in it from
    /// Tesseract's single threshold. An evenly lit page comes back unchanged.
    func evenedLight() -> GrayImage {
        var small = self, step = 1
        while step < 4, let half = small.halved() { small = half; step *= 2 }
        let background = small.morphed(radius: 24 / step, keepDarkest: false).boxBlurred(radius: 12 / step)
        // Paper already white everywhere: nothing to even out.
        guard let darkest = background.pixels.min(), darkest < 235 else { return self }
        let qw = background.width, qh = background.height, w = width
        // Without bounds checks: a camera frame's every pixel goes through here.
        let out = [UInt8](unsafeUninitializedCapacity: pixels.count) { dst, count in
            pixels.withUnsafeBufferPointer { src in
                background.pixels.withUnsafeBufferPointer { light in
                    for y in 0..<height {
                        let row = min(y / step, qh - 1) * qw, base = y * w
                        for x in 0..<w {
                            let l = max(Int(light[row + min(x / step, qw - 1)]), 1)
                            dst[base + x] = UInt8(truncatingIfNeeded: min(255, Int(src[base + x]) * 255 / l))
                        }
                    }
                }
            }
            count = pixels.count
        }
        return GrayImage(width: width, height: height, pixels: out)
    }
}
