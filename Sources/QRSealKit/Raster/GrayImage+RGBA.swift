extension GrayImage {
    /// The luma of 8-bit RGBA pixels (a pasted picture, a toolkit's texture), with the ITU-R
    /// BT.601 weights as the decoders use; alpha is ignored.
    public init(rgba: [UInt8], width: Int, height: Int) {
        precondition(width > 0 && height > 0 && rgba.count == width * height * 4, "RGBA pixels do not fill \(width)x\(height)")
        let pixels = [UInt8](unsafeUninitializedCapacity: width * height) { gray, count in
            rgba.withUnsafeBufferPointer { p in
                for i in 0..<(width * height) {
                    let r = Int(p[4 * i]), g = Int(p[4 * i + 1]), b = Int(p[4 * i + 2])
                    gray[i] = luma(r, g, b)
                }
            }
            count = width * height
        }
        self.init(width: width, height: height, pixels: pixels)
    }
}

/// The BT.601 luma of an 8-bit colour, rounded, as every decoder reduces colour to gray.
@inline(__always)
func luma(_ r: Int, _ g: Int, _ b: Int) -> UInt8 {
    UInt8((299 * r + 587 * g + 114 * b + 500) / 1000)
}

extension GrayImage {
    /// The luma of 8-bit RGBA pixels (not premultiplied) composited onto white, as transparent
    /// parts of a file are shown.
    init(overWhite rgba: [UInt8], width: Int, height: Int) {
        let pixels = [UInt8](unsafeUninitializedCapacity: width * height) { gray, count in
            rgba.withUnsafeBufferPointer { p in
                for i in 0..<(width * height) {
                    let y = Int(luma(Int(p[4 * i]), Int(p[4 * i + 1]), Int(p[4 * i + 2]))), a = Int(p[4 * i + 3])
                    gray[i] = UInt8((y * a + 255 * (255 - a) + 127) / 255)
                }
            }
            count = width * height
        }
        self.init(width: width, height: height, pixels: pixels)
    }
}
