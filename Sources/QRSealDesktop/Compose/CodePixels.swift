import QRSealKit

/// One code drawn for the screen or the clipboard: RGB pixels, quiet zone included, made on
/// a worker thread; the `Texture` is made from them on the main thread.
struct CodePixels: Sendable {
    let rgb: [UInt8]
    let side: Int

    /// The quiet zone, in modules, of every code the composer draws (as `qrseal encode`'s default).
    static let margin = 4

    /// `matrix` with `scale` pixels a module.
    init(_ matrix: QRMatrix, scale: Int) {
        let gray = matrix.image(scale: scale, margin: Self.margin)
        var rgb = [UInt8](repeating: 0, count: gray.pixels.count * 3)
        rgb.withUnsafeMutableBufferPointer { out in
            gray.pixels.withUnsafeBufferPointer { pixels in
                for i in 0..<pixels.count {
                    let v = pixels[i]
                    out[3 * i] = v
                    out[3 * i + 1] = v
                    out[3 * i + 2] = v
                }
            }
        }
        self.rgb = rgb
        side = gray.width
    }

    /// `matrix` with the whole number of pixels a module that brings it nearest `side` pixels
    /// without passing it (at least one).
    init(_ matrix: QRMatrix, near side: Int) {
        self.init(matrix, scale: max(1, side / (matrix.size + 2 * Self.margin)))
    }

    /// The pixels of every code of `message`, as large as `side` while all of them stay within
    /// `budget` bytes (a message of many parts is previewed smaller).
    static func all(_ message: EncodedMessage, near side: Int, budget: Int = 48 << 20) -> [CodePixels] {
        let count = max(1, message.symbols.count)
        let fitting = Int((Double(budget / count) / 3).squareRoot())
        return message.symbols.map { CodePixels($0.matrix, near: min(side, fitting)) }
    }

    func texture() -> Texture { Texture(rgb: rgb, width: side, height: side) }
}
