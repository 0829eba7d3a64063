/// The one path by which any engine's result becomes a `Detection`.
///
/// Whatever engine or pass found it, a candidate is checked the same way: a symbology that
/// was asked for, a payload that passes the check its symbology defines, four corners that
/// lie on or near the input image; then its corners are mapped back to input pixels and its
/// text is decided by `TextDecoding`.
enum SymbolCheck {
    /// The detection `candidate` stands for, or nil when it fails a check.
    static func detection(from candidate: Candidate, mapping: PixelMapping, inputWidth: Int, inputHeight: Int,
                          wanted: Set<Symbology>, reading: ReadingOptions = ReadingOptions()) -> Detection? {
        guard let (symbology, bytes) = normalized(candidate.symbology, candidate.bytes, wanted: wanted, reading: reading),
              payloadIsValid(symbology, bytes) else { return nil }
        // The engine's reading is only for bytes it read; a renamed ISBN-10 is new text.
        let engineText = bytes == candidate.bytes ? candidate.engineText : nil
        // MaxiCode's characters are ISO-8859-1 unless an ECI says otherwise (ISO/IEC 16023):
        // no guess between encodings, as for QR.
        let latin1 = symbology == .maxiCode && !candidate.declaresCharacterSet && !bytes.contains(0)
        var read = Detection(symbology: symbology, bytes: bytes,
                             text: latin1 ? String(bytes.map { Character(Unicode.Scalar($0)) })
                                 : TextDecoding.text(from: bytes, engineReading: engineText,
                                                     declared: candidate.declaresCharacterSet),
                             corners: candidate.corners,
                             version: candidate.version.flatMap { (1...40).contains($0) ? $0 : nil },
                             errorCorrection: candidate.errorCorrection)
        read.structuredAppend = candidate.structuredAppend
        read.isSoundlyChecked = candidate.isSoundlyChecked
        read.model = candidate.model
        read.scanLines = candidate.scanLines
        let detection = read.mapped(through: mapping), corners = detection.corners
        guard corners.count == 4, corners.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) else { return nil }
        // A symbol lies on the image; engines extrapolate corners a little past the edge at most.
        let slackX = Double(inputWidth) / 4 + 4, slackY = Double(inputHeight) / 4 + 4
        guard corners.allSatisfy({ $0.x >= -slackX && $0.x <= Double(inputWidth) + slackX
                                   && $0.y >= -slackY && $0.y <= Double(inputHeight) + slackY }) else { return nil }
        return detection
    }

    /// One spelling per symbol whichever engine read it: an EAN-13 in the ISBN ranges is
    /// an ISBN-13 (or ISBN-10) when those were asked for, as zbar reports it; a Code 39 of
    /// six base-32 characters whose digits check is the Code 32 it stands for when Code 32
    /// was asked for; a Code 39 whose shift characters all form Full ASCII pairs is the text
    /// they stand for (`Code39FullASCII`) unless `reading` asks for the characters as they
    /// stand; a GS1 DataBar is its element string as zbar gives it (see `GS1`).
    static func normalized(_ symbology: Symbology, _ bytes: [UInt8], wanted: Set<Symbology>,
                           reading: ReadingOptions = ReadingOptions()) -> (Symbology, [UInt8])? {
        // An add-on's digits follow the main code's, which is named on its own.
        if reading.eanAddOns, let (main, addOn) = EANAddOn.split(bytes, of: symbology), !addOn.isEmpty {
            return normalized(symbology, main, wanted: wanted, reading: reading).map { ($0.0, $0.1 + addOn) }
        }
        if symbology == .ean13, bytes.count == 13, bytes.starts(with: Array("97".utf8)),
           bytes[2] == UInt8(ascii: "8") || bytes[2] == UInt8(ascii: "9") {
            if wanted.contains(.isbn13) { return (.isbn13, bytes) }
            if wanted.contains(.isbn10), bytes[2] == UInt8(ascii: "8") {
                let body = Array(bytes[3..<12])
                let sum = body.enumerated().reduce(0) { $0 + (10 - $1.offset) * Int($1.element - 48) }
                let check = (11 - sum % 11) % 11
                return (.isbn10, body + [check == 10 ? UInt8(ascii: "X") : UInt8(48 + check)])
            }
        }
        if symbology == .code39, wanted.contains(.code32), let digits = Code32.digits(fromCode39: bytes) {
            return (.code32, digits)
        }
        guard wanted.contains(symbology) else { return nil }
        switch symbology {
        case .databar where bytes.count == 14:
            // zxing-cpp gives the GTIN alone, zbar the element string with its AI.
            return (symbology, Array("01".utf8) + bytes)
        case .databarExpanded where bytes.first == UInt8(ascii: "("):
            guard let plain = GS1.elementString(bracketed: bytes) else { return nil }
            return (symbology, plain)
        case .code39 where reading.code39FullASCII:
            return (symbology, Code39FullASCII.decoded(bytes) ?? bytes)
        default:
            return (symbology, bytes)
        }
    }

    /// Whether the payload is possible for its symbology: digits and a right check digit for
    /// the EAN/UPC family (and an add-on of two or five digits after them, `EANAddOn`), at most a full version-40 symbol for QR.
    static func payloadIsValid(_ symbology: Symbology, _ bytes: [UInt8]) -> Bool {
        // Only an add-on of digits may follow an EAN/UPC code; its check is in its bars' parity.
        if let (main, addOn) = EANAddOn.split(bytes, of: symbology), !addOn.isEmpty {
            return payloadIsValid(symbology, main)
        }
        let digits = bytes.map { Int($0) - 48 }
        let allDigits = digits.allSatisfy { (0...9).contains($0) }
        switch symbology {
        case .qr:
            return bytes.count <= 7089
        case .ean13, .isbn13:
            return bytes.count == 13 && allDigits && gs1CheckDigitIsValid(digits)
        case .ean8:
            return bytes.count == 8 && allDigits && gs1CheckDigitIsValid(digits)
        case .upca:
            return bytes.count == 12 && allDigits && gs1CheckDigitIsValid(digits)
        case .upce:
            return bytes.count == 8 && allDigits
        case .isbn10:
            guard bytes.count == 10, digits.prefix(9).allSatisfy({ (0...9).contains($0) }) else { return false }
            let last = bytes[9] == UInt8(ascii: "X") ? 10 : digits[9]
            guard (0...10).contains(last) else { return false }
            let sum = digits.prefix(9).enumerated().reduce(0) { $0 + (10 - $1.offset) * $1.element } + last
            return sum % 11 == 0
        case .i25:
            return !bytes.isEmpty && bytes.count % 2 == 0 && allDigits
        case .databar:
            return bytes.count == 16 && bytes.starts(with: Array("01".utf8)) && allDigits
                && gs1CheckDigitIsValid(Array(digits.dropFirst(2)))
        case .databarLimited:
            // Its GTIN-14 starts with 0 or 1.
            return bytes.count == 16 && bytes.starts(with: Array("01".utf8)) && allDigits && digits[2] <= 1
                && gs1CheckDigitIsValid(Array(digits.dropFirst(2)))
        case .msi:
            return bytes.count >= MSIDecoder.minDigits && allDigits && MSIDecoder.checkHolds(digits)
        case .telepen:
            return !bytes.isEmpty && bytes.allSatisfy { $0 < 128 }
        case .microQR:
            return !bytes.isEmpty && bytes.count <= 35
        case .code32:
            return bytes.count == 10 && bytes[0] == UInt8(ascii: "A") && Code32.checkDigitIsValid(Array(digits.dropFirst()))
        case .code128, .code39, .code93, .databarExpanded, .codabar, .dataMatrix, .aztec, .rmqr, .pdf417, .microPDF417, .maxiCode, .dxFilmEdge:
            return !bytes.isEmpty
        }
    }

    /// The GS1 rule: weights 3, 1, 3, … from the right of the data digits, total a multiple of 10.
    static func gs1CheckDigitIsValid(_ digits: [Int]) -> Bool {
        guard let check = digits.last else { return false }
        let sum = digits.dropLast().reversed().enumerated().reduce(0) { $0 + $1.element * ($1.offset % 2 == 0 ? 3 : 1) }
        return (10 - sum % 10) % 10 == check
    }
}
