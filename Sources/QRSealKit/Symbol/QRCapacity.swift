/// How many bits of data one QR symbol holds, by version and error-correction level.
public enum QRCapacity {
    /// The smallest and largest QR versions.
    public static let versions = 1...40

    /// Data codewords (bytes) per version 1...40, from ISO/IEC 18004 table 7;
    /// a test checks every entry against libqrencode.
    static let dataCodewords: [ErrorCorrection: [Int]] = [
        .low: [19, 34, 55, 80, 108, 136, 156, 194, 232, 274, 324, 370, 428, 461, 523, 589, 647,
               721, 795, 861, 932, 1006, 1094, 1174, 1276, 1370, 1468, 1531, 1631, 1735, 1843,
               1955, 2071, 2191, 2306, 2434, 2566, 2702, 2812, 2956],
        .medium: [16, 28, 44, 64, 86, 108, 124, 154, 182, 216, 254, 290, 334, 365, 415, 453, 507,
                  563, 627, 669, 714, 782, 860, 914, 1000, 1062, 1128, 1193, 1267, 1373, 1455,
                  1541, 1631, 1725, 1812, 1914, 1992, 2102, 2216, 2334],
        .quartile: [13, 22, 34, 48, 62, 76, 88, 110, 132, 154, 180, 206, 244, 261, 295, 325, 367,
                    397, 445, 485, 512, 568, 614, 664, 718, 754, 808, 871, 911, 985, 1033, 1115,
                    1171, 1231, 1286, 1354, 1426, 1502, 1582, 1666],
        .high: [9, 16, 26, 36, 46, 60, 66, 86, 100, 122, 140, 158, 180, 197, 223, 253, 283, 313,
                341, 385, 406, 442, 464, 514, 538, 596, 628, 661, 701, 745, 793, 845, 901, 961,
                986, 1054, 1096, 1142, 1222, 1276],
    ]

    /// The number of data bits a symbol of `version` holds at `level`.
    public static func dataBits(version: Int, level: ErrorCorrection) -> Int {
        precondition(versions.contains(version), "QR version \(version) out of range")
        return dataCodewords[level]![version - 1] * 8
    }

    /// The most bytes of arbitrary data (one byte-mode segment) a symbol of `version` holds.
    public static func byteCapacity(version: Int, level: ErrorCorrection) -> Int {
        let header = 4 + Segment.Mode.byte.countBits(version: version)
        return (dataBits(version: version, level: level) - header) / 8
    }

    /// The most characters of `mode` (one segment) a symbol of `version` holds at `level`.
    public static func characters(_ mode: Segment.Mode, version: Int, level: ErrorCorrection) -> Int {
        let room = dataBits(version: version, level: level) - 4 - mode.countBits(version: version)
        var n = room * 3 / 10 + 2
        while n > 0 && mode.payloadBits(count: n) > room { n -= 1 }
        return n
    }

    /// The most input bytes any symbol holds at `level`, in any mode: the digits of version 40
    /// (7,089 at L). Longer input cannot fit and is refused without being planned.
    public static func mostBytes(level: ErrorCorrection) -> Int {
        characters(.numeric, version: versions.upperBound, level: level)
    }
}
