/// Our own Data Matrix reader (`DataMatrixReader`) as a pass runs it: distorted symbols and
/// several in one image, which libZXing 1.4 misses.
struct DataMatrixSearch: SymbolReader {
    var description: String { "dataMatrix" }

    func read(_ input: ReaderInput, symbologies: Set<Symbology>) -> [Candidate] {
        guard symbologies.contains(.dataMatrix) else { return [] }
        return DataMatrixReader(image: input.image, dark: input.binarized(), runs: input.runs()).read().map(\.candidate)
    }
}

extension SymbolReader where Self == DataMatrixSearch {
    /// Our own Data Matrix reader.
    static var dataMatrix: DataMatrixSearch { DataMatrixSearch() }
}
