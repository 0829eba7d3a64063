/// Our own locator and rectifier (`QRLocator`) as a pass runs it: QR codes only, each
/// decoded by zxing-cpp from a clean rendering of the modules its grid samples; `wide` lets
/// finder patterns whose rings blur and thresholding have thinned count.
struct QRLocatorSearch: SymbolReader {
    var wide = false

    var description: String { "located(wide: \(wide))" }

    func read(_ input: ReaderInput, symbologies: Set<Symbology>) -> [Candidate] {
        guard symbologies.contains(.qr) else { return [] }
        let slack = wide ? 0.75 : 0.5
        return QRLocator(image: input.image, slack: slack, dark: input.binarized(), census: input.census(slack),
                         fruitless: input.fruitless, failures: input.failures).read()
    }
}

extension SymbolReader where Self == QRLocatorSearch {
    /// Our own locator, `wide` for blurred finder patterns.
    static func located(wide: Bool) -> QRLocatorSearch { QRLocatorSearch(wide: wide) }
}
