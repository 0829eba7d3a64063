/// Our own reader of EAN-13, UPC-A, EAN-8 and UPC-E from grey-level profiles
/// (`ProfileReader`) as a pass runs it: blurred and low-resolution photos that binarizing
/// loses; on the bar regions a gate found, when it found them.
struct ProfileSearch: SymbolReader {
    var description: String { "profiles" }

    func read(_ input: ReaderInput, symbologies: Set<Symbology>) -> [Candidate] {
        // The largest few, as when it finds them itself.
        ProfileReader(symbologies: symbologies).scan(input.image, regions: input.bars.map { Array($0.prefix(BarRegions.maxRegions)) })
    }
}

extension SymbolReader where Self == ProfileSearch {
    /// Our own grey-profile EAN/UPC reader.
    static var profiles: ProfileSearch { ProfileSearch() }
}
