/// How the detector reports what it reads, beyond which symbologies: choices a user makes
/// about the text of a symbol, not about how hard to look.
public struct ReadingOptions: Sendable, Hashable {
    /// Whether a Code 39 whose characters form valid Full ASCII pairs (`+A` for `a`, `/A`
    /// for `!`, `%U` for NUL, …) is reported decoded, as zxing-cpp 3.1 reports it; off, the
    /// symbol's own characters are reported as they stand (`Code39FullASCII`).
    public var code39FullASCII = true
    /// Whether an EAN-2 or EAN-5 add-on beside an EAN-13, UPC-A, UPC-E or EAN-8 is read: a
    /// main code with an add-on is then reported with it, its digits following the main
    /// code's, and one without any alone (zxing-cpp's `EanAddOnSymbol::Read`, zbar's
    /// `ean2` and `ean5`). Off by default, as in zbar and zxing-cpp: an add-on is easily
    /// missed, and a main code read without it is still the main code.
    public var eanAddOns = false

    public init(code39FullASCII: Bool = true, eanAddOns: Bool = false) {
        self.code39FullASCII = code39FullASCII
        self.eanAddOns = eanAddOns
    }
}
