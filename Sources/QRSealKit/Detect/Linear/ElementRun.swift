/// The bars and spaces of one grey-level profile, measured where it crosses a threshold:
/// what the readers of `WidthReader` decode.
struct ElementRun {
    /// Element k lies from `edges[k]` to `edges[k + 1]` (samples of the profile); the first
    /// and the last run to the profile's ends, so that they are only parts of elements.
    let edges: [Double]
    /// The index of the first dark element, 0 or 1.
    let firstDark: Int
    /// The samples of the profile.
    let length: Int

    /// The elements' widths, in samples.
    var widths: [Double] { zip(edges.dropFirst(), edges).map { $0 - $1 } }

    /// Whether element `k` is dark.
    func isDark(_ k: Int) -> Bool { (k - firstDark) % 2 == 0 }

    /// The elements of `smooth` (light high) split at `threshold`.
    init(_ smooth: [Double], threshold: Double) {
        length = smooth.count
        edges = [0] + ProfileDecoder.crossings(smooth, at: threshold) + [Double(max(0, smooth.count - 1))]
        firstDark = (smooth.first ?? 0) < threshold ? 0 : 1
    }

    init(edges: [Double], firstDark: Int, length: Int) {
        self.edges = edges
        self.firstDark = firstDark
        self.length = length
    }

    /// The same elements read from the other end, in samples counted from that end.
    var reversed: ElementRun {
        let last = Double(max(0, length - 1))
        let count = edges.count - 1
        // The first element reversed is the last one; dark when the last one is.
        let lastDark = count > 0 && isDark(count - 1)
        return ElementRun(edges: edges.reversed().map { last - $0 }, firstDark: lastDark ? 0 : 1, length: length)
    }

    /// A position of the reversed run as a position of this one (and back).
    func unreversed(_ position: Double) -> Double { Double(max(0, length - 1)) - position }

    /// The runs of a band's profile at the thresholds `WidthReader` tries, as fractions of
    /// the way from its dark level to its light (`ProfileDecoder.levels`): halfway on the
    /// grey levels as they are (bars a pixel or two wide), then halfway and either side of
    /// it on the smoothed levels (noise); nil when the profile shows too little contrast to
    /// be bars.
    static func runs(_ profile: [Double], span: ClosedRange<Double>) -> [ElementRun]? {
        guard profile.count >= 16, let levels = ProfileDecoder.levels(profile, span: span),
              levels.light.count == profile.count else { return nil }
        // The grey levels as they are, divided by the same light level as the smoothed ones.
        let sharp = zip(profile, levels.light).map { $0 / $1 }
        func dark(_ levels: [Double]) -> Double { levels.sorted()[levels.count / 20] }
        let sharpDark = dark(sharp), smoothDark = dark(levels.smooth)
        return [ElementRun(sharp, threshold: sharpDark + 0.5 * (1 - sharpDark))]
            + [0.5, 0.65, 0.35].map { ElementRun(levels.smooth, threshold: smoothDark + $0 * (1 - smoothDark)) }
    }
}
