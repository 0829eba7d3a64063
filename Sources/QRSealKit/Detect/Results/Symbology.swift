/// The kinds of symbol the detector reads.
public enum Symbology: String, CaseIterable, Sendable, Codable {
    case qr, microQR = "microqr", rmqr, dataMatrix = "datamatrix", aztec, pdf417, microPDF417 = "micropdf417", maxiCode = "maxicode"
    case ean13, ean8, upca, upce, isbn10, isbn13
    case code128, code39, code32, code93, i25, databar, databarExpanded = "databar-exp", codabar
    case databarLimited = "databar-ltd", telepen, msi, dxFilmEdge = "dxfilmedge"

    /// The name shown to users, e.g. `QR-Code`, `EAN-13`.
    public var displayName: String {
        switch self {
        case .qr: return "QR-Code"
        case .microQR: return "Micro-QR"
        case .rmqr: return "rMQR"
        case .dataMatrix: return "Data-Matrix"
        case .aztec: return "Aztec"
        case .pdf417: return "PDF417"
        case .microPDF417: return "MicroPDF417"
        case .maxiCode: return "MaxiCode"
        case .ean13: return "EAN-13"
        case .ean8: return "EAN-8"
        case .upca: return "UPC-A"
        case .upce: return "UPC-E"
        case .isbn10: return "ISBN-10"
        case .isbn13: return "ISBN-13"
        case .code128: return "Code-128"
        case .code39: return "Code-39"
        case .code32: return "Code-32"
        case .code93: return "Code-93"
        case .i25: return "I2/5"
        case .databar: return "DataBar"
        case .databarExpanded: return "DataBar-Exp"
        case .codabar: return "Codabar"
        case .databarLimited: return "DataBar-Ltd"
        case .telepen: return "Telepen"
        case .msi: return "MSI"
        case .dxFilmEdge: return "DXFilmEdge"
        }
    }

    /// What the detector looks for unless told otherwise: everything. Codabar, which carries
    /// no check of its own, is held like Code 39 and I2/5 to reads of the image as it is, on
    /// several scan lines (`Symbology.isStronglyChecked`); so held it read nothing on any
    /// image of the shared corpus but its own. So for MSI Plessey and DX film edge, whose
    /// checks are weak (`WidthReader`): on, as a phone's scanner has them, since they too
    /// read nothing on the corpus but their own. Not ISBN-10 and ISBN-13: a book's number is
    /// an EAN-13, named so by default as zbar and zxing-cpp name it, whatever else is asked
    /// for, and as an ISBN only when `isbn10` or `isbn13` is asked for.
    public static let defaultSet: Set<Symbology> = Set(allCases).subtracting([.isbn10, .isbn13])

    /// Whether this is a two-dimensional symbology (PDF417 and MicroPDF417, stacked rows with
    /// Reed–Solomon codewords, count as one; MaxiCode, a hexagonal grid, too): read from one sighting, and from prepared copies too.
    public var isMatrix: Bool {
        switch self {
        case .qr, .microQR, .rmqr, .dataMatrix, .aztec, .pdf417, .microPDF417, .maxiCode: return true
        default: return false
        }
    }
}

extension Symbology {
    /// Whether a misread is caught by the symbology itself (a check digit, a checksum or
    /// Reed–Solomon); Code 39, I2/5 and Codabar carry none by default, a Code 32's
    /// check digit is read from a Code 39, and MSI Plessey's check digits and DX film
    /// edge's parity bit catch too few.
    var isStronglyChecked: Bool {
        switch self {
        case .code39, .code32, .i25, .codabar, .msi, .dxFilmEdge: return false
        default: return true
        }
    }
}

extension Symbology {
    /// How many modules wide a symbol of the EAN/UPC family is; nil for other symbologies.
    var eanModules: Int? {
        switch self {
        case .ean13, .upca, .isbn13, .isbn10: return 95
        case .ean8: return 67
        case .upce: return 51
        default: return nil
        }
    }
}
