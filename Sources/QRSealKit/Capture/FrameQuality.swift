/// What a frame measures that tells a person holding a camera what to change when nothing
/// is read: how bright it is, and how sharp (the mean step between neighbouring pixels,
/// which blur and motion flatten).
public struct FrameQuality: Sendable, Equatable {
    /// What to tell the user, most urgent first.
    public enum Guidance: String, Sendable {
        case moreLight = "more light"
        case holdStill = "hold still"
        case moveCloser = "move closer"
    }

    /// Mean luma, 0 to 255.
    public let brightness: Double
    /// How steep the frame's steepest edges are: the mean of the largest 1 % of steps between
    /// horizontally and vertically neighbouring pixels. Blur and motion spread every edge over
    /// several pixels and lower it, whatever else the frame holds.
    public let sharpness: Double

    /// Below this mean luma a frame is too dark for the binarizer's contrast.
    public static let darkBelow = 45.0
    /// Below this a frame is blurred: a black-on-white edge in focus steps by 100 and more from
    /// one pixel to the next; spread over 9 pixels and more (motion, or a Gaussian σ above
    /// 3.4 pixels, where codes of 3-pixel modules no longer read) by under 30.
    public static let blurredBelow = 30.0

    /// Measures every pixel of every third row (of every row in a small frame): cheap beside
    /// detection, and a step of rows that no grid of even modules lines up with.
    public init(_ image: GrayImage) {
        let rowStep = image.height >= 240 ? 3 : 1
        var sum = 0, count = 0
        var histogram = [Int](repeating: 0, count: 256)
        image.pixels.withUnsafeBufferPointer { p in
            var y = 0
            while y < image.height - 1 {
                var x = 0
                let row = y * image.width
                while x < image.width - 1 {
                    let v = Int(p[row + x])
                    sum += v
                    count += 1
                    histogram[abs(v - Int(p[row + x + 1]))] += 1
                    histogram[abs(v - Int(p[row + image.width + x]))] += 1
                    x += 1
                }
                y += rowStep
            }
        }
        brightness = count == 0 ? 0 : Double(sum) / Double(count)
        // The mean of the top 1 % of steps, from the top of the histogram down.
        var wanted = max(1, 2 * count / 100), taken = 0, total = 0
        for step in stride(from: 255, through: 0, by: -1) where wanted > 0 {
            let n = min(histogram[step], wanted)
            taken += n
            total += n * step
            wanted -= n
        }
        sharpness = taken == 0 ? 0 : Double(total) / Double(taken)
    }

    /// What would most help a read: light for a dark frame, stillness for a blurred one, and
    /// otherwise a closer look (the code is absent, too small, or cut off).
    public var guidance: Guidance {
        if brightness < Self.darkBelow { return .moreLight }
        if sharpness < Self.blurredBelow { return .holdStill }
        return .moveCloser
    }
}
