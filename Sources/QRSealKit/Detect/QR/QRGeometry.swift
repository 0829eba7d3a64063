/// Reads a QR code's version and error-correction level from the image itself, given its
/// four corners, for engines that do not report them (zbar reports neither, zxing-cpp 1.4
/// only the level).
///
/// For each version, the grid of 17 + 4·version modules is laid over the corners (a
/// perspective mapping) and the two timing patterns are sampled; the version whose timing
/// patterns alternate is checked against both copies of the format information and, from
/// version 7, the version information, each a BCH code that detects a wrong grid. Anything
/// short of that gives nil, never a guess.
enum QRGeometry {
    /// The version and level of the QR code with `corners` (top-left, top-right,
    /// bottom-right, bottom-left as read) in `image`, or nil when they cannot be confirmed.
    static func read(_ image: GrayImage, corners: [Point]) -> (version: Int, level: ErrorCorrection)? {
        guard corners.count == 4, image.width > 0, image.height > 0 else { return nil }
        var best: (version: Int, score: Double)?
        for version in 1...40 {
            let grid = Grid(image: image, corners: corners, size: 17 + 4 * version)
            let score = grid.timingScore()
            if score > (best?.score ?? 0.9) { best = (version, score) }
        }
        guard let version = best?.version else { return nil }
        let grid = Grid(image: image, corners: corners, size: 17 + 4 * version)
        guard let format = grid.formatData(), version < 7 || grid.versionNumber() == version else { return nil }
        // The level's two bits: 01 L, 00 M, 11 Q, 10 H.
        let level: [ErrorCorrection] = [.medium, .low, .high, .quartile]
        return (version, level[format >> 3])
    }

    /// A grid of modules laid over the image through a perspective mapping of its corners.
    struct Grid {
        let image: GrayImage
        let size: Int
        /// The mapping from the unit square to the image.
        let mapping: Homography
        /// Between the finder patterns' dark and light gray; negative when they barely differ.
        var threshold = 0.0

        init(image: GrayImage, corners p: [Point], size: Int) {
            self.image = image
            self.size = size
            mapping = Homography(squareTo: p)
            // Midway between the finder's dark core and its light ring.
            let dark = (value(3, 3) + value(size - 4, 3) + value(3, size - 4)) / 3
            let light = (value(1, 3) + value(size - 2, 3) + value(1, size - 4)) / 3
            threshold = (dark + light) / 2
            if light - dark < 20 { threshold = -1 }
        }

        /// The gray value at the centre of module (column, row), bilinearly sampled.
        func value(_ column: Int, _ row: Int) -> Double {
            let u = (Double(column) + 0.5) / Double(size), v = (Double(row) + 0.5) / Double(size)
            let p = mapping.apply(u, v)
            return image.bilinear(p.x, p.y, centres: .halfway, outside: .paper)
        }

        func isDark(_ column: Int, _ row: Int) -> Bool { value(column, row) < threshold }

        /// The share of timing-pattern modules (row 6 and column 6 between the finders)
        /// that alternate dark and light as they must, starting dark; 0 as soon as more
        /// than a tenth are wrong, which is where the wrong sizes stop.
        func timingScore() -> Double {
            guard threshold > 0 else { return 0 }
            let total = 2 * (size - 16)
            var wrong = 0
            for i in 8..<(size - 8) {
                let dark = i % 2 == 0
                if isDark(i, 6) != dark { wrong += 1 }
                if isDark(6, i) != dark { wrong += 1 }
                if wrong * 10 > total { return 0 }
            }
            return Double(total - wrong) / Double(total)
        }

        /// The five data bits of the format information, when both copies decode to the
        /// same value within three bit errors.
        func formatData() -> Int? {
            var first = 0, second = 0
            func bit(_ column: Int, _ row: Int, into bits: inout Int) { bits = bits << 1 | (isDark(column, row) ? 1 : 0) }
            for i in 0..<6 { bit(i, 8, into: &first) }
            bit(7, 8, into: &first); bit(8, 8, into: &first); bit(8, 7, into: &first)
            for j in stride(from: 5, through: 0, by: -1) { bit(8, j, into: &first) }
            for j in stride(from: size - 1, through: size - 7, by: -1) { bit(8, j, into: &second) }
            for i in (size - 8)..<size { bit(i, 8, into: &second) }
            guard let one = Self.nearest(first, in: formatCodes, maxErrors: 3),
                  let two = Self.nearest(second, in: formatCodes, maxErrors: 3), one == two else { return nil }
            return one
        }

        /// The version the version information (top right, 3 × 6 modules) names, within
        /// three bit errors.
        func versionNumber() -> Int? {
            var bits = 0
            for j in stride(from: 5, through: 0, by: -1) {
                for i in stride(from: size - 9, through: size - 11, by: -1) { bits = bits << 1 | (isDark(i, j) ? 1 : 0) }
            }
            return Self.nearest(bits, in: versionCodes, maxErrors: 3)
        }

        /// The index of the codeword nearest to `bits` when it differs in at most `maxErrors` bits.
        static func nearest(_ bits: Int, in codes: [Int: Int], maxErrors: Int) -> Int? {
            var best: (value: Int, distance: Int)?
            for (value, code) in codes {
                let distance = (bits ^ code).nonzeroBitCount
                if distance < (best?.distance ?? maxErrors + 1) { best = (value, distance) }
            }
            return best?.value
        }
    }

    /// The 32 format codewords by their five data bits: BCH(15,5), generator 0x537, masked
    /// with 0x5412 (ISO/IEC 18004 Annex C).
    static let formatCodes: [Int: Int] = Dictionary(uniqueKeysWithValues: (0..<32).map { data in
        (data, (data << 10 | bchRemainder(data << 10, generator: 0x537, degree: 10)) ^ 0x5412)
    })

    /// The version codewords of versions 7 to 40: BCH(18,6), generator 0x1F25 (Annex D).
    static let versionCodes: [Int: Int] = Dictionary(uniqueKeysWithValues: (7...40).map { version in
        (version, version << 12 | bchRemainder(version << 12, generator: 0x1F25, degree: 12))
    })

    /// The remainder of polynomial division of `value` by `generator` over GF(2).
    static func bchRemainder(_ value: Int, generator: Int, degree: Int) -> Int {
        var r = value
        var shift = (Int.bitWidth - r.leadingZeroBitCount) - (degree + 1)
        while shift >= 0 {
            if r & (1 << (shift + degree)) != 0 { r ^= generator << shift }
            shift -= 1
        }
        return r
    }
}
