import Foundation

/// A grayscale picture as plain bytes, row-major: what a scene is drawn from.
public struct Sprite: Sendable {
    public let width: Int
    public let height: Int
    public let pixels: [UInt8]

    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(pixels.count == width * height)
        self.width = width
        self.height = height
        self.pixels = pixels
    }
}

/// One sprite in a frame: its top-left corner and its size as a multiple of its own.
public struct Placement: Sendable {
    public var sprite: Sprite
    public var x: Int
    public var y: Int
    public var scale: Double

    public init(_ sprite: Sprite, x: Int, y: Int, scale: Double = 1) {
        self.sprite = sprite
        self.x = x
        self.y = y
        self.scale = scale
    }
}

/// Frames for the live-scanning tests and benchmark: symbols pasted on a plain background,
/// moved, scaled and sprinkled with noise, all deterministic; and YUV4MPEG2 streams of them,
/// written here independently of the reader under test.
public enum Scenes {
    /// A `width` × `height` luma frame with `placements` drawn in order (nearest-neighbour
    /// scaling) and, when `noise` > 0, every pixel moved by up to ±`noise` from a generator
    /// seeded with `seed`.
    public static func frame(width: Int, height: Int, background: UInt8 = 190, _ placements: [Placement],
                             noise: Int = 0, seed: UInt64 = 1) -> [UInt8] {
        var pixels = [UInt8](repeating: background, count: width * height)
        for p in placements {
            let w = Int((Double(p.sprite.width) * p.scale).rounded())
            let h = Int((Double(p.sprite.height) * p.scale).rounded())
            for dy in 0..<h {
                let y = p.y + dy
                guard y >= 0, y < height else { continue }
                let sy = min(p.sprite.height - 1, Int(Double(dy) / p.scale))
                for dx in 0..<w {
                    let x = p.x + dx
                    guard x >= 0, x < width else { continue }
                    let sx = min(p.sprite.width - 1, Int(Double(dx) / p.scale))
                    pixels[y * width + x] = p.sprite.pixels[sy * p.sprite.width + sx]
                }
            }
        }
        if noise > 0 {
            var state = seed &* 6364136223846793005 &+ 1442695040888963407
            for i in pixels.indices {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                let offset = Int((state >> 33) % UInt64(2 * noise + 1)) - noise
                pixels[i] = UInt8(clamping: Int(pixels[i]) + offset)
            }
        }
        return pixels
    }

    /// A YUV4MPEG2 stream of luma `frames`, with neutral chroma in `colorSpace`'s layout.
    public static func y4m(width: Int, height: Int, frames: [[UInt8]], colorSpace: String = "420jpeg",
                           rate: String = "30:1") -> Data {
        var data = Data(y4mHeader(width: width, height: height, colorSpace: colorSpace, rate: rate).utf8)
        for frame in frames { data += y4mFrame(frame, width: width, height: height, colorSpace: colorSpace) }
        return data
    }

    public static func y4mHeader(width: Int, height: Int, colorSpace: String = "420jpeg", rate: String = "30:1") -> String {
        "YUV4MPEG2 W\(width) H\(height) F\(rate) Ip A1:1 C\(colorSpace)\n"
    }

    /// One frame: `FRAME`, the luma, and 128s for the chroma planes.
    public static func y4mFrame(_ luma: [UInt8], width: Int, height: Int, colorSpace: String = "420jpeg") -> Data {
        precondition(luma.count == width * height)
        var data = Data("FRAME\n".utf8)
        data += luma
        data += Data(repeating: 128, count: chromaBytes(width: width, height: height, colorSpace: colorSpace))
        return data
    }

    public static func chromaBytes(width: Int, height: Int, colorSpace: String) -> Int {
        let cw = (width + 1) / 2, ch = (height + 1) / 2
        switch colorSpace {
        case "mono": return 0
        case "444": return 2 * width * height
        case "422": return 2 * cw * height
        default: return 2 * cw * ch
        }
    }
}
