/// One symbol as an engine reported it, before it is checked: corners are in the pixels of
/// the image that engine was given, which may be a scaled, padded or cropped copy.
struct Candidate: Sendable {
    var symbology: Symbology
    var bytes: [UInt8]
    /// Top-left, top-right, bottom-right, bottom-left as the symbol is read.
    var corners: [Point]
    var version: Int? = nil
    var errorCorrection: ErrorCorrection? = nil
    /// The engine's own reading of the bytes as text, when it has one.
    var engineText: String? = nil
    /// Whether the symbol declared its character set (an ECI designator) to the engine.
    var declaresCharacterSet = false
    /// The symbol's place in a QR Structured Append sequence, when the engine reports one.
    var structuredAppend: StructuredAppend? = nil
    /// Whether the reader's own error correction vouches for the bytes with a wide margin
    /// (`AztecSymbol.isSoundlyChecked`): such a read wins over a different one at the same place.
    var isSoundlyChecked = false
    /// How many of zbar's scan lines read these bytes (`zbar_symbol_get_quality`); nil from
    /// other readers.
    var scanLines: Int? = nil
    /// 1 for a QR Code Model 1 symbol (`QRModel1`), whose `version` counts Model 1's sizes.
    var model: Int? = nil
}
