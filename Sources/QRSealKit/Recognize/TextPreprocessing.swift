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
        var out = pixels
        let qw = background.width, qh = background.height
        for y in 0..<height {
            let row = min(y / step, qh - 1) * qw
            for x in 0..<width {
                let light = max(Int(background.pixels[row + min(x / step, qw - 1)]), 1)
                out[y * width + x] = UInt8(min(255, Int(pixels[y * width + x]) * 255 / light))
            }
        }
        return GrayImage(width: width, height: height, pixels: out)
    }
}
