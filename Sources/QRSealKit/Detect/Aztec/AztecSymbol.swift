/// What an Aztec symbol's modules say (ISO/IEC 24778): the mode message around the
/// bull's-eye (its layers and data word count, Reed–Solomon over GF(16)), then the data
/// layers, read as words of 6 to 12 bits, corrected, unstuffed and decoded; or, for an
/// Aztec Rune (Annex A), the value 0–255 its mode message alone carries.
struct AztecSymbol: Sendable {
    enum Kind: Sendable { case compact, full, rune }

    let kind: Kind
    /// Data layers: 1–4 compact, 1–32 full, 0 for a rune.
    let layers: Int
    /// The symbol's side in modules, the reference grid included.
    var size: Int { Self.size(kind, layers: layers) }
    /// The decoded payload; a rune's is its value in three decimal digits ("007"), as
    /// zxing-cpp reports it.
    let text: AztecText
    /// Words the data's Reed–Solomon code corrected (the mode message's for a rune), and
    /// how many check words it had.
    let corrected: Int
    let checkWords: Int

    /// Whether the check words left a wide margin: at most a quarter of them went to
    /// corrections, so a misread that still checks is far less likely than a right read.
    var isSoundlyChecked: Bool { 4 * corrected <= checkWords }

    /// The radius, in modules from the centre, of the ring holding the mode message.
    static func modeRadius(compact: Bool) -> Int { compact ? 5 : 7 }

    static func size(_ kind: Kind, layers: Int) -> Int {
        switch kind {
        case .rune: return 11
        case .compact: return 11 + 4 * layers
        case .full:
            let base = 14 + 4 * layers
            return base + 1 + 2 * ((base / 2 - 1) / 15)
        }
    }

    /// The mode message's bits, clockwise from the top-left corner, in symbol coordinates
    /// relative to the centre (y down); the centre row and column of a full symbol belong
    /// to the reference grid.
    static func modePositions(compact: Bool) -> [(Int, Int)] {
        let r = modeRadius(compact: compact)
        let along = Array((-(r - 2))...(r - 2)).filter { compact || $0 != 0 }
        return along.map { ($0, -r) } + along.map { (r, $0) } + along.reversed().map { ($0, r) }
            + along.reversed().map { (-r, $0) }
    }

    /// The orientation marks at the mode ring's corners: three dark modules at the top left,
    /// two at the top right, one at the bottom right, none at the bottom left.
    static func orientationMarks(compact: Bool) -> [(x: Int, y: Int, dark: Bool)] {
        let r = modeRadius(compact: compact)
        return [(-r, -r, true), (-r + 1, -r, true), (-r, -r + 1, true),
                (r, -r, true), (r, -r + 1, true), (r - 1, -r, false),
                (r, r - 1, true), (r, r, false), (r - 1, r, false),
                (-r, r, false), (-r + 1, r, false), (-r, r - 1, false)]
    }

    /// How many orientation marks `module` (symbol coordinates relative to the centre)
    /// shows as they should be, of 12.
    static func orientationScore(compact: Bool, _ module: (Int, Int) -> Bool) -> Int {
        orientationMarks(compact: compact).filter { module($0.x, $0.y) == $0.dark }.count
    }

    /// The symbol `module` shows, given in symbol coordinates relative to the centre, or nil
    /// when its mode message or data do not check. `module` must answer for every module of
    /// the symbol once the mode message has given its size.
    init?(compact: Bool, module: (Int, Int) -> Bool) {
        if let (layers, dataWords) = Self.modeMessage(compact: compact, module: module) {
            guard let symbol = Self.data(compact: compact, layers: layers, dataWords: dataWords, module: module)
            else { return nil }
            self = symbol
            return
        }
        let words = Self.modeWords(compact: compact, module: module)
        // A rune's mode message is inverted at every other bit, starting with the first.
        guard compact else { return nil }
        var rune = words.map { $0 ^ 0b1010 }
        guard let errors = ReedSolomon.correct(&rune, checkWords: 5, field: .gf16) else { return nil }
        let value = rune[0] << 4 | rune[1]
        let digits = String(value)
        kind = .rune
        layers = 0
        text = AztecText(bytes: Array((String(repeating: "0", count: 3 - digits.count) + digits).utf8))
        corrected = errors
        checkWords = 5
    }

    /// The mode message's 4-bit words as `module` shows them.
    private static func modeWords(compact: Bool, module: (Int, Int) -> Bool) -> [Int] {
        let bits = modePositions(compact: compact).map { module($0.0, $0.1) }
        return stride(from: 0, to: bits.count, by: 4).map { i in
            bits[i..<i + 4].reduce(0) { $0 << 1 | ($1 ? 1 : 0) }
        }
    }

    /// The layers and data words the mode message gives, when its check words hold.
    static func modeMessage(compact: Bool, module: (Int, Int) -> Bool) -> (layers: Int, dataWords: Int)? {
        var words = modeWords(compact: compact, module: module)
        let dataCount = compact ? 2 : 4
        guard ReedSolomon.correct(&words, checkWords: words.count - dataCount, field: .gf16) != nil else { return nil }
        let value = words[0..<dataCount].reduce(0) { $0 << 4 | $1 }
        let layers = compact ? (value >> 6) + 1 : (value >> 11) + 1
        // A Reader Initialisation symbol sets the count's top bit, which a compact
        // symbol of one layer and a full-range one of up to 22 never need.
        var count = compact ? value & 0x3F : value & 0x7FF
        if compact && layers == 1 { count &= 0x1F }
        if !compact && layers <= 22 { count &= 0x3FF }
        return (layers, count + 1)
    }

    private init(kind: Kind, layers: Int, text: AztecText, corrected: Int, checkWords: Int) {
        self.kind = kind
        self.layers = layers
        self.text = text
        self.corrected = corrected
        self.checkWords = checkWords
    }

    /// Bits in a data word, by the number of layers.
    static func wordSize(layers: Int) -> Int {
        layers <= 2 ? 6 : layers <= 8 ? 8 : layers <= 22 ? 10 : 12
    }

    static func field(wordSize: Int) -> GaloisField {
        switch wordSize {
        case 6: return .gf64
        case 8: return .gf256
        case 10: return .gf1024
        default: return .gf4096
        }
    }

    /// The offset from the centre, in modules of the whole symbol, of index `b` of a row or
    /// column of the data layers as if there were no reference grid (which, in a full
    /// symbol, runs through the centre and every 16th module from it).
    static func offset(_ b: Int, compact: Bool, layers: Int) -> Int {
        if compact { return b - (11 + 4 * layers) / 2 }
        let half = (14 + 4 * layers) / 2
        let d = b >= half ? b - half : half - 1 - b
        let out = d + 1 + d / 15
        return b >= half ? out : -out
    }

    /// The data layers' bits, outermost layer first; in each layer of two modules'
    /// thickness, its left side downwards, its bottom rightwards, its right side upwards,
    /// its top leftwards, two bits (across the layer) at each step.
    static func dataBits(compact: Bool, layers: Int, module: (Int, Int) -> Bool) -> [Bool] {
        let base = compact ? 11 + 4 * layers : 14 + 4 * layers
        func at(_ x: Int, _ y: Int) -> Bool {
            module(offset(x, compact: compact, layers: layers), offset(y, compact: compact, layers: layers))
        }
        var bits: [Bool] = []
        bits.reserveCapacity((compact ? 88 : 112) * layers + 16 * layers * layers)
        for layer in 0..<layers {
            let low = 2 * layer, high = base - 1 - 2 * layer
            let side = (layers - layer) * 4 + (compact ? 9 : 12)
            for j in 0..<side { for k in 0..<2 { bits.append(at(low + k, low + j)) } }
            for j in 0..<side { for k in 0..<2 { bits.append(at(low + j, high - k)) } }
            for j in 0..<side { for k in 0..<2 { bits.append(at(high - k, high - j)) } }
            for j in 0..<side { for k in 0..<2 { bits.append(at(high - j, low + k)) } }
        }
        return bits
    }

    private static func data(compact: Bool, layers: Int, dataWords: Int,
                             module: (Int, Int) -> Bool) -> AztecSymbol? {
        let bits = dataBits(compact: compact, layers: layers, module: module)
        let w = wordSize(layers: layers)
        let total = bits.count / w
        guard dataWords < total else { return nil }
        // The first `bits.count % w` bits are left over and hold nothing.
        var words = stride(from: bits.count % w, to: bits.count, by: w).map { i in
            bits[i..<i + w].reduce(0) { $0 << 1 | ($1 ? 1 : 0) }
        }
        guard let errors = ReedSolomon.correct(&words, checkWords: total - dataWords, field: field(wordSize: w))
        else { return nil }
        // Bit stuffing: no data word is all zeros or all ones; one that would have been
        // begins with w - 1 equal bits and ends with the other one, which is dropped.
        var unstuffed: [Bool] = []
        unstuffed.reserveCapacity(dataWords * w)
        let ones = (1 << w) - 1
        for word in words[0..<dataWords] {
            guard word != 0, word != ones else { return nil }
            let count = word == 1 || word == ones - 1 ? w - 1 : w
            for i in stride(from: w - 1, to: w - 1 - count, by: -1) { unstuffed.append(word >> i & 1 == 1) }
        }
        guard let text = AztecText(bits: unstuffed) else { return nil }
        return AztecSymbol(kind: compact ? .compact : .full, layers: layers, text: text, corrected: errors,
                           checkWords: total - dataWords)
    }
}
