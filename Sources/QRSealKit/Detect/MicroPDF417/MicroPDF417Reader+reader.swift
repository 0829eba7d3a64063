/// Our own MicroPDF417 reader (`MicroPDF417Reader`) as a pass runs it: neither zbar nor
/// libZXing 1.4 reads MicroPDF417.
struct MicroPDF417Search: SymbolReader {
    var description: String { "microPDF417" }

    func read(_ input: ReaderInput, symbologies: Set<Symbology>) -> [Candidate] {
        guard symbologies.contains(.microPDF417) else { return [] }
        return MicroPDF417Reader(image: input.image, dark: input.binarized(), runs: input.runs()).read().map(\.candidate)
    }
}

extension SymbolReader where Self == MicroPDF417Search {
    /// Our own MicroPDF417 reader.
    static var microPDF417: MicroPDF417Search { MicroPDF417Search() }
}
