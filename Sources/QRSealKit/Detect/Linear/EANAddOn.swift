/// The EAN-2 and EAN-5 add-ons: two or five digits in a small symbol of their own printed to
/// the right of an EAN-13, UPC-A, EAN-8 or UPC-E (a periodical's issue, a book's price). A
/// read of both is reported as the main code's digits followed by the add-on's, as zxing-cpp
/// 3.1 reports it; libZXing 1.4 puts a space between them, which `split(_:of:)` allows.
enum EANAddOn {
    /// The lengths an add-on has.
    static let lengths: Set<Int> = [2, 5]

    /// How many digits the main code of `symbology` has; nil outside the EAN/UPC family.
    static func mainLength(of symbology: Symbology) -> Int? {
        switch symbology {
        case .ean13, .isbn13, .isbn10: return 13
        case .upca: return 12
        case .ean8, .upce: return 8
        default: return nil
        }
    }

    /// The main code's bytes and the add-on's digits in `bytes`, a read of `symbology`
    /// (the add-on empty when there is none); nil when what follows the main code is not
    /// one add-on of digits.
    static func split(_ bytes: [UInt8], of symbology: Symbology) -> (main: [UInt8], addOn: [UInt8])? {
        guard let length = mainLength(of: symbology) else { return nil }
        let main = Array(bytes.prefix(symbology == .isbn10 ? 10 : length))
        var rest = bytes.dropFirst(main.count)
        if rest.first == UInt8(ascii: " ") { rest = rest.dropFirst() }
        guard rest.isEmpty || lengths.contains(rest.count) && rest.allSatisfy({ (48...57).contains($0) }) else { return nil }
        return (main, Array(rest))
    }
}

extension Detection {
    /// Whether this is the main code of `other`, read without the add-on `other` was read
    /// with, at the same place (a UPC-A being the EAN-13 with a leading 0 it also is): it
    /// says nothing `other` does not say, so it is no conflict and is not reported beside it.
    func isMainCode(of other: Detection) -> Bool {
        guard let mine = EANAddOn.split(bytes, of: symbology), mine.addOn.isEmpty,
              let theirs = EANAddOn.split(other.bytes, of: other.symbology), !theirs.addOn.isEmpty
        else { return false }
        func asEAN13(_ main: [UInt8], _ s: Symbology) -> [UInt8] { s == .upca ? [UInt8(ascii: "0")] + main : main }
        let sameKind = symbology == other.symbology
            || Set([symbology, other.symbology]).isSubset(of: [.ean13, .upca])
        guard sameKind, asEAN13(mine.main, symbology) == asEAN13(theirs.main, other.symbology) else { return false }
        let dx = center.x - other.center.x, dy = center.y - other.center.y
        return (dx * dx + dy * dy).squareRoot() < max(extent, other.extent, 1) / 2
    }
}
