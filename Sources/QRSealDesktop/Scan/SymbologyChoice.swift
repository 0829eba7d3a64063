import QRSealKit

/// The kinds of code a user can switch on and off on the scan page, as a phone's scanner
/// offers them: by family, not by each of the twenty-one symbologies.
enum SymbologyChoice: String, CaseIterable, Hashable {
    case qr, aztec, dataMatrix, pdf417, products, linear

    static let all = Set(allCases)

    var title: String {
        switch self {
        case .qr: return "QR, Micro QR and rMQR codes"
        case .aztec: return "Aztec codes"
        case .dataMatrix: return "Data Matrix codes"
        case .pdf417: return "PDF417, MicroPDF417 and MaxiCode codes"
        case .products: return "Product codes (EAN, UPC, ISBN)"
        case .linear: return "Other barcodes (Code 128, 39, 93, I2/5, DataBar, Codabar, Telepen, MSI, DX)"
        }
    }

    var members: [Symbology] {
        switch self {
        case .qr: return [.qr, .microQR, .rmqr]
        case .aztec: return [.aztec]
        case .dataMatrix: return [.dataMatrix]
        case .pdf417: return [.pdf417, .microPDF417, .maxiCode]
        case .products: return [.ean13, .ean8, .upca, .upce, .isbn10, .isbn13]
        case .linear: return [.code128, .code39, .code32, .code93, .i25, .databar, .databarExpanded, .codabar,
                              .databarLimited, .telepen, .msi, .dxFilmEdge]
        }
    }
}

extension Set where Element == SymbologyChoice {
    var symbologies: Set<Symbology> { Set<Symbology>(self.flatMap { (choice: SymbologyChoice) -> [Symbology] in choice.members }) }
}
