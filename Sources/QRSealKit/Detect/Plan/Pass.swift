/// One reader run on one prepared copy of the image.
struct Pass: Sendable, Hashable, CustomStringConvertible {
    /// What runs: an engine or one of our own readers (`SymbolReader`).
    let reader: any SymbolReader
    let steps: [Step]

    init(_ reader: some SymbolReader, _ steps: [Step] = []) {
        self.reader = reader
        self.steps = steps
    }

    static func == (a: Pass, b: Pass) -> Bool {
        AnyHashable(a.reader) == AnyHashable(b.reader) && a.steps == b.steps
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(AnyHashable(reader))
        hasher.combine(steps)
    }

    /// The reader and the steps, as the profile names a pass: "zbar [threshold(0.025)]".
    var description: String { "\(reader) \(steps)" }

    /// The engine or reader of ours this pass runs, whatever its options and steps: "zxing"
    /// for every zxing-cpp search, "zbar", "profiles", "located", …
    var engine: String {
        let name = "\(reader)"
        return name.hasPrefix("zxing") ? "zxing" : String(name.prefix { $0.isLetter })
    }

    /// Whether results of this pass are held to `Symbology.isStronglyChecked`: processed
    /// copies (thresholded, sharpened, tiled) invent bar patterns that weakly checked
    /// linear symbologies would happily read.
    var isStrict: Bool { !steps.isEmpty }

    /// Whether this pass looks for linear codes too. Only the image as it is, its
    /// inverted copy and the copies zbar's linear scan alone is given (`PassPlan.linearCopies`)
    /// do: linear scanning costs each engine more than its QR search, and linear codes do
    /// not gain from the other copies as QR codes do.
    var readsLinearCodes: Bool {
        steps.isEmpty || steps == [.invert] || (reader as? ZBarSearch)?.linearOnly == true
    }

    /// What this pass reports on `input.image`, the prepared copy; corners in the copy's pixels.
    func run(on input: ReaderInput, symbologies wanted: Set<Symbology>) -> [Candidate] {
        let symbologies = readsLinearCodes ? wanted : wanted.filter(\.isMatrix)
        guard !symbologies.isEmpty else { return [] }
        var input = input
        input.isStrict = isStrict
        return reader.read(input, symbologies: symbologies)
    }
}
