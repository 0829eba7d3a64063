/// Our own Aztec reader (`AztecReader`) as a pass runs it: bull's-eyes, Aztec Runes, and
/// symbols whose dark modules print thick or thin, which libZXing 1.4 misses or misreads.
struct AztecSearch: SymbolReader {
    var description: String { "aztec" }

    func read(_ input: ReaderInput, symbologies: Set<Symbology>) -> [Candidate] {
        guard symbologies.contains(.aztec) else { return [] }
        return AztecReader(image: input.image, dark: input.binarized(), runs: input.runs()).read().map { read in
            var candidate = read.candidate
            candidate.isSoundlyChecked = read.symbol.isSoundlyChecked
            return candidate
        }
    }
}

extension SymbolReader where Self == AztecSearch {
    /// Our own Aztec reader.
    static var aztec: AztecSearch { AztecSearch() }
}
