/// Our own MicroPDF417 reader (`MicroPDF417Reader`) as a pass runs it: neither zbar nor
/// libZXing 1.4 reads MicroPDF417. Upright (and a quarter, a half, three quarters turned,
/// and a few degrees off those) it reads along the rows and the columns; `turned`, it reads
/// across the bar regions the detector found (`BarRegions`), at whatever angle they lie.
struct MicroPDF417Search: SymbolReader {
    var turned = false

    var description: String { turned ? "microPDF417(turned)" : "microPDF417" }

    func read(_ input: ReaderInput, symbologies: Set<Symbology>) -> [Candidate] {
        guard symbologies.contains(.microPDF417) else { return [] }
        let reader = MicroPDF417Reader(image: input.image, dark: input.binarized(), runs: input.runs())
        let reads = turned ? reader.readTurned(input.bars) : reader.read()
        return reads.map(\.candidate)
    }
}

extension SymbolReader where Self == MicroPDF417Search {
    /// Our own MicroPDF417 reader, along the rows and the columns.
    static var microPDF417: MicroPDF417Search { MicroPDF417Search() }
    /// Our own MicroPDF417 reader, across the bar regions found.
    static var turnedMicroPDF417: MicroPDF417Search { MicroPDF417Search(turned: true) }
}
