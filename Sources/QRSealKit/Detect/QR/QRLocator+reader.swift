/// Our own locator and rectifier (`QRLocator`) as a pass runs it: QR codes only, each
/// decoded by zxing-cpp from a clean rendering of the modules its grid samples; `wide` lets
/// finder patterns whose rings blur and thresholding have thinned count; `midrange` finds
/// the finder and alignment patterns on `Binarizer.midrange(_:)` instead of the binarized
/// copy every other reader shares (blurred codes at about 3 pixels a module, whose finders
/// a local mean loses at the code's corners).
struct QRLocatorSearch: SymbolReader {
    var wide = false
    var midrange = false

    var description: String { midrange ? "located(wide: \(wide), midrange)" : "located(wide: \(wide))" }

    func read(_ input: ReaderInput, symbologies: Set<Symbology>) -> [Candidate] {
        guard symbologies.contains(.qr) else { return [] }
        let slack = wide ? 0.75 : 0.5
        if midrange {
            // Its own pixels and census, which no other pass asks for; and none of the
            // triples the runs on the shared copy found fruitless, as its patterns differ.
            return QRLocator(image: input.image, slack: slack, dark: Binarizer.midrange(input.image),
                             failures: input.failures).read()
        }
        return QRLocator(image: input.image, slack: slack, dark: input.binarized(), census: input.census(slack),
                         fruitless: input.fruitless, failures: input.failures).read()
    }
}

extension SymbolReader where Self == QRLocatorSearch {
    /// Our own locator, `wide` for blurred finder patterns, on `Binarizer.midrange(_:)`'s
    /// pixels when `midrange`.
    static func located(wide: Bool, midrange: Bool = false) -> QRLocatorSearch {
        QRLocatorSearch(wide: wide, midrange: midrange)
    }
}
