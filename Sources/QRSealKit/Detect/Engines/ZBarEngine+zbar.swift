import CZBar

/// Reads symbols from a grayscale raster with zbar's image scanner.
///
/// A fresh `zbar_image_scanner_t` is made for every call: a reused scanner keeps state
/// (its result cache) that makes one image's results depend on the images before it.
/// zbar is opened on the first call (`SharedLibrary.zbar`); when it cannot be, a scan finds
/// nothing and `SharedLibrary.zbar.failure` says why.
struct ZBarEngine: Sendable {
    let symbologies: Set<Symbology>
    /// Whether to retry inverted (light-on-dark) when nothing is found.
    var testInverted = true
    /// Also read EAN-2 and EAN-5 add-ons (`ZBAR_EAN2`, `ZBAR_EAN5`): zbar then reports a code
    /// with its add-on as one composite symbol (`withAddOn(from:)`).
    var eanAddOns = false

    /// Scan lines that must agree on a weakly checked linear code.
    static let minimumScanLines: Int32 = 4
    /// The fewest digits of an Interleaved 2 of 5 reported (`ZBAR_CFG_MIN_LEN`).
    static let shortestI25: Int32 = 4

    /// Runs `zbar_scan_image` on `image` and copies every symbol out before freeing.
    func scan(_ image: GrayImage) -> [Candidate] {
        guard image.width > 0, image.height > 0 else { return [] }
        guard let scanner = zbar_image_scanner_create() else { return [] }
        defer { zbar_image_scanner_destroy(scanner) }
        configure(scanner)
        guard let zimage = zbar_image_create() else { return [] }
        defer { zbar_image_destroy(zimage) }
        // "Y800": 8-bit luma, one byte per pixel.
        zbar_image_set_format(zimage, 0x3030_3859)
        zbar_image_set_size(zimage, UInt32(image.width), UInt32(image.height))
        return image.pixels.withUnsafeBufferPointer { buffer -> [Candidate] in
            // No cleanup handler: the buffer stays ours and outlives the scan below.
            zbar_image_set_data(zimage, buffer.baseAddress, UInt(buffer.count), nil)
            guard zbar_scan_image(scanner, zimage) > 0 else { return [] }
            var found: [Candidate] = []
            var symbol = zbar_image_first_symbol(zimage)
            while let s = symbol {
                if let candidate = Self.candidate(from: s) ?? (eanAddOns ? Self.withAddOn(from: s) : nil) {
                    found.append(candidate)
                }
                symbol = zbar_symbol_next(s)
            }
            return found
        }
    }

    private func configure(_ scanner: OpaquePointer) {
        // Turn everything off, then on again only what was asked for.
        zbar_image_scanner_set_config(scanner, ZBAR_NONE, ZBAR_CFG_ENABLE, 0)
        for symbology in symbologies {
            guard let type = symbology.zbarType else { continue }
            zbar_image_scanner_set_config(scanner, type, ZBAR_CFG_ENABLE, 1)
        }
        // ISBNs are EAN-13s with a prefix; zbar reports them only when EAN-13 is on.
        if symbologies.contains(.isbn10) || symbologies.contains(.isbn13) {
            zbar_image_scanner_set_config(scanner, ZBAR_EAN13, ZBAR_CFG_ENABLE, 1)
        }
        // An Interleaved 2 of 5 of four digits (two pairs) counts, as zxing-cpp 3.1 reads
        // it; zbar's own least is six. Its scan-line rule (`candidate(from:)`) is what keeps
        // noise out, not the length.
        if symbologies.contains(.i25) {
            zbar_image_scanner_set_config(scanner, ZBAR_I25, ZBAR_CFG_MIN_LEN, Self.shortestI25)
        }
        if eanAddOns {
            zbar_image_scanner_set_config(scanner, ZBAR_EAN2, ZBAR_CFG_ENABLE, 1)
            zbar_image_scanner_set_config(scanner, ZBAR_EAN5, ZBAR_CFG_ENABLE, 1)
            // Without it zbar reports the add-on apart from its code, with nothing to join them.
            zbar_image_scanner_set_config(scanner, ZBAR_COMPOSITE, ZBAR_CFG_ENABLE, 1)
        }
        // Raw bytes, no character-set guessing: TextDecoding decides what is text.
        zbar_image_scanner_set_config(scanner, ZBAR_QRCODE, ZBAR_CFG_BINARY, 1)
        if testInverted {
            zbar_image_scanner_set_config(scanner, ZBAR_NONE, ZBAR_CFG_TEST_INVERTED, 1)
        }
    }

    /// Copies a zbar symbol's type, bytes and location out, for `SymbolCheck` to check.
    ///
    /// A symbology without a check of its own (Code 39, I2/5, Codabar) must have been read
    /// the same on at least `minimumScanLines` scan lines (`zbar_symbol_get_quality`): noise
    /// and texture yield such codes on one or two neighbouring lines, a printed barcode on
    /// every line across its height. zxing-cpp applies the like rule itself (`minLineCount`).
    private static func candidate(from symbol: OpaquePointer) -> Candidate? {
        guard let symbology = Symbology(zbarType: zbar_symbol_get_type(symbol)) else { return nil }
        if !symbology.isStronglyChecked && zbar_symbol_get_quality(symbol) < minimumScanLines { return nil }
        let bytes = bytes(of: symbol)
        let count = zbar_symbol_get_loc_size(symbol)
        let points = (0..<count).map {
            Point(x: Double(zbar_symbol_get_loc_x(symbol, $0)), y: Double(zbar_symbol_get_loc_y(symbol, $0)))
        }
        var candidate = Candidate(symbology: symbology, bytes: bytes, corners: corners(points, symbology))
        // For a two-dimensional code zbar's quality is no count of lines.
        if !symbology.isMatrix { candidate.scanLines = Int(zbar_symbol_get_quality(symbol)) }
        return candidate
    }

    /// An EAN/UPC code read with its add-on, which zbar gives as a `ZBAR_COMPOSITE` of the
    /// code and the add-on: the code's symbology and place, the add-on's digits after the
    /// code's; nil for any other symbol.
    private static func withAddOn(from symbol: OpaquePointer) -> Candidate? {
        guard zbar_symbol_get_type(symbol) == ZBAR_COMPOSITE, let parts = zbar_symbol_get_components(symbol)
        else { return nil }
        var main: Candidate?
        var addOn: [UInt8] = []
        var part = zbar_symbol_set_first_symbol(parts)
        while let p = part {
            let type = zbar_symbol_get_type(p)
            if type == ZBAR_EAN2 || type == ZBAR_EAN5 {
                addOn = bytes(of: p)
            } else if let code = candidate(from: p), EANAddOn.mainLength(of: code.symbology) != nil {
                main = code
            }
            part = zbar_symbol_next(p)
        }
        guard var joined = main, EANAddOn.lengths.contains(addOn.count) else { return nil }
        joined.bytes += addOn
        return joined
    }

    /// The symbol's data, copied.
    private static func bytes(of symbol: OpaquePointer) -> [UInt8] {
        let length = Int(zbar_symbol_get_data_length(symbol))
        guard length > 0, let data = zbar_symbol_get_data(symbol) else { return [] }
        return data.withMemoryRebound(to: UInt8.self, capacity: length) { Array(UnsafeBufferPointer(start: $0, count: length)) }
    }

    /// zbar lists a QR code's corners as top-left, bottom-left, bottom-right, top-right;
    /// for linear codes it lists points along each scan line, which we box.
    private static func corners(_ points: [Point], _ symbology: Symbology) -> [Point] {
        if symbology == .qr, points.count == 4 {
            return [points[0], points[3], points[2], points[1]]
        }
        guard let minX = points.map(\.x).min(), let maxX = points.map(\.x).max(),
              let minY = points.map(\.y).min(), let maxY = points.map(\.y).max() else { return [] }
        return [Point(x: minX, y: minY), Point(x: maxX, y: minY),
                Point(x: maxX, y: maxY), Point(x: minX, y: maxY)]
    }
}

extension Symbology {
    /// zbar's type for this symbology; nil for the matrix codes other than QR, which zbar
    /// does not read (its PDF417 decoder stops short of the data), nor rMQR, and for the linear
    /// codes only our own `WidthReader` reads.
    var zbarType: zbar_symbol_type_t? {
        switch self {
        case .microQR, .rmqr, .dataMatrix, .aztec, .pdf417, .microPDF417, .maxiCode: return nil
        case .databarLimited, .telepen, .msi, .dxFilmEdge: return nil
        case .qr: return ZBAR_QRCODE
        case .ean13: return ZBAR_EAN13
        case .ean8: return ZBAR_EAN8
        case .upca: return ZBAR_UPCA
        case .upce: return ZBAR_UPCE
        case .isbn10: return ZBAR_ISBN10
        case .isbn13: return ZBAR_ISBN13
        case .code128: return ZBAR_CODE128
        // A Code 32 is a Code 39 to zbar; `SymbolCheck` names it.
        case .code39, .code32: return ZBAR_CODE39
        case .code93: return ZBAR_CODE93
        case .i25: return ZBAR_I25
        case .databar: return ZBAR_DATABAR
        case .databarExpanded: return ZBAR_DATABAR_EXP
        case .codabar: return ZBAR_CODABAR
        }
    }

    init?(zbarType: zbar_symbol_type_t) {
        guard let match = Symbology.allCases.first(where: { $0.zbarType == zbarType }) else { return nil }
        self = match
    }
}
