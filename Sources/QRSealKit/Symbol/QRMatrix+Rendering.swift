/// Drawing a symbol as pixels, SVG or terminal text, always with a quiet zone. `invert`
/// swaps dark and light: a light code on a dark ground.
extension QRMatrix {
    /// A raster with `scale` pixels per module and `margin` modules of quiet zone.
    public func image(scale: Int, margin: Int, invert: Bool = false) -> GrayImage {
        precondition(scale >= 1 && margin >= 0, "scale must be ≥ 1 and margin ≥ 0")
        let side = (size + 2 * margin) * scale
        let (light, dark): (UInt8, UInt8) = invert ? (0, 255) : (255, 0)
        var image = GrayImage(width: side, height: side, filledWith: light)
        image.pixels.withUnsafeMutableBufferPointer { pixels in
            for my in 0..<size {
                for mx in 0..<size where self[mx, my] {
                    let x0 = (mx + margin) * scale, y0 = (my + margin) * scale
                    for y in y0..<y0 + scale {
                        let row = y * side
                        for x in x0..<x0 + scale { pixels[row + x] = dark }
                    }
                }
            }
        }
        return image
    }

    /// An SVG document: one path of dark module runs on a white background (white runs on
    /// black when inverted).
    public func svg(scale: Int, margin: Int, invert: Bool = false) -> String {
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
            <rect width="\(side)" height="\(side)" fill="\(invert ? "#000" : "#fff")"/>
            <path fill="\(invert ? "#fff" : "#000")" d="\(path)"/>
            </svg>

            """
    }

    /// Text for a terminal: two module rows per line in Unicode half blocks, `margin`
    /// modules of quiet zone on every side.
    ///
    /// Light modules are printed as blocks and dark ones as spaces, so that on the usual
    /// light-on-dark terminal the code appears dark-on-light, as scanners expect; `invert`
    /// prints dark modules as blocks instead, for dark-on-light terminals.
    public func terminalText(margin: Int, invert: Bool = false) -> String {
        precondition(margin >= 0, "margin must be ≥ 0")
        let side = size + 2 * margin
        func light(_ x: Int, _ y: Int) -> Bool { self[x - margin, y - margin] == invert }
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

    /// Text for a terminal in explicit colours, as `qrencode -t ANSI` writes it: each module
    /// two spaces wide on a black or bright white background (SGR 40 and 107), one line per
    /// module row, so that it scans whatever the terminal's own colours; `invert` swaps them.
    public func ansiText(margin: Int, invert: Bool = false) -> String {
        precondition(margin >= 0, "margin must be ≥ 0")
        let side = size + 2 * margin
        var text = ""
        for y in 0..<side {
            var current: Bool?
            for x in 0..<side {
                let dark = self[x - margin, y - margin] != invert
                if dark != current { text += dark ? Self.ansiBlack : Self.ansiWhite }
                current = dark
                text += "  "
            }
            text += Self.ansiReset + "\n"
        }
        return text
    }

    /// SGR background colours: black, bright white, and back to the terminal's own.
    public static let ansiBlack = "\u{1B}[40m", ansiWhite = "\u{1B}[107m", ansiReset = "\u{1B}[0m"
}
