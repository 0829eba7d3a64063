/// The kinds of symbol the detector reads.
public enum Symbology: String, CaseIterable, Sendable, Codable {
    case qr
    case ean13, ean8, upca, upce, isbn10, isbn13
    case code128, code39, code93, i25, databar, databarExpanded = "databar-exp", codabar

    /// The name shown to users, e.g. `QR-Code`, `EAN-13`.
    public var displayName: String {
        switch self {
        case .qr: return "QR-Code"
        case .ean13: return "EAN-13"
        case .ean8: return "EAN-8"
        case .upca: return "UPC-A"
        case .upce: return "UPC-E"
        case .isbn10: return "ISBN-10"
        case .isbn13: return "ISBN-13"
        case .code128: return "Code-128"
        case .code39: return "Code-39"
        case .code93: return "Code-93"
        case .i25: return "I2/5"
        case .databar: return "DataBar"
        case .databarExpanded: return "DataBar-Exp"
        case .codabar: return "Codabar"
        }
    }

    /// What the detector looks for unless told otherwise: everything but Codabar, whose
    /// weak checking yields false reads on text and textures.
    public static let defaultSet: Set<Symbology> = Set(allCases).subtracting([.codabar])

    /// Whether this is a two-dimensional symbology.
    public var isMatrix: Bool { self == .qr }
}
