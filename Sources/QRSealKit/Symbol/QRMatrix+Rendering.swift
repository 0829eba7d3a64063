/// Drawing a symbol as pixels, SVG or terminal text, always with a quiet zone.
extension QRMatrix {
    /// A raster with `scale` pixels per module and `margin` modules of quiet zone.
    public func image(scale: Int, margin: Int) -> GrayImage {
        precondition(scale >= 1 && margin >= 0, "scale must be ≥ 1 and margin ≥ 0")
        let side = (size + 2 * margin) * scale
        var image = GrayImage(width: side, height: side, filledWith: 255)
        image.pixels.withUnsafeMutableBufferPointer { pixels in
            for my in 0..<size {
                for mx in 0..<size where self[mx, my] {
                    let x0 = (mx + margin) * scale, y0 = (my + margin) * scale
                    for y in y0..<y0 + scale {
                        let row = y * side
                        for x in x0..<x0 + scale { pixels[row + x] = 0 }
                    }
                }
            }
        }
        return image
    }

    /// An SVG document: one path of dark module runs on a white background.
    public func svg(scale: Int, margin: Int) -> String {
        precondition(scale >= 1 && margin >= 0, "scale must be ≥ 1 and margin ≥ 0")
        let side = size + 2 * margin
        var path = ""
        for y in 0..<size {
            var x = 0
            while x < size {
                guard self[x, y] else { x += 1; continue }
                let start = x
                while x < size && self[x, y] { x += 1 }
                path += "M\(start + margin) \(y + margin)h\(x - start)v1h-\(x - start)z"
            }
        }
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="\(side * scale)" \
            height="\(side * scale)" viewBox="0 0 \(side) \(side)" shape-rendering="crispEdges">
            <rect width="\(side)" height="\(side)" fill="#fff"/>
            <path fill="#000" d="\(path)"/>
            </svg>

            """
    }

    /// Text for a terminal: two module rows per line in Unicode half blocks, `margin`
    /// modules of quiet zone on every side.
    ///
    /// Light modules are printed as blocks and dark ones as spaces, so that on the usual
    /// light-on-dark terminal the code appears dark-on-light, as scanners expect.
    public func terminalText(margin: Int) -> String {
        precondition(margin >= 0, "margin must be ≥ 0")
        let side = size + 2 * margin
        func light(_ x: Int, _ y: Int) -> Bool { !self[x - margin, y - margin] }
        var text = ""
        for y in stride(from: 0, to: side, by: 2) {
            for x in 0..<side {
                let top = light(x, y)
                let bottom = y + 1 < side ? light(x, y + 1) : false
                switch (top, bottom) {
                case (true, true): text += "█"
                case (true, false): text += "▀"
                case (false, true): text += "▄"
                case (false, false): text += " "
                }
            }
            text += "\n"
        }
        return text
    }
}
