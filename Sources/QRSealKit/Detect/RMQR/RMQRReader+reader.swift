/// Our own rMQR reader (`RMQRReader`) as a pass runs it: no engine linked reads rMQR.
struct RMQRSearch: SymbolReader {
    var description: String { "rmqr" }

    func read(_ input: ReaderInput, symbologies: Set<Symbology>) -> [Candidate] {
        guard symbologies.contains(.rmqr), let census = input.census(0.5) else { return [] }
        return RMQRReader(image: input.image, dark: input.binarized(), census: census).read(skipping: input.isInsideRead).map { found in
            Candidate(symbology: .rmqr, bytes: found.symbol.bytes, corners: found.corners, version: found.symbol.version,
                      errorCorrection: found.symbol.level, isSoundlyChecked: found.symbol.isSoundlyChecked)
        }
    }
}

extension SymbolReader where Self == RMQRSearch {
    /// Our own rMQR reader.
    static var rmqr: RMQRSearch { RMQRSearch() }
}
