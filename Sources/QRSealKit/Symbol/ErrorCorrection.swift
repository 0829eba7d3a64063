/// The four QR error-correction levels (`QR_ECLEVEL_L` … `QR_ECLEVEL_H` in libqrencode).
public enum ErrorCorrection: String, CaseIterable, Sendable, Comparable {
    /// About 7 % of codewords can be restored.
    case low = "L"
    /// About 15 % of codewords can be restored; the default.
    case medium = "M"
    /// About 25 % of codewords can be restored.
    case quartile = "Q"
    /// About 30 % of codewords can be restored.
    case high = "H"

    /// The level named by its letter, `L`, `M`, `Q` or `H` (either case).
    public init?(letter: String) {
        self.init(rawValue: letter.uppercased())
    }

    public static func < (a: ErrorCorrection, b: ErrorCorrection) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}
